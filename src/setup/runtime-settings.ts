import { usageError } from '../errors.js';
import { hasControl } from '../util/text.js';
import { shellQuote } from '../util/quote.js';
import { isRecord, parseJsonObject } from '../util/validate.js';

// The hook files of the agent runtimes other than Claude Code (issue 29), written by `hestai init --agent
// <runtime>`: which events call hestai's hook, with which command, merged into what is there.

/** The agent runtimes hestai installs hooks for (`hestai init --agent`) and binds sessions for. */
export const AGENT_RUNTIMES = [
  'claude-code',
  'codex',
  'gemini',
  'cursor',
  'copilot',
  'qwen',
  'droid',
  'opencode',
  'kilo',
  'cline',
] as const;
export type AgentRuntime = (typeof AGENT_RUNTIMES)[number];

/** Where each runtime reads its project hooks. */
export const RUNTIME_HOOK_FILES = {
  codex: '.codex/hooks.json',
  gemini: '.gemini/settings.json',
  cursor: '.cursor/hooks.json',
  copilot: '.github/hooks/hestai.json',
  qwen: '.qwen/settings.json',
  droid: '.factory/hooks.json',
} as const;
export type HookFileRuntime = keyof typeof RUNTIME_HOOK_FILES;

/**
 * The command a runtime runs for every hestai hook event: `hooks/agent-hook <runtime>` by absolute path, or,
 * when hestai-hooks is the project's dependency, under the worktree root git names (the runtimes set no
 * project-directory variable). `|| exit 2`: a command that cannot start (the package not installed, node
 * missing) blocks, since exit 1 or 127 would let the call through.
 */
export function agentHookCommand(
  entry: { project: string } | { absolute: string },
  runtime: HookFileRuntime,
  event?: string,
): string {
  return `node ${hookPath(entry, '"$(git rev-parse --show-toplevel)"')} ${runtime}${event === undefined ? '' : ` ${event}`} || exit 2`;
}

/**
 * A hook entrypoint as a hook command names it: under `projectDir` (a shell expression) when relative to the
 * project, else the absolute path single-quoted, so spaces, quotes, `$` and backticks in it are inert.
 */
export function hookPath(entry: { project: string } | { absolute: string }, projectDir: string): string {
  if ('project' in entry) {
    if (!/^[A-Za-z0-9_./-]+$/.test(entry.project) || entry.project.split('/').includes('..'))
      throw usageError(`the project-relative hook path ${JSON.stringify(entry.project)} is not a plain relative path`, {
        code: 'AGENT_CONFIG_INVALID',
      });
    return `${projectDir}/${entry.project}`;
  }
  if (!entry.absolute.startsWith('/') || hasControl(entry.absolute))
    throw usageError(`the hook entrypoint ${JSON.stringify(entry.absolute)} is not a plain absolute path`, {
      code: 'AGENT_CONFIG_INVALID',
      remedy: 'Install hestai-hooks in a directory whose path has no control characters.',
    });
  return shellQuote(entry.absolute);
}

