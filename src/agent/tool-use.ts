import { bashWrites, powershellWrites, type ShellContext } from './bash-writes.js';
import { EDIT_TOOLS, GENERIC_EDIT_TOOLS, POWERSHELL_TOOLS, SHELL_TOOLS, TOOL_ALIASES } from '../util/agent-tools.js';
import { isReadTool } from './read-only.js';

/**
 * One tool call of an agent runtime, in the runtime-neutral form `hestai check tool-use` reads on stdin
 * (README "Agent runtimes"): the tool's name, the paths it touches and, for a shell tool, its command.
 */
export interface ToolUse {
  tool: string;
  paths: string[];
  command: string | null;
  /** Set by a caller whose tool names hestai does not know: `write` is gated, `read` never is. */
  kind: 'read' | 'write' | null;
  /** Set by a runtime adapter that cannot tell which files the call writes (why, and what to do): refused as PROTECTED_PATH. */
  refuse?: { reason: string; fix: string };
}

/**
 * What a tool call does to files. A write's `targets` are the paths it writes (null when unknown: it is
 * judged as a write inside the worktree); `mentions` are every word of it that may name a path, for the
 * protected-path check.
 */
export type ToolClass =
  { kind: 'read' } | { kind: 'write'; targets: string[] | null; what: string; mentions: string[] };

const isEditTool = (tool: string) =>
  (EDIT_TOOLS as readonly string[]).includes(tool) || (GENERIC_EDIT_TOOLS as readonly string[]).includes(tool);
const isShellTool = (tool: string) => (SHELL_TOOLS as readonly string[]).includes(tool);
const isPowerShellTool = (tool: string) => (POWERSHELL_TOOLS as readonly string[]).includes(tool);

/**
 * Pure: classifies a tool call, denying by default (issue 26): edit tools write their paths; a shell tool
 * reads only when every part of its command is on the read-only list (`read-only.ts`), a PowerShell tool
 * likewise; any other tool is a read only when the built-in list (`READ_TOOLS`, hestai's own `mcp__hestai__*`)
 * or `listed` (the base policy's `agents.read_tools`, see `listableTool`) says so, or when the caller says
 * `kind: "read"` for a tool hestai does not know. Everything else — other MCP tools, unknown tools — is a
 * write with unknown targets.
 */
export function classifyToolUse(use: ToolUse, context: ShellContext = {}, listed: readonly string[] = []): ToolClass {
  const write = (what: string, known = true): ToolClass => ({
    kind: 'write',
    targets: known && use.paths.length > 0 ? use.paths : null,
    what,
    mentions: use.paths,
  });
  if (isEditTool(use.tool)) return write(use.tool);
  if (isShellTool(use.tool) || isPowerShellTool(use.tool)) {
    if (use.command === null) return write(use.tool, false);
    const found = isShellTool(use.tool) ? bashWrites(use.command, context) : powershellWrites(use.command);
    if (found.writes)
      return { kind: 'write', targets: found.targets, what: found.what.join(', '), mentions: found.mentions };
    return use.kind === 'write' ? write(use.tool) : { kind: 'read' };
  }
  if (use.kind === 'write') return write(use.tool);
  if (use.kind === 'read' || isReadTool(use.tool, listed)) return { kind: 'read' };
  return write(use.tool, false);
}

/**
 * Pure: is this call one that `agents.read_tools` may turn into a read? Only a tool hestai neither knows
 * (not an edit, shell or PowerShell tool, not on the built-in read list) nor was told about by its caller.
 */
export function listableTool(use: ToolUse): boolean {
  return (
    use.kind === null &&
    !isEditTool(use.tool) &&
    !isShellTool(use.tool) &&
    !isPowerShellTool(use.tool) &&
    !isReadTool(use.tool)
  );
}

/** Claude Code's PreToolUse `tool_input` as a ToolUse: `file_path`, `notebook_path`, `command`. */
export function toolUseFromClaude(toolName: unknown, toolInput: unknown): ToolUse {
  const input = toolInput !== null && typeof toolInput === 'object' ? (toolInput as Record<string, unknown>) : {};
  const paths = ['file_path', 'notebook_path', 'path']
    .map((k) => input[k])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  const command = typeof input['command'] === 'string' ? input['command'] : null;
  const tool = typeof toolName === 'string' ? toolName : '';
  return { tool: TOOL_ALIASES[tool] ?? tool, paths, command, kind: null };
}
