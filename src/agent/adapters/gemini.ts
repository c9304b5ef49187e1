import { toolUseFromClaude } from '../tool-use.js';
import type { HookEvent, RuntimeAdapter } from './types.js';

/** Gemini CLI's event names, as hestai's. */
const EVENTS: Readonly<Record<string, HookEvent>> = {
  SessionStart: 'SessionStart',
  BeforeTool: 'PreToolUse',
  AfterAgent: 'Stop',
};

/**
 * Gemini CLI's hooks (`.gemini/settings.json`, its hooks reference): the payload has `hook_event_name`,
 * `session_id`, `cwd`, `tool_name` and `tool_input` (`write_file`, `replace`, `run_shell_command` read as
 * Write, Edit and Bash); stdout must be JSON only; exit 2 blocks a tool call with stderr as the reason the
 * agent reads (BeforeTool) or retries the turn with stderr as the prompt (AfterAgent, `stop_hook_active`
 * on the retry); SessionStart's `hookSpecificOutput.additionalContext` reaches the model. No env file, and
 * git hooks are off in its shell (`shellGitHooksOff`).
 */
export const geminiAdapter: RuntimeAdapter = {
  runtime: 'gemini',
  label: 'Gemini CLI',
  event: (payload) => {
    const name = payload['hook_event_name'];
    return typeof name === 'string' && Object.hasOwn(EVENTS, name) ? EVENTS[name]! : null;
  },
  toolUse: (payload) => toolUseFromClaude(payload['tool_name'], payload['tool_input']),
  refuse: (text) => ({ code: 2, stderr: text }),
  allow: () => ({ code: 0, stdout: '{}\n' }),
  context: (text) => ({
    code: 0,
    stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } })}\n`,
  }),
  holdStop: (text) => ({ code: 2, stderr: text }),
  envFileVar: null,
  // Gemini CLI 0.61 runs run_shell_command with GIT_CONFIG_COUNT=8 setting core.hooksPath to '' (and
  // credential.helper, core.fsmonitor, core.sshCommand, diff.external...): no git hook runs for its commits.
  shellGitHooksOff: true,
};
