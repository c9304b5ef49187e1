import { isRecord } from '../../util/validate.js';
import type { ToolUse } from '../tool-use.js';
import { patchedFiles } from './codex.js';
import type { HookEvent, RuntimeAdapter } from './types.js';

/** Cline's hook names (`hookName` in its payload), as hestai's events. */
const EVENTS: Readonly<Record<string, HookEvent>> = { agent_start: 'SessionStart', tool_call: 'PreToolUse' };

/** Cline's tools that read, under the names hestai's read list knows. */
const READS: Readonly<Record<string, string>> = {
  read_files: 'Read',
  search_codebase: 'Grep',
  fetch_web_content: 'WebFetch',
  ask_question: 'AskUserQuestion',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** `run_commands`' input (a list, one command, `{commands}`, `{command, args}`...) as one command line per command. */
function commandsOf(input: unknown): string[] {
  const one = (c: unknown): string[] => {
    if (typeof c === 'string') return [c];
    if (!isRecord(c)) return [];
    if (Array.isArray(c['commands'])) return c['commands'].flatMap(one);
    const command = text(c['command']) ?? text(c['cmd']) ?? (typeof c['commands'] === 'string' ? c['commands'] : null);
    if (command === null) return [];
    const args = Array.isArray(c['args']) ? c['args'].filter((a): a is string => typeof a === 'string') : [];
    return [[command, ...args.map((a) => (/[\s"]/u.test(a) ? JSON.stringify(a) : a))].join(' ')];
  };
  return Array.isArray(input) ? input.flatMap(one) : one(input);
}

/**
 * Cline's tool call (`preToolUse: {toolName, parameters}`) as the plain tool call: `editor` {path} an edit,
 * `apply_patch` {input} a write of the files its patch names (none: refused), `run_commands` a shell running
 * its commands one per line, its reading tools reads; any other tool is one hestai does not know.
 */
export function clineToolUse(payload: Record<string, unknown>): ToolUse {
  const call = isRecord(payload['preToolUse']) ? payload['preToolUse'] : {};
  const tool = text(call['toolName']) ?? '';
  const params = isRecord(call['parameters']) ? call['parameters'] : {};
  if (tool === 'editor') {
    const file = text(params['path']);
    return { tool: 'Edit', paths: file === null ? [] : [file], command: null, kind: 'write' };
  }
  if (tool === 'apply_patch') {
    const files = patchedFiles(text(params['input']) ?? '');
    return {
      tool: 'apply_patch',
      paths: files,
      command: null,
      kind: 'write',
      ...(files.length > 0
        ? {}
        : {
            refuse: {
              reason: 'its patch names no file hestai can read, so it may write any file',
              fix: 'name every file the patch writes with a `*** Add File: <path>` or `*** Update File: <path>` line',
            },
          }),
    };
  }
  if (tool === 'run_commands') {
    const commands = commandsOf(call['parameters']);
    return { tool: 'Bash', paths: [], command: commands.length === 0 ? null : commands.join('\n'), kind: null };
  }
  if (Object.hasOwn(READS, tool)) return { tool: READS[tool]!, paths: [], command: null, kind: 'read' };
  return { tool, paths: [], command: null, kind: null };
}

/**
 * Cline (`cline`): its executable `.clinerules/hooks/PreToolUse` gets `{hookName: "tool_call", taskId,
 * workspaceRoots, preToolUse}` on stdin. Cline ignores exit codes; it reads JSON on stdout: `{"cancel": true}`
 * stops the call **and ends the whole task**, with no reason for the model (`errorMessage` reaches the person
 * only), so a refusal cannot send the agent back to work. `contextModification` on an allowed call joins the
 * model's context. Cline runs TaskStart detached, so hestai binds the task (`taskId`) at its first tool call.
 * No MCP server from the project: the refusal names the CLI's anchor stages.
 */
export const clineAdapter: RuntimeAdapter = {
  runtime: 'cline',
  label: 'Cline',
  normalize: (payload) => {
    const roots = Array.isArray(payload['workspaceRoots']) ? payload['workspaceRoots'] : [];
    return {
      ...payload,
      hook_event_name: payload['hookName'],
      session_id: payload['taskId'],
      cwd: text(roots[0]) ?? undefined,
    };
  },
  event: (payload) => {
    const name = payload['hookName'];
    return typeof name === 'string' && Object.hasOwn(EVENTS, name) ? EVENTS[name]! : null;
  },
  toolUse: clineToolUse,
  refuse: (text) => ({
    code: 0,
    stdout: `${JSON.stringify({ cancel: true, errorMessage: text })}\n`,
    stderr: text,
  }),
  allow: () => ({ code: 0, stdout: '{}\n' }),
  context: (text) => ({ code: 0, stdout: `${JSON.stringify({ contextModification: text })}\n` }),
  holdStop: () => ({ code: 0, stdout: '{}\n' }),
  mcpTool: () => null,
  envFileVar: null,
  bindsAtFirstCall: true,
};
