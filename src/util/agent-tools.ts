/**
 * The agent-runtime tool names hestai judges itself, and the pattern language of `agents.read_tools` (the
 * reads a base policy adds, issue 26). Pure data and pure checks: the config schema refuses a pattern that
 * would name one of these tools, and `src/agent/tool-use.ts` classifies calls by them.
 */

/** Claude Code's file-changing tools (their `tool_input` names the file). */
export const EDIT_TOOLS = ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'] as const;
/** Shell tools whose `command` is read for writes (Claude Code's `Bash`; `shell` for generic callers). */
export const SHELL_TOOLS = ['Bash', 'shell'] as const;
/** PowerShell tools (Claude Code's `PowerShell`): their `command` is read as PowerShell. */
export const POWERSHELL_TOOLS = ['PowerShell', 'powershell'] as const;
/** Generic callers' edit tools (`hestai check tool-use`). */
export const GENERIC_EDIT_TOOLS = ['edit', 'write'] as const;

/**
 * Tool names of other runtimes mapped to Claude Code's (Gemini CLI: `write_file` and `replace` edit a
 * file, `run_shell_command` runs a shell command), so `hestai check tool-use` reads their payloads as is.
 */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  write_file: 'Write',
  replace: 'Edit',
  run_shell_command: 'Bash',
};

/** hestai's own MCP tools (`mcp__hestai__anchor`, `mcp__hestai__clock_out`, ...): the server gates each. */
export const HESTAI_MCP_PREFIX = 'mcp__hestai__';

/**
 * The tools the hestai MCP server serves (its `defineTool` takes no other name), exactly: another server
 * whose name merely starts with `hestai` (`hestai_notes`: `mcp__hestai__notes__save_note` in Claude Code and
 * Codex) is not hestai's.
 */
export const HESTAI_MCP_TOOLS = [
  'anchor',
  'anchor_status',
  'odyssean_anchor',
  'clock_in',
  'clock_out',
  'resolve_conflict',
  'session_start',
  'validate_gate',
  'advance_phase',
  'record_evidence',
  'get_blocked_reason',
  'session_end',
] as const;
export type HestaiMcpTool = (typeof HESTAI_MCP_TOOLS)[number];

/** Pure: is `tool` (as Claude Code and Codex name it) one of the hestai server's tools? */
export function isHestaiMcpTool(tool: string): boolean {
  return (
    tool.startsWith(HESTAI_MCP_PREFIX) &&
    (HESTAI_MCP_TOOLS as readonly string[]).includes(tool.slice(HESTAI_MCP_PREFIX.length))
  );
}

/**
 * hestai's MCP tool `tool` as a runtime's model calls it, or null when the runtime gives it no fixed name.
 * Claude Code's and Codex's naming, `mcp__<server>__<tool>`, is also the one `hestai check tool-use` and the
 * read lists use.
 */
export type HestaiMcpName = (tool: string) => string | null;
export const claudeMcpName: HestaiMcpName = (tool) => `${HESTAI_MCP_PREFIX}${tool}`;

/** Every tool hestai judges by what it does (edits, shells): never a listed read. */
export const JUDGED_TOOLS: readonly string[] = [
  ...EDIT_TOOLS,
  ...GENERIC_EDIT_TOOLS,
  ...SHELL_TOOLS,
  ...POWERSHELL_TOOLS,
  ...Object.keys(TOOL_ALIASES),
];

/** A pattern of `agents.read_tools`: a tool name, or a name prefix ending in one `*`. */
const PATTERN = /^[A-Za-z0-9_.:-]*\*?$/;

/** Pure: does `pattern` (an exact name, or `prefix*`) name `tool`? Case-sensitive, as the runtimes are. */
export function toolPatternMatches(pattern: string, tool: string): boolean {
  return pattern.endsWith('*') ? tool.startsWith(pattern.slice(0, -1)) : tool === pattern;
}

/**
 * Pure: why `pattern` cannot be an entry of `agents.read_tools`, or null. Refused: anything but a name or
 * `prefix*`; a pattern naming a tool hestai judges itself (compared without case: `bash` and `B*` name
 * Bash), or hestai's own MCP tools, which write session state and are gated by its MCP server.
 */
export function readToolPatternProblem(pattern: string): string | null {
  if (pattern === '' || !PATTERN.test(pattern))
    return `expected a tool name (e.g. "mcp__github__get_issue") or a name prefix ending in one "*" (e.g. "mcp__github__get_*"), not ${JSON.stringify(pattern)}`;
  const lower = pattern.toLowerCase();
  const judged = JUDGED_TOOLS.filter((tool) => toolPatternMatches(lower, tool.toLowerCase()));
  if (judged.length > 0)
    return `${JSON.stringify(pattern)} would list ${judged.join(', ')}: ${judged.length === 1 ? 'a tool' : 'tools'} hestai judges itself (an edit is a write; a shell command is a read only when every part is on the read-only list): list only other tools`;
  const prefix = lower.endsWith('*') ? lower.slice(0, -1) : null;
  if (lower.startsWith(HESTAI_MCP_PREFIX) || (prefix !== null && HESTAI_MCP_PREFIX.startsWith(prefix)))
    return `${JSON.stringify(pattern)} would list hestai's own MCP tools (${HESTAI_MCP_PREFIX}*: anchor, clock_out, ...), which write session state and are gated by the hestai MCP server itself: list another server's tools, e.g. "mcp__github__get_*"`;
  return null;
}
