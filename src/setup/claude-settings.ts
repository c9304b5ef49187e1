import { hookPath, mergeHookGroups, type MatcherGroup } from './runtime-settings.js';

/** Claude Code's project settings file (shared with the team; hooks live under `hooks`). */
export const CLAUDE_SETTINGS_FILE = '.claude/settings.json';

/**
 * The tools whose PreToolUse hestai judges: every tool (`*`). Deny by default (issue 26): a tool hestai does
 * not know, an MCP tool or `PowerShell` is a write until its anchor, so the hook must see them all; the
 * listed reads (Read, Grep, Glob, ...) are answered before any state is read.
 */
export const CLAUDE_PRE_TOOL_MATCHER = '*';

/** Seconds Claude Code waits before killing each hook (the hook itself fails closed well before). */
export const CLAUDE_TIMEOUTS = { SessionStart: 60, PreToolUse: 10, Stop: 30 } as const;

/**
 * The command Claude Code runs for every hestai hook event (the event is in the JSON on stdin). `entry`
 * is where `hooks/claude-code` is: relative to the project (`node_modules/hestai-hooks/hooks/claude-code`,
 * run as `"$CLAUDE_PROJECT_DIR"/...` so it works from any directory) when hestai-hooks is a dependency of
 * the project, else the absolute path of the running package's entry, single-quoted so spaces, quotes,
 * `$` and backticks in it are inert. `|| exit 2` makes a hook that cannot start (the package not installed:
 * node exits 1; node not on PATH: the shell exits 127) block the tool call instead of letting it through
 * (Claude Code reads every exit but 2 as "go on"); the hook itself exits only 0 or 2.
 */
export function claudeHookCommand(entry: { project: string } | { absolute: string }): string {
  return `node ${hookPath(entry, '"$CLAUDE_PROJECT_DIR"')} || exit 2`;
}

/** True for a hook command hestai wrote (how a re-run finds and replaces its own entries). */
export function isHestaiHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /^node\s.*hooks\/claude-code['"]?(\s*\|\|\s*exit 2)?\s*$/.test(command);
}

/**
 * hestai's hooks, by event: SessionStart (every source), PreToolUse on the file-changing tools, and Stop
 * (it acts only with protocol.enforce and agents.stop_gate).
 */
export function claudeHooksFor(command: string): Record<'SessionStart' | 'PreToolUse' | 'Stop', MatcherGroup> {
  return {
    SessionStart: { hooks: [{ type: 'command', command, timeout: CLAUDE_TIMEOUTS.SessionStart }] },
    PreToolUse: {
      matcher: CLAUDE_PRE_TOOL_MATCHER,
      hooks: [{ type: 'command', command, timeout: CLAUDE_TIMEOUTS.PreToolUse }],
    },
    Stop: { hooks: [{ type: 'command', command, timeout: CLAUDE_TIMEOUTS.Stop }] },
  };
}

/**
 * The new text of `.claude/settings.json`: the existing document (null when there is none) with hestai's
 * hooks added or replaced in place, and every other setting, event, matcher group and hook kept, in order.
 * Idempotent. A file that is not a JSON object, or whose `hooks` is not an object of arrays of matcher
 * groups, is refused (naming the file and key), never overwritten.
 */
export function mergeClaudeSettings(existing: string | null, command: string, file: string): string {
  return mergeHookGroups(existing, claudeHooksFor(command), file, 'claude-code', isHestaiHookCommand);
}
