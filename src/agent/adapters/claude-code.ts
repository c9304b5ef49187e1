import { claudeMcpName } from '../../util/agent-tools.js';
import { toolUseFromClaude } from '../tool-use.js';
import type { HookEvent, RuntimeAdapter } from './types.js';

const EVENTS: readonly string[] = ['PreToolUse', 'SessionStart', 'Stop'] satisfies HookEvent[];

/**
 * Claude Code's hooks (docs: hooks reference): the payload has `hook_event_name`, `tool_name` and
 * `tool_input`; exit 2 blocks a tool call (or sends the agent back at Stop) and stderr is what the model
 * reads; SessionStart's stdout joins the model's context; `CLAUDE_ENV_FILE` is sourced by the agent's shell.
 */
export const claudeCodeAdapter: RuntimeAdapter = {
  runtime: 'claude-code',
  label: 'Claude Code',
  event: (payload) => {
    const name = payload['hook_event_name'];
    return typeof name === 'string' && EVENTS.includes(name) ? (name as HookEvent) : null;
  },
  toolUse: (payload) => toolUseFromClaude(payload['tool_name'], payload['tool_input']),
  refuse: (text) => ({ code: 2, stderr: text }),
  allow: () => ({ code: 0 }),
  context: (text) => ({ code: 0, stdout: text }),
  holdStop: (text) => ({ code: 2, stderr: text }),
  mcpTool: claudeMcpName,
  envFileVar: 'CLAUDE_ENV_FILE',
};
