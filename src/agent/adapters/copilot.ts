import { HESTAI_MCP_TOOLS } from '../../util/agent-tools.js';
import { toolUseFromClaude, type ToolUse } from '../tool-use.js';
import type { HookEvent, RuntimeAdapter } from './types.js';

/** Copilot CLI's events, as hestai's (`SessionStart`: the bind step `--session-start <id>` stands for). */
const EVENTS: Readonly<Record<string, HookEvent>> = {
  sessionStart: 'SessionStart',
  SessionStart: 'SessionStart',
  preToolUse: 'PreToolUse',
};

/**
 * Copilot CLI's tools (1.0) in Claude Code's names: `create` and `edit` write their `path`, `bash` runs a
 * command, `view`, `grep` and `glob` read, `read_bash` and `list_bash` read a shell's output, `stop_bash`
 * stops it, `write_bash` sends its `input` to a running shell: a shell command. Any other tool (`task`, `skill`,
 * `sql`, ...) keeps its name: a write until the anchor, then refused when its input names a protected path.
 */
const TOOLS: Readonly<Record<string, string>> = {
  create: 'Write',
  edit: 'Edit',
  bash: 'Bash',
  view: 'Read',
  grep: 'Grep',
  glob: 'Glob',
  read_bash: 'BashOutput',
  list_bash: 'BashOutput',
  stop_bash: 'KillShell',
};

/**
 * An MCP tool as Copilot CLI names it, `<server>-<tool>`: hestai's own (`hestai-anchor`) in the naming of
 * hestai's read list, `mcp__hestai__<tool>`; any other keeps Copilot's name (a tool hestai does not know).
 * hestai's tool names have no `-`, so `hestai-<tool>` splits only one way.
 */
function toolName(name: string): string {
  const hestai = /^hestai-([a-z_]+)$/.exec(name);
  if (hestai !== null && (HESTAI_MCP_TOOLS as readonly string[]).includes(hestai[1]!))
    return `mcp__hestai__${hestai[1]}`;
  return TOOLS[name] ?? name;
}

/**
 * GitHub Copilot CLI's hooks (`.github/hooks/*.json`, `version: 1`): the payload is `{sessionId, timestamp,
 * cwd, toolName, toolArgs}` and does not say its event, so hestai's hook command names it
 * (`agent-hook copilot preToolUse`). preToolUse is answered with JSON on stdout: `permissionDecision: "deny"`
 * with `permissionDecisionReason`, the text the model reads (on exit 2 it reads only "hook exited with code
 * 2"); an allowed call prints nothing, so Copilot's own permissions still apply. sessionStart's
 * `additionalContext` reaches the model. No env file.
 */
export const copilotAdapter: RuntimeAdapter = {
  runtime: 'copilot',
  label: 'Copilot CLI',
  normalize: (payload, event) => ({
    ...payload,
    hook_event_name: event ?? payload['hook_event_name'],
    session_id: payload['sessionId'] ?? payload['session_id'],
  }),
  event: (payload) => {
    const name = payload['hook_event_name'];
    return typeof name === 'string' && Object.hasOwn(EVENTS, name) ? EVENTS[name]! : null;
  },
  toolUse: (payload): ToolUse => {
    const name = typeof payload['toolName'] === 'string' ? payload['toolName'] : '';
    const args = payload['toolArgs'];
    if (name === 'write_bash') {
      const input = args !== null && typeof args === 'object' ? (args as Record<string, unknown>)['input'] : null;
      return { tool: 'Bash', paths: [], command: typeof input === 'string' ? input : '', kind: null };
    }
    return toolUseFromClaude(toolName(name), args);
  },
  refuse: (text) => ({
    code: 0,
    stdout: `${JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: text })}\n`,
  }),
  allow: () => ({ code: 0 }),
  context: (text) => ({ code: 0, stdout: `${JSON.stringify({ additionalContext: text })}\n` }),
  holdStop: () => ({ code: 0 }), // no Stop event is installed for Copilot CLI
  mcpTool: (tool) => `hestai-${tool}`,
  envFileVar: null,
};