/** True for a hook command hestai wrote (how a re-run finds and replaces its own entries). */
export function isHestaiAgentCommand(command: unknown): boolean {
  return (
    typeof command === 'string' &&
    /^node\s.*hooks\/agent-hook['"]?\s+[a-z-]+(\s+[A-Za-z]+)?(\s*\|\|\s*exit 2)?\s*$/.test(command)
  );
}

/**
 * The tool matcher of the pre-tool event in Codex's and Gemini CLI's hook files: every tool (`*` is "all" in
 * both). Deny by default (DESIGN.md): another MCP server's tool, or a tool the runtime adds later, is a write
 * until the anchor, so the hook must see every call; a matcher naming the edit and shell tools let the others
 * through unjudged. The reads are answered before any state is read.
 */
export const RUNTIME_PRE_TOOL_MATCHER = '*';

interface CommandHook {
  type: 'command';
  command: string;
  timeout: number;
}
export interface MatcherGroup {
  matcher?: string;
  hooks: CommandHook[];
}

/**
 * Codex CLI (`.codex/hooks.json`, timeouts in seconds): SessionStart binds and clocks in, PreToolUse judges
 * every tool call Codex sends (shell calls as `Bash`, `apply_patch`, MCP tools as `mcp__<server>__<tool>`),
 * Stop holds the agent to the end gates.
 */
export function codexHooksFor(command: string): Record<string, MatcherGroup> {
  return {
    SessionStart: { hooks: [{ type: 'command', command, timeout: 60 }] },
    PreToolUse: { matcher: RUNTIME_PRE_TOOL_MATCHER, hooks: [{ type: 'command', command, timeout: 10 }] },
    Stop: { hooks: [{ type: 'command', command, timeout: 30 }] },
  };
}

/**
 * Gemini CLI (`.gemini/settings.json`, timeouts in milliseconds): SessionStart binds and clocks in,
 * BeforeTool judges every tool call (its matcher is a regular expression, `*` all), AfterAgent holds the
 * agent to the end gates.
 */
export function geminiHooksFor(command: string): Record<string, MatcherGroup> {
  return {
    SessionStart: { hooks: [{ type: 'command', command, timeout: 60_000 }] },
    BeforeTool: { matcher: RUNTIME_PRE_TOOL_MATCHER, hooks: [{ type: 'command', command, timeout: 10_000 }] },
    AfterAgent: { hooks: [{ type: 'command', command, timeout: 30_000 }] },
  };
}

/** The refusal of a runtime's hook file hestai cannot merge into: it names the file and the key, and stays unchanged. */
const refuser = (file: string, runtime: AgentRuntime) => (what: string) =>
  usageError(`${file}: ${what}`, {
    file,
    code: 'AGENT_CONFIG_INVALID',
    remedy: `Fix ${file}${runtime === 'claude-code' ? " (Claude Code's settings)" : ''}, then run \`hestai init --agent ${runtime}\` again; it was left unchanged.`,
  });

/**
 * The new text of a `{hooks: {Event: [matcher groups]}}` file (Claude Code's settings.json, Codex's
 * hooks.json, Gemini's settings.json): hestai's group added or replaced in place per event (hooks sharing
 * its group keep their group and matcher), every other setting, event, group and hook kept, in order.
 * Idempotent. A file that is not a JSON object of that shape is refused, naming the file and key.
 */
export function mergeHookGroups(
  existing: string | null,
  ours: Record<string, MatcherGroup>,
  file: string,
  runtime: AgentRuntime,
  isOurs: (command: unknown) => boolean = isHestaiAgentCommand,
): string {
  const refuse = refuser(file, runtime);
  const doc = parseJsonObject(existing, refuse);
  const hooks = doc['hooks'] ?? {};
  if (!isRecord(hooks)) throw refuse('"hooks" is not an object');
  const merged: Record<string, unknown> = { ...hooks };
  for (const [event, group] of Object.entries(ours)) {
    const groups = merged[event] ?? [];
    if (!Array.isArray(groups)) throw refuse(`"hooks.${event}" is not a list`);
    let placed = false;
    const next: unknown[] = [];
    for (const [i, g] of groups.entries()) {
      if (!isRecord(g) || (g['hooks'] !== undefined && !Array.isArray(g['hooks'])))
        throw refuse(`"hooks.${event}[${i}]" is not a matcher group ({matcher, hooks: [...]})`);
      const entries = (g['hooks'] as unknown[] | undefined) ?? [];
      const others = entries.filter((h) => !(isRecord(h) && isOurs(h['command'])));
      if (others.length === entries.length) next.push(g);
      else {
        if (others.length > 0) next.push({ ...g, hooks: others });
        if (!placed) next.push(group);
        placed = true;
      }
    }
    if (!placed) next.push(group);
    merged[event] = next;
  }
  return `${JSON.stringify({ ...doc, hooks: merged }, null, 2)}\n`;
}

/**
 * Cursor (`.cursor/hooks.json`, `{version: 1, hooks: {event: [{command}]}}`): sessionStart binds, beforeShellExecution,
 * beforeMCPExecution and beforeReadFile are asked before the agent acts (answered with `permission`),
 * afterFileEdit is told after an edit, stop when the agent ends.
 */
export const CURSOR_EVENTS = [
  'sessionStart',
  'beforeShellExecution',
  'beforeMCPExecution',
  'beforeReadFile',
  'afterFileEdit',
  'stop',
];

/** The new text of `.cursor/hooks.json` with hestai's command on each of CURSOR_EVENTS, everything else kept. */
export function mergeCursorHooks(existing: string | null, command: string, file: string): string {
  const refuse = refuser(file, 'cursor');
  const doc = parseJsonObject(existing, refuse);
  const hooks = doc['hooks'] ?? {};
  if (!isRecord(hooks)) throw refuse('"hooks" is not an object');
  const merged: Record<string, unknown> = { ...hooks };
  for (const event of CURSOR_EVENTS) {
    const entries = merged[event] ?? [];
    if (!Array.isArray(entries)) throw refuse(`"hooks.${event}" is not a list`);
    const at = entries.findIndex((e) => isRecord(e) && isHestaiAgentCommand(e['command']));
    const ours = { command };
    merged[event] =
      at === -1
        ? [...entries, ours]
        : entries.flatMap((e, i) => (i === at ? [ours] : isRecord(e) && isHestaiAgentCommand(e['command']) ? [] : [e]));
  }
  return `${JSON.stringify({ version: 1, ...doc, hooks: merged }, null, 2)}\n`;
}

/**
 * Qwen Code (`.qwen/settings.json`, Gemini CLI's settings file with Claude Code's event names; timeouts in
 * milliseconds): SessionStart binds and clocks in (interactive only: `qwen -p` fires none), PreToolUse judges
 * every tool call, Stop holds the agent to the end gates.
 */
export function qwenHooksFor(command: string): Record<string, MatcherGroup> {
  return {
    SessionStart: { hooks: [{ type: 'command', command, timeout: 60_000 }] },
    PreToolUse: { matcher: RUNTIME_PRE_TOOL_MATCHER, hooks: [{ type: 'command', command, timeout: 10_000 }] },
    Stop: { hooks: [{ type: 'command', command, timeout: 30_000 }] },
  };
}

/**
 * The settings version Qwen Code 0.15 migrates `.qwen/settings.json` to (it rewrites the file, and leaves a
 * `.orig` copy, when `$version` is older or missing): written by init so the file stays as committed.
 */
export const QWEN_SETTINGS_VERSION = 4;

/** `.qwen/settings.json`'s text with `$version` set when the file has none. */
export function withQwenVersion(text: string): string {
  const doc = JSON.parse(text) as Record<string, unknown>;
  return '$version' in doc ? text : `${JSON.stringify({ ...doc, $version: QWEN_SETTINGS_VERSION }, null, 2)}\n`;
}

/** Factory Droid (`.factory/hooks.json`, Claude Code's shape and timeouts in seconds). */
export function droidHooksFor(command: string): Record<string, MatcherGroup> {
  return codexHooksFor(command);
}

/**
 * GitHub Copilot CLI (`.github/hooks/hestai.json`, `{version: 1, hooks: {event: [{type, bash, timeoutSec}]}}`;
 * the payload does not say its event, so each entry's command names it): sessionStart binds and clocks in,
 * preToolUse judges every tool call. Copilot runs a repository's hooks only in a folder the person trusted.
 */
export const COPILOT_EVENTS = { sessionStart: 60, preToolUse: 10 } as const;

/** What Copilot CLI cannot promise (said by init and doctor). */
export const COPILOT_LIMIT =
  'Copilot CLI runs .github/hooks/ and .mcp.json only in a folder you trust (copilot --trust-folder, or accept its prompt); in an untrusted folder no hook runs and its edits go unchecked until the commit hooks and hestai verify';

/** What Qwen Code cannot promise (said by init and doctor). */
export const QWEN_LIMIT =
  'Qwen Code fires no SessionStart hook headless (qwen -p): there the first write is refused until the agent runs the bind step the refusal names';

/**
 * The new text of `.github/hooks/hestai.json`: hestai's entry on each of COPILOT_EVENTS (its command from
 * `commandFor(event)`), replacing its earlier one in place, every other entry and key kept.
 */
export function mergeCopilotHooks(
  existing: string | null,
  commandFor: (event: string) => string,
  file: string,
): string {
  const refuse = refuser(file, 'copilot');
  const doc = parseJsonObject(existing, refuse);
  const hooks = doc['hooks'] ?? {};
  if (!isRecord(hooks)) throw refuse('"hooks" is not an object');
  const merged: Record<string, unknown> = { ...hooks };
  for (const [event, timeoutSec] of Object.entries(COPILOT_EVENTS)) {
    const entries = merged[event] ?? [];
    if (!Array.isArray(entries)) throw refuse(`"hooks.${event}" is not a list`);
    const ours = { type: 'command', bash: commandFor(event), timeoutSec };
    const at = entries.findIndex((e) => isRecord(e) && isHestaiAgentCommand(e['bash']));
    merged[event] =
      at === -1
        ? [...entries, ours]
        : entries.flatMap((e, i) => (i === at ? [ours] : isRecord(e) && isHestaiAgentCommand(e['bash']) ? [] : [e]));
  }
  return `${JSON.stringify({ version: 1, ...doc, hooks: merged }, null, 2)}\n`;
}
