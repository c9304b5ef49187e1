/**
 * The agent-runtime tool names hestai judges itself, and the pattern language of `agents.read_tools` (the
 * reads a base policy adds, issue 26). Pure data and pure checks: the config schema refuses a pattern that
 * would name one of these tools or a shell, and `src/agent/tool-use.ts` classifies calls by them.
 */

/** Claude Code's file-changing tools (their `tool_input` names the file). */
export const EDIT_TOOLS = ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'] as const;
/** Shell tools (Claude Code's `Bash`, Codex's `exec_command` and `local_shell`; `shell` for generic callers). */
export const SHELL_TOOLS = ['Bash', 'shell', 'exec_command', 'local_shell'] as const;
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

/**
 * Pure: does a tool's name say it runs commands (`Bash`, `exec_command`, `run_shell_command`, `pwsh`,
 * `mcp__desktop__run_command`, `terminal`)? Such a tool is never a read, whatever a base policy lists.
 */
export function isShellToolName(tool: string): boolean {
  return /bash|shell|pwsh|powershell|terminal|exec|command|console|(^|_)(sh|zsh|cmd|run)(_|$)/i.test(tool);
}

/**
 * Tools of the agent runtimes that only read (Claude Code's, Gemini CLI's). With hestai's own MCP tools
 * (`mcp__hestai__*`, each checked by the server itself), the calls allowed before the anchor. Any other tool,
 * including every other `mcp__*` tool, is a write.
 */
export const READ_TOOLS: readonly string[] = [
  ...['Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'Task'],
  ...['ExitPlanMode', 'BashOutput', 'KillShell', 'KillBash', 'AskUserQuestion'],
  ...['ListMcpResourcesTool', 'ReadMcpResourceTool'],
  // Gemini CLI (0.61): its reading tools, its plan and to-do tools, and asking the user. Its tracker_*,
  // save_memory, invoke_agent and complete_task tools are not here: they write, or run tools of their own.
  ...['read_file', 'read_many_files', 'list_directory', 'glob', 'search_file_content', 'grep_search'],
  ...['google_web_search', 'web_fetch', 'write_todos', 'get_internal_docs', 'activate_skill', 'ask_user'],
  ...['enter_plan_mode', 'exit_plan_mode', 'list_mcp_resources', 'read_mcp_resource'],
];

/**
 * Pure: is a tool (not a shell or edit tool) a read by the built-in list, or by `listed` (the base policy's
 * `agents.read_tools`: exact names and `prefix*`)? A tool whose name says it runs commands never is.
 */
export function isReadTool(tool: string, listed: readonly string[] = []): boolean {
  if (READ_TOOLS.includes(tool) || isHestaiMcpTool(tool)) return true;
  return !isShellToolName(tool) && listed.some((pattern) => toolPatternMatches(pattern, tool));
}

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
  if (judged.length > 0 || isShellToolName(pattern.replace(/\*$/, '')))
    return `${JSON.stringify(pattern)} would list ${judged.length > 0 ? judged.join(', ') : 'a tool that runs commands'}: an edit is a write and a shell never runs before the anchor (but hestai itself): list only other tools`;
  const prefix = lower.endsWith('*') ? lower.slice(0, -1) : null;
  if (lower.startsWith(HESTAI_MCP_PREFIX) || (prefix !== null && HESTAI_MCP_PREFIX.startsWith(prefix)))
    return `${JSON.stringify(pattern)} would list hestai's own MCP tools (${HESTAI_MCP_PREFIX}*: anchor, clock_out, ...), which write session state and are gated by the hestai MCP server itself: list another server's tools, e.g. "mcp__github__get_*"`;
  return null;
}
