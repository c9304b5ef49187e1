import fs from 'node:fs';
import path from 'node:path';
import type { DoctorCheck } from './doctor.js';
import type { Workspace } from '../workspace.js';
import { readTextIfExists } from '../state/store.js';
import { isRecord } from '../util/validate.js';
import {
  CLINE_HOOK_FILE,
  CLINE_LIMIT,
  PLUGIN_RUNTIMES,
  pluginCommand,
  pluginSource,
  type PluginRuntime,
} from './runtime-plugins.js';
import { COPILOT_LIMIT, QWEN_LIMIT, RUNTIME_HOOK_FILES } from './runtime-settings.js';

/** One runtime's project hook file as `hestai init --agent <runtime>` writes it, and what it cannot guarantee. */
interface AgentHookFile {
  runtime: string;
  label: string;
  file: string;
  /** Must be executable (the runtime runs the file itself). */
  executable?: boolean;
  /** Said as a warning while the file is installed. */
  limit?: string;
  /** The hook command in the file's text (default: the text itself). */
  command?: (text: string) => string | null;
  /** The whole file this hestai writes for that command, when init owns all of it (the plugins). */
  written?: (command: string) => string;
}

/** The plugin this hestai writes for the command an installed one runs (`<command> || exit 2`). */
const pluginFor = (runtime: PluginRuntime) => (command: string) =>
  pluginSource(command.replace(/ \|\| exit 2$/, ''), runtime);

/** `doc.hooks[event]` as a list, or null. */
function hookList(doc: unknown, event: string): unknown[] | null {
  const hooks = isRecord(doc) ? doc['hooks'] : undefined;
  const list = isRecord(hooks) ? hooks[event] : undefined;
  return Array.isArray(list) ? list : null;
}

const field = (value: unknown, key: string): string =>
  isRecord(value) && typeof value[key] === 'string' ? (value[key] as string) : '';

/**
 * The commands of a JSON hook file's pre-tool entries, one a line (Copilot CLI: `hooks.preToolUse[].bash`;
 * Claude Code's shape: `hooks.PreToolUse[].hooks[].command`); null when the file is not that shape.
 */
function preToolCommands(text: string, shape: 'copilot' | 'claude'): string | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  const list = hookList(doc, shape === 'copilot' ? 'preToolUse' : 'PreToolUse');
  if (list === null) return null;
  if (shape === 'copilot') return list.map((entry) => field(entry, 'bash')).join('\n');
  return list
    .flatMap((group) => (isRecord(group) && Array.isArray(group['hooks']) ? group['hooks'] : []))
    .map((hook) => field(hook, 'command'))
    .join('\n');
}
const claudeShaped = (text: string) => preToolCommands(text, 'claude');

/** The runtimes doctor checks (one row each). */
export const AGENT_HOOK_FILES: readonly AgentHookFile[] = [
  ...(['opencode', 'kilo'] as const).map((runtime) => ({
    runtime,
    label: runtime === 'kilo' ? 'Kilo Code' : 'OpenCode',
    file: PLUGIN_RUNTIMES[runtime].plugin,
    command: pluginCommand,
    written: pluginFor(runtime),
  })),
  { runtime: 'cline', label: 'Cline', file: CLINE_HOOK_FILE, executable: true, limit: CLINE_LIMIT },
  {
    runtime: 'copilot',
    label: 'Copilot CLI',
    file: RUNTIME_HOOK_FILES.copilot,
    limit: COPILOT_LIMIT,
    command: (text) => preToolCommands(text, 'copilot'),
  },
  { runtime: 'qwen', label: 'Qwen Code', file: RUNTIME_HOOK_FILES.qwen, limit: QWEN_LIMIT, command: claudeShaped },
  { runtime: 'droid', label: 'Factory Droid', file: RUNTIME_HOOK_FILES.droid, command: claudeShaped },
];

/**
 * Pure: the agent-hook entrypoint a hook file runs for `runtime` (absolute, or relative to the worktree
 * root), or null when the file runs no hestai hook for it.
 */
export function hookEntryIn(text: string, runtime: string): string | null {
  const m = new RegExp(
    `node (?:'([^']+)'|"\\$\\(git rev-parse --show-toplevel\\)"/([A-Za-z0-9_./-]+)) ${runtime}(?![a-z-])`,
  ).exec(text);
  return m === null ? null : (m[1] ?? m[2] ?? null);
}

/** What is wrong with one installed hook file (null: nothing). */
function problem(root: string, row: AgentHookFile, text: string): string | null {
  const command = row.command === undefined ? text : row.command(text);
  const entry = command === null ? null : hookEntryIn(command, row.runtime);
  if (entry === null) return `${row.file} does not run hestai's hook for ${row.label}`;
  const file = path.resolve(root, entry);
  if (!fs.existsSync(file))
    return `${row.file} runs ${entry}, which is missing: every ${row.label} tool call is refused`;
  if (row.written !== undefined && command !== null && text !== row.written(command))
    return `${row.file} is not the plugin this hestai writes (an older hestai's, or edited): it may check less`;
  if (row.executable === true) {
    try {
      fs.accessSync(path.join(root, row.file), fs.constants.X_OK);
    } catch {
      return `${row.file} is not executable, so ${row.label} never runs it and nothing is checked`;
    }
  }
  return null;
}

/**
 * Doctor check: each agent runtime hook file in the project (AGENT_HOOK_FILES) runs hestai's hook, whose
 * entrypoint exists, and is executable where the runtime runs it itself; a runtime's limit is a warning.
 */
export function agentHooksCheck(workspace: Workspace): DoctorCheck {
  const found = AGENT_HOOK_FILES.flatMap((row) => {
    const text = readTextIfExists(path.join(workspace.root, row.file));
    return text === null ? [] : [{ row, text }];
  });
  if (found.length === 0)
    return {
      name: 'agent hooks',
      status: 'pass',
      message: `none of ${AGENT_HOOK_FILES.map((r) => r.label).join(', ')}`,
    };
  const failures = found.flatMap(({ row, text }) => problem(workspace.root, row, text) ?? []);
  if (failures.length > 0)
    return {
      name: 'agent hooks',
      status: 'fail',
      message: failures.join('; '),
      remedy: `Run npx hestai init --agent <runtime> again (${found.map(({ row }) => row.runtime).join(', ')}).`,
    };
  const names = found.map(({ row }) => row.label).join(', ');
  const limits = found.flatMap(({ row }) => (row.limit === undefined ? [] : [`${row.label}: ${row.limit}`]));
  if (limits.length > 0)
    return { name: 'agent hooks', status: 'warn', message: `${names} run hestai's hook. ${limits.join('. ')}` };
  return { name: 'agent hooks', status: 'pass', message: `${names} run hestai's hook on every tool call` };
}
