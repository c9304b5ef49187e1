import type { AgentRuntime } from '../../setup/runtime-settings.js';
import type { HestaiMcpName } from '../../util/agent-tools.js';
import type { ToolUse } from '../tool-use.js';

/** The events hestai acts on, by its own names (a runtime's names are translated by its adapter). */
export type HookEvent = 'PreToolUse' | 'SessionStart' | 'Stop';

/** What a hook process answers: text on stdout and stderr, and its exit code. */
export interface HookAnswer {
  code: number;
  stdout?: string;
  stderr?: string;
}

/**
 * One agent runtime's hook protocol (issue 29): how its payload reads as hestai's plain tool call and event,
 * and how hestai's answer is said back to it. An adapter translates only: every decision is made by the one
 * decision function (`decideToolUse`, the same as `hestai check tool-use`).
 */
export interface RuntimeAdapter {
  runtime: AgentRuntime;
  /** The runtime's name for people and models ("Claude Code"). */
  label: string;
  /**
   * The payload in Claude Code's terms (`hook_event_name`, `session_id`, `cwd`, `stop_hook_active`), when the
   * runtime names them otherwise. `event`: the event the hook command names after the runtime, for a runtime
   * whose payload does not say it (Copilot CLI), else null.
   */
  normalize?(payload: Record<string, unknown>, event: string | null): Record<string, unknown>;
  /** The hestai event of a payload, or null for events hestai lets through. */
  event(payload: Record<string, unknown>): HookEvent | null;
  /** The runtime's tool call as the plain tool call. */
  toolUse(payload: Record<string, unknown>): ToolUse;
  /** A refused tool call (`text`: the reason and the fix; `payload`: the call, normalized). */
  refuse(text: string, payload: Record<string, unknown>): HookAnswer;
  /** An allowed tool call. */
  allow(): HookAnswer;
  /** SessionStart's context for the model. */
  context(text: string): HookAnswer;
  /** Stop while the agent is not done: send it back with `text`. */
  holdStop(text: string): HookAnswer;
  /**
   * hestai's MCP tool as this runtime's model calls it (`anchor`: `mcp__hestai__anchor` in Claude Code and
   * Codex, `mcp_hestai_anchor` in Gemini CLI), so a fix names a tool the agent has; null: no fixed name.
   */
  mcpTool: HestaiMcpName;
  /** The variable naming a file whose `export` lines the agent's shell sources, if the runtime has one. */
  envFileVar: string | null;
  /**
   * True when the runtime runs the agent's shell commands with git hooks turned off (Gemini CLI empties
   * `core.hooksPath` in its shell's environment): SessionStart tells the agent to commit with
   * `git -c core.hooksPath=<this worktree's hooks directory>`, or no hestai hook would judge or sign it.
   */
  shellGitHooksOff?: boolean;
  /**
   * True when the runtime's session-start hook cannot be relied on to run first (Cline runs TaskStart detached):
   * the first tool call of an unbound runtime session binds it, and an allowed call carries SessionStart's context.
   */
  bindsAtFirstCall?: boolean;
}
