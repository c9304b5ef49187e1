import { HESTAI_MCP_TOOLS } from '../../util/agent-tools.js';
import { isRecord } from '../../util/validate.js';
import { inputStrings, type ToolUse } from '../tool-use.js';
import { patchedFiles } from './codex.js';
import type { HookEvent, RuntimeAdapter } from './types.js';

/** The plugin's events (src/setup/runtime-plugins.ts), as hestai's. */
const EVENTS: Readonly<Record<string, HookEvent>> = {
  'session.start': 'SessionStart',
  'tool.execute.before': 'PreToolUse',
};

/** OpenCode's tools that read, under the names hestai's read list knows. */
const READS: Readonly<Record<string, string>> = {
  read: 'Read',
  glob: 'Glob',
  grep: 'Grep',
  list: 'LS',
  webfetch: 'WebFetch',
  websearch: 'WebSearch',
  todoread: 'TodoRead',
  todowrite: 'TodoWrite',
  question: 'AskUserQuestion',
};

const EDITS: Readonly<Record<string, string>> = { write: 'Write', edit: 'Edit', multiedit: 'MultiEdit' };

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The plugin's payload's `input` (OpenCode's `{tool, sessionID, callID}`) and `output.args`. */
function parts(payload: Record<string, unknown>): { input: Record<string, unknown>; args: Record<string, unknown> } {
  const input = isRecord(payload['input']) ? payload['input'] : {};
  const output = isRecord(payload['output']) ? payload['output'] : {};
  return { input, args: isRecord(output['args']) ? output['args'] : {} };
}

/**
 * OpenCode's tool call as the plain tool call: `bash` {command, workdir} a shell, `write`/`edit`/`multiedit`
 * {filePath} edits, `apply_patch`/`patch` {patchText} a write of the files its patch names (none: refused),
 * its reading tools reads, and hestai's MCP tools (`hestai_<tool>`: OpenCode names a tool `<server>_<tool>`)
 * as `mcp__hestai__<tool>`. Any other tool, another server's too, is a tool hestai does not know.
 */
export function opencodeToolUse(payload: Record<string, unknown>): ToolUse {
  const { input, args } = parts(payload);
  const tool = text(input['tool']) ?? '';
  const file = text(args['filePath']);
  if (tool === 'bash') {
    const dir = text(args['workdir']);
    return { tool: 'Bash', paths: [], command: text(args['command']), kind: null, ...(dir === null ? {} : { dir }) };
  }
  if (Object.hasOwn(EDITS, tool))
    return { tool: EDITS[tool]!, paths: file === null ? [] : [file], command: null, kind: 'write' };
  if (tool === 'apply_patch' || tool === 'patch') {
    const files = patchedFiles(text(args['patchText']) ?? text(args['patch']) ?? '');
    if (files.length > 0) return { tool: 'apply_patch', paths: files, command: null, kind: 'write' };
    return {
      tool: 'apply_patch',
      paths: [],
      command: null,
      kind: 'write',
      refuse: {
        reason: 'its patch names no file hestai can read, so it may write any file',
        fix: 'name every file the patch writes with a `*** Add File: <path>`, `*** Update File: <path>` or `*** Delete File: <path>` line',
      },
    };
  }
  if (Object.hasOwn(READS, tool)) return { tool: READS[tool]!, paths: [], command: null, kind: 'read' };
  const mcp = /^hestai_(.+)$/.exec(tool)?.[1];
  if (mcp !== undefined && (HESTAI_MCP_TOOLS as readonly string[]).includes(mcp))
    return { tool: `mcp__hestai__${mcp}`, paths: [], command: null, kind: null };
  return { tool, paths: [], command: null, kind: null, strings: inputStrings(args) };
}

/**
 * OpenCode (`opencode-ai`): hestai's plugin in `.opencode/plugins/` sends every `tool.execute.before(input,
 * output)` as `{hook_event_name, input, output: {args}}`, and `session.start` once per OpenCode session
 * (`input.sessionID`). It throws the hook's stderr to refuse (the model reads it), puts SessionStart's stdout
 * in the system prompt and sets HESTAI_SESSION for the agent's shell. OpenCode has no Stop hook.
 */
export const opencodeAdapter: RuntimeAdapter = {
  runtime: 'opencode',
  label: 'OpenCode',
  normalize: (payload) => ({ ...payload, session_id: parts(payload).input['sessionID'] }),
  event: (payload) => {
    const name = payload['hook_event_name'];
    return typeof name === 'string' && Object.hasOwn(EVENTS, name) ? EVENTS[name]! : null;
  },
  toolUse: opencodeToolUse,
  refuse: (text) => ({ code: 2, stderr: text }),
  allow: () => ({ code: 0 }),
  context: (text) => ({ code: 0, stdout: text }),
  holdStop: () => ({ code: 0 }),
  mcpTool: (tool) => `hestai_${tool}`,
  envFileVar: null,
};

/** Kilo Code (`@kilocode/cli`), OpenCode's fork: the same plugin API, from `.kilo/plugins/`. */
export const kiloAdapter: RuntimeAdapter = { ...opencodeAdapter, runtime: 'kilo', label: 'Kilo Code' };
