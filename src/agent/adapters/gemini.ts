import { HESTAI_MCP_PREFIX } from '../../util/agent-tools.js';
import { isRecord } from '../../util/validate.js';
import { toolUseFromClaude, type ToolUse } from '../tool-use.js';
import type { HookEvent, RuntimeAdapter } from './types.js';

/** Gemini CLI's event names, as hestai's. */
const EVENTS: Readonly<Record<string, HookEvent>> = {
  SessionStart: 'SessionStart',
  BeforeTool: 'PreToolUse',
  AfterAgent: 'Stop',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * An MCP tool call in the naming hestai's read list and `agents.read_tools` use, `mcp__<server>__<tool>`, from
 * the `mcp_context` Gemini CLI sends with it (`server_name`, `tool_name`): its own name, `mcp_<server>_<tool>`,
 * cannot be split where a server's name has an underscore. A server other than `hestai` whose name would
 * read as hestai's (`hestai_`, `hestai__x`) keeps Gemini CLI's name, a tool hestai does not know. Null when the
 * call is not an MCP tool's.
 */
export function geminiMcpTool(payload: Record<string, unknown>): string | null {
  const context = payload['mcp_context'];
  if (!isRecord(context)) return null;
  const server = text(context['server_name']);
  const tool = text(context['tool_name']);
  if (server === null || tool === null) return null;
  const name = `mcp__${server}__${tool}`;
  return server !== 'hestai' && name.startsWith(HESTAI_MCP_PREFIX) ? `mcp_${server}_${tool}` : name;
}

/**
 * Gemini CLI's hooks (`.gemini/settings.json`, its hooks reference): the payload has `hook_event_name`,
 * `session_id`, `cwd`, `tool_name` and `tool_input` (`write_file`, `replace`, `run_shell_command` read as
 * Write, Edit and Bash; an MCP tool as `mcp__<server>__<tool>`, see geminiMcpTool); stdout must be JSON
 * only; exit 2 blocks a tool call with stderr as the reason the agent reads (BeforeTool) or retries the turn
 * with stderr as the prompt (AfterAgent, `stop_hook_active` on the retry); SessionStart's
 * `hookSpecificOutput.additionalContext` reaches the model. No env file, and git hooks are off in its shell
 * (`shellGitHooksOff`).
 */
export const geminiAdapter: RuntimeAdapter = {
  runtime: 'gemini',
  label: 'Gemini CLI',
  event: (payload) => {
    const name = payload['hook_event_name'];
    return typeof name === 'string' && Object.hasOwn(EVENTS, name) ? EVENTS[name]! : null;
  },
  toolUse: (payload): ToolUse => {
    const mcp = geminiMcpTool(payload);
    if (mcp !== null) return { tool: mcp, paths: [], command: null, kind: null };
    const use = toolUseFromClaude(payload['tool_name'], payload['tool_input']);
    // run_shell_command runs in dir_path, relative to the project (never where the project is found)
    const input = payload['tool_input'];
    const dir = isRecord(input) ? text(input['dir_path']) : null;
    return dir === null ? use : { ...use, dir };
  },
  refuse: (text) => ({ code: 2, stderr: text }),
  allow: () => ({ code: 0, stdout: '{}\n' }),
  context: (text) => ({
    code: 0,
    stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } })}\n`,
  }),
  holdStop: (text) => ({ code: 2, stderr: text }),
  // Gemini CLI names an MCP tool mcp_<server>_<tool> (0.61, generateValidName); hestai's tool names are [a-z_]
  mcpTool: (tool) => `mcp_hestai_${tool}`,
  envFileVar: null,
  // Gemini CLI 0.61 runs run_shell_command with GIT_CONFIG_COUNT=8 setting core.hooksPath to '' (and
  // credential.helper, core.fsmonitor, core.sshCommand, diff.external...): no git hook runs for its commits.
  shellGitHooksOff: true,
};
