import { toolUseFromClaude, type ToolUse } from '../tool-use.js';
import { claudeCodeAdapter } from './claude-code.js';
import type { RuntimeAdapter } from './types.js';

/** Factory Droid's tools in Claude Code's names (its Edit, MultiEdit, Read, Grep, Glob, LS have them already). */
const TOOLS: Readonly<Record<string, string>> = { Create: 'Write', Execute: 'Bash', FetchUrl: 'WebFetch' };

/**
 * Factory Droid's hooks (`.factory/hooks.json`): Claude Code's payloads and answers (`hook_event_name`,
 * `session_id`, `tool_name`, `tool_input`; exit 2 and stderr refuse), its `Create` and `Execute` read as Write
 * and Bash; SessionStart's stdout reaches the model and `CLAUDE_ENV_FILE` is sourced by its shell. Tested
 * through its documented payloads only (the package is UNLICENSED).
 */
export const droidAdapter: RuntimeAdapter = {
  ...claudeCodeAdapter,
  runtime: 'droid',
  label: 'Factory Droid',
  toolUse: (payload): ToolUse => {
    const name = typeof payload['tool_name'] === 'string' ? payload['tool_name'] : '';
    return toolUseFromClaude(TOOLS[name] ?? name, payload['tool_input']);
  },
};
