import type { ToolUse } from '../tool-use.js';
import type { HookEvent, RuntimeAdapter } from './types.js';

/** Cursor's agent events, as hestai's (every `before*` tool event is a PreToolUse; afterFileEdit comes after). */
const EVENTS: Readonly<Record<string, HookEvent>> = {
  sessionStart: 'SessionStart',
  beforeShellExecution: 'PreToolUse',
  beforeMCPExecution: 'PreToolUse',
  beforeReadFile: 'PreToolUse',
  afterFileEdit: 'PreToolUse',
  stop: 'Stop',
};

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** True when an MCP server's command line is hestai's own server (`hestai mcp`, `.../dist/cli/bin.js mcp`). */
export function isHestaiMcpServer(command: unknown): boolean {
  return typeof command === 'string' && /(^|[\s/'"])(hestai|bin\.js['"]?)\s+mcp\b/.test(command);
}

/**
 * Cursor's hooks (`.cursor/hooks.json`, its hooks documentation): every payload has `hook_event_name`,
 * `conversation_id` (the runtime session) and `workspace_roots`; `beforeShellExecution` has `command` and
 * `cwd`, `beforeMCPExecution` the `tool_name` and the server's `command`, `beforeReadFile` and
 * `afterFileEdit` a `file_path`, `stop` its `loop_count`. The answer to a `before*` event is JSON on stdout:
 * `permission` allow or deny, with `user_message` (the person) and `agent_message` (the model);
 * sessionStart's `additional_context` reaches the model; stop's `followup_message` sends the agent back.
 * `afterFileEdit` comes after the edit, so a refusal there can only be audited (the git hooks and
 * `hestai verify` remain the backstop). No env file.
 */
export const cursorAdapter: RuntimeAdapter = {
  runtime: 'cursor',
  label: 'Cursor',
  normalize: (payload) => {
    const roots = Array.isArray(payload['workspace_roots']) ? payload['workspace_roots'] : [];
    return {
      ...payload,
      session_id: payload['conversation_id'],
      cwd: str(payload['cwd']) ?? str(roots[0]) ?? undefined,
      stop_hook_active: typeof payload['loop_count'] === 'number' && payload['loop_count'] > 0,
    };
  },
  event: (payload) => {
    const name = payload['hook_event_name'];
    return typeof name === 'string' && Object.hasOwn(EVENTS, name) ? EVENTS[name]! : null;
  },
  toolUse: (payload): ToolUse => {
    const file = str(payload['file_path']);
    switch (payload['hook_event_name']) {
      case 'beforeShellExecution':
        return { tool: 'Bash', paths: [], command: str(payload['command']), kind: null };
      case 'beforeMCPExecution': {
        const server = isHestaiMcpServer(payload['command']) ? 'hestai' : 'cursor';
        return {
          tool: `mcp__${server}__${str(payload['tool_name']) ?? 'unknown'}`,
          paths: [],
          command: null,
          kind: null,
        };
      }
      case 'beforeReadFile':
        return { tool: 'Read', paths: file === null ? [] : [file], command: null, kind: 'read' };
      default:
        return { tool: 'Edit', paths: file === null ? [] : [file], command: null, kind: null };
    }
  },
  refuse: (text, payload) =>
    payload['hook_event_name'] === 'afterFileEdit'
      ? { code: 0, stdout: '{}\n', stderr: text }
      : {
          code: 0,
          stdout: `${JSON.stringify({ permission: 'deny', user_message: text.split('\n')[0], agent_message: text })}\n`,
        },
  allow: () => ({ code: 0, stdout: `${JSON.stringify({ permission: 'allow' })}\n` }),
  context: (text) => ({ code: 0, stdout: `${JSON.stringify({ additional_context: text })}\n` }),
  holdStop: (text) => ({ code: 0, stdout: `${JSON.stringify({ followup_message: text })}\n` }),
  // Cursor offers a server under a name of its own (prefixed per project): no fixed tool name to give
  mcpTool: () => null,
  envFileVar: null,
};
