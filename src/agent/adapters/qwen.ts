import { isRecord } from '../../util/validate.js';
import { toolUseFromClaude, type ToolUse } from '../tool-use.js';
import { claudeCodeAdapter } from './claude-code.js';
import type { RuntimeAdapter } from './types.js';

/**
 * Qwen Code's hooks (`.qwen/settings.json`, a Gemini CLI fork with Claude Code's hook shape): the payload has
 * `hook_event_name` (SessionStart, PreToolUse, Stop), `session_id`, `cwd`, `tool_name` and `tool_input`; its
 * `write_file`, `edit` and `run_shell_command` read as Write, edit and Bash (a shell's absolute `directory` is
 * where it runs), MCP tools are `mcp__<server>__<tool>`; exit 2 and stderr refuse a call or send the agent
 * back at Stop. SessionStart's `hookSpecificOutput.additionalContext` reaches the model, but `qwen -p` fires
 * no SessionStart: the first refusal names the bind step. No env file.
 */
export const qwenAdapter: RuntimeAdapter = {
  ...claudeCodeAdapter,
  runtime: 'qwen',
  label: 'Qwen Code',
  toolUse: (payload): ToolUse => {
    const use = toolUseFromClaude(payload['tool_name'], payload['tool_input']);
    const input = payload['tool_input'];
    const dir = isRecord(input) && typeof input['directory'] === 'string' ? input['directory'] : '';
    return use.tool === 'Bash' && dir !== '' ? { ...use, dir } : use;
  },
  context: (text) => ({
    code: 0,
    stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } })}\n`,
  }),
  envFileVar: null,
};
