import {
  EDIT_TOOLS,
  GENERIC_EDIT_TOOLS,
  isReadTool,
  POWERSHELL_TOOLS,
  SHELL_TOOLS,
  TOOL_ALIASES,
} from '../util/agent-tools.js';
import { isHestaiStart, shellMentions, type HestaiForm } from './shell.js';

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
  /** The directory the call runs in, relative to the project root (Gemini CLI's `dir_path`), when the call says. */
  dir?: string;
  /** Every string in the call's input: a tool hestai does not know is refused when one names a protected path. */
  strings?: string[];
}

/** Pure: every string value in a tool's input, nested objects and arrays too (at most `limit`). */
export function inputStrings(value: unknown, limit = 256): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (out.length >= limit || depth > 16) return;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else if (v !== null && typeof v === 'object') for (const item of Object.values(v)) walk(item, depth + 1);
  };
  walk(value, 0);
  return out;
}

/**
 * What a tool call is: a read (never gated); hestai's own start command (allowed before the anchor); a shell
 * command (it waits for the anchor; `mentions` are its words, for the protected-path check); or a write, whose
 * `targets` are the paths it writes (null when unknown: judged as a write inside the worktree).
 */
export type ToolClass =
  | { kind: 'read' }
  | { kind: 'hestai' }
  | { kind: 'shell'; what: string; mentions: string[] }
  | { kind: 'write'; targets: string[] | null; what: string; mentions: string[] };

const isEditTool = (tool: string) =>
  (EDIT_TOOLS as readonly string[]).includes(tool) || (GENERIC_EDIT_TOOLS as readonly string[]).includes(tool);
const isShellTool = (tool: string) =>
  (SHELL_TOOLS as readonly string[]).includes(tool) || (POWERSHELL_TOOLS as readonly string[]).includes(tool);

/**
 * Pure: classifies a tool call, denying by default: edit tools write their paths; a shell tool is a shell
 * command, or hestai when its command is exactly one of hestai's start commands (`bins`: the installed CLI's
 * paths; `forms`: which short forms run it here; `self`: the caller's session; see `isHestaiStart`); any other tool is a read only when the built-in list (`READ_TOOLS`, hestai's own
 * `mcp__hestai__*`) or `listed` (the base policy's `agents.read_tools`) says so, or when the caller says
 * `kind: "read"`. Everything else is a write with unknown targets, judged by every string of its input.
 */
export function classifyToolUse(
  use: ToolUse,
  bins: readonly string[] = [],
  listed: readonly string[] = [],
  forms: readonly HestaiForm[] = [],
  self: string | null = null,
): ToolClass {
  const write = (known: boolean): ToolClass => ({
    kind: 'write',
    targets: known && use.paths.length > 0 ? use.paths : null,
    what: use.tool,
    mentions: known ? use.paths : [...use.paths, ...(use.strings ?? [])],
  });
  if (isEditTool(use.tool)) return write(true);
  if (isShellTool(use.tool)) {
    if (use.command !== null && isHestaiStart(use.command, bins, forms, self)) return { kind: 'hestai' };
    return { kind: 'shell', what: use.tool, mentions: shellMentions(use.command ?? '', bins) };
  }
  if (use.kind === 'write') return write(true);
  if (use.kind === 'read' || isReadTool(use.tool, listed)) return { kind: 'read' };
  return write(false);
}

/**
 * Pure: is this call one that `agents.read_tools` may turn into a read? Only a tool hestai neither knows
 * (not an edit or shell tool, not on the built-in read list) nor was told about by its caller.
 */
export function listableTool(use: ToolUse): boolean {
  return use.kind === null && !isEditTool(use.tool) && !isShellTool(use.tool) && !isReadTool(use.tool);
}

/** Claude Code's PreToolUse `tool_input` as a ToolUse: `file_path`, `notebook_path`, `path`, `command` (or `cmd`). */
export function toolUseFromClaude(toolName: unknown, toolInput: unknown): ToolUse {
  const input = toolInput !== null && typeof toolInput === 'object' ? (toolInput as Record<string, unknown>) : {};
  const paths = ['file_path', 'notebook_path', 'path']
    .map((k) => input[k])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  const given = input['command'] ?? input['cmd']; // Codex's exec_command says cmd; local_shell gives a list
  const list = Array.isArray(given) && given.every((w) => typeof w === 'string');
  const command = typeof given === 'string' ? given : list ? (given as string[]).join(' ') : null;
  const tool = typeof toolName === 'string' ? toolName : '';
  return { tool: TOOL_ALIASES[tool] ?? tool, paths, command, kind: null, strings: inputStrings(input) };
}
