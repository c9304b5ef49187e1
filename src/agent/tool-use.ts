import path from 'node:path';
import { bashWrites } from './bash-writes.js';

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
}

/** What a tool call does to files. */
export type ToolClass = { kind: 'read' } | { kind: 'write'; targets: string[] | null; what: string };

/** Claude Code's file-changing tools (their `tool_input` names the file). */
export const EDIT_TOOLS = ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'] as const;
/** Shell tools whose `command` is read for writes (Claude Code's `Bash`; `shell` for generic callers). */
export const SHELL_TOOLS = ['Bash', 'shell'] as const;

const isEditTool = (tool: string) =>
  (EDIT_TOOLS as readonly string[]).includes(tool) || tool === 'edit' || tool === 'write';
const isShellTool = (tool: string) => (SHELL_TOOLS as readonly string[]).includes(tool);

/**
 * Pure: classifies a tool call. Edit tools write their paths; a shell tool writes what `bashWrites`
 * recognises; an explicit `kind` decides for other tools; every other tool (Read, Grep, Glob, WebFetch,
 * MCP tools, ...) is a read and is never gated.
 */
export function classifyToolUse(use: ToolUse): ToolClass {
  if (use.kind === 'read') return { kind: 'read' };
  if (isEditTool(use.tool)) return { kind: 'write', targets: use.paths.length > 0 ? use.paths : null, what: use.tool };
  if (isShellTool(use.tool) && use.command !== null) {
    const writes = bashWrites(use.command);
    if (writes.writes) return { kind: 'write', targets: writes.targets, what: writes.what.join(', ') };
    return use.kind === 'write'
      ? { kind: 'write', targets: use.paths.length > 0 ? use.paths : null, what: use.tool }
      : { kind: 'read' };
  }
  if (use.kind === 'write') return { kind: 'write', targets: use.paths.length > 0 ? use.paths : null, what: use.tool };
  return { kind: 'read' };
}

/**
 * Paths hestai never lets an agent's tools write, relative to the worktree root: its own state (`.hestai/`:
 * sessions, anchors, audit, protocol, the generated FAST layer) and what only humans author or that turns
 * the gate off (`.hestai_workspace.yaml`, the Claude Code settings holding these hooks). One exception,
 * {@link AGENT_WRITABLE}: the project's context documents.
 */
export const PROTECTED_PATHS = [
  '.hestai/',
  '.hestai_workspace.yaml',
  '.claude/settings.json',
  '.claude/settings.local.json',
] as const;

/**
 * Under `.hestai/`, the one kind of file an agent may write: a context document directly in
 * `.hestai/context/` (`*.oct.md`, not the FAST layer in `state/`, nothing deeper). The default protocol's
 * END gate `context_docs` asks the agent to update them (the seed's documentation duty), and they are
 * project documents reviewed in git like code, not state hestai keeps about the agent (issue 15).
 */
export const AGENT_WRITABLE = /^\.hestai\/context\/[^/]+\.oct\.md$/;

/** Pure: the protected entry a worktree-relative path (forward slashes) falls under, or null. */
export function protectedEntry(relative: string): string | null {
  const rel = relative.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  if (AGENT_WRITABLE.test(rel)) return null;
  for (const entry of PROTECTED_PATHS) {
    if (entry.endsWith('/') ? rel === entry.slice(0, -1) || rel.startsWith(entry) : rel === entry) return entry;
  }
  return null;
}

/** Pure: `target` (absolute, or relative to `cwd`) relative to `root`, or null when it lies outside. */
export function insideRoot(root: string, cwd: string, target: string): string | null {
  const absolute = path.resolve(cwd, target);
  const rel = path.relative(root, absolute);
  if (rel === '') return '.';
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/**
 * Tool names of other runtimes mapped to Claude Code's (Gemini CLI: `write_file` and `replace` edit a
 * file, `run_shell_command` runs a shell command), so `hestai check tool-use` reads their payloads as is.
 */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  write_file: 'Write',
  replace: 'Edit',
  run_shell_command: 'Bash',
};

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
