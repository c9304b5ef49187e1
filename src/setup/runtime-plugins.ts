import { usageError } from '../errors.js';
import { isRecord, parseJsonObject } from '../util/validate.js';
import { hookPath } from './runtime-settings.js';

// The project files of the runtimes whose hooks are code or executables rather than a JSON list of commands
// (issue 42): OpenCode's and Kilo Code's plugin (`tool.execute.before` throws to refuse), their MCP entry, and
// Cline's executable `PreToolUse` hook. Each runs hestai's `hooks/agent-hook <runtime>` and nothing else.

/** Where OpenCode and Kilo Code load a project plugin from, and the project config naming their MCP servers. */
export const PLUGIN_RUNTIMES = {
  opencode: {
    plugin: '.opencode/plugins/hestai.js',
    config: 'opencode.json',
    schema: 'https://opencode.ai/config.json',
  },
  kilo: { plugin: '.kilo/plugins/hestai.js', config: 'kilo.json', schema: 'https://app.kilo.ai/config.json' },
} as const;
export type PluginRuntime = keyof typeof PLUGIN_RUNTIMES;

/** Cline's project hook: an executable named after its event. */
export const CLINE_HOOK_FILE = '.clinerules/hooks/PreToolUse';

/** The shell command a plugin or Cline's hook runs: hestai's agent hook, found as the other runtimes find it. */
export function pluginHookCommand(entry: { project: string } | { absolute: string }, runtime: string): string {
  return `node ${hookPath(entry, '"$(git rev-parse --show-toplevel)"')} ${runtime}`;
}

/**
 * The plugin OpenCode or Kilo Code loads from the project (`tool.execute.before(input, output)`): it hands
 * every tool call to hestai's hook (`sh -c` with the call as JSON on stdin) and throws its stderr when the
 * hook refuses, exits non-zero or cannot start (fail closed: the thrown message is what the model reads). It
 * deep-freezes the arguments before judging them: a plugin after it cannot change what was allowed.
 * It clocks the runtime session in once (`session.start`), gives the model that context in the system
 * prompt, and sets HESTAI_SESSION for the agent's shell (`shell.env`).
 */
export function pluginSource(command: string, runtime: PluginRuntime): string {
  return `// hestai-hooks: every ${runtime === 'kilo' ? 'Kilo Code' : 'OpenCode'} tool call goes through hestai's hook first
// (written by \`npx hestai init --agent ${runtime}\`; run it again rather than editing this file).
// A refusal throws: its message (the reason and the fix) is what the model reads. A hook that cannot run refuses.
import { spawn } from 'node:child_process';

const COMMAND = ${JSON.stringify(`${command} || exit 2`)};
const LIMIT_MS = 60000;

function hook(cwd, payload) {
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    let done = false;
    let timer;
    const finish = (code, why) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ code, out, err: why ? err + why : err });
    };
    let child;
    try {
      child = spawn('sh', ['-c', COMMAND], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      return finish(2, String(error));
    }
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(2, 'hestai hook failed: no answer within ' + LIMIT_MS / 1000 + ' s');
    }, LIMIT_MS);
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', (error) => finish(2, String(error)));
    child.on('close', (code) => finish(code ?? 2, code === null ? 'hestai hook failed: killed' : ''));
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

// Frozen before they are judged: OpenCode runs the tool with this very object, so no plugin after this one
// (or code still holding it) can change what was allowed; a change throws, and a throwing plugin stops the call.
function freeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) freeze(value[key]);
  }
  return value;
}

export const HestaiHooks = async ({ directory }) => {
  const started = new Map();
  const start = (sessionID) => {
    if (!started.has(sessionID))
      started.set(sessionID, hook(directory, { hook_event_name: 'session.start', input: { sessionID } }));
    return started.get(sessionID);
  };
  return {
    'experimental.chat.system.transform': async (input, output) => {
      // Kilo Code names its title call \`title-<session>\`: no agent of its own, so no hestai session.
      if (typeof input.sessionID !== 'string' || /^[a-z]+-/.test(input.sessionID)) return;
      const run = await start(input.sessionID);
      if (run.code === 0 && run.out.trim() !== '') output.system.push(run.out.trim());
    },
    'shell.env': async (input, output) => {
      if (!started.has(input.sessionID)) return;
      const session = /hestai session ([0-9a-f-]{36})/.exec((await started.get(input.sessionID)).out);
      if (session !== null) output.env.HESTAI_SESSION = session[1];
    },
    'tool.execute.before': async (input, output) => {
      const args = freeze(output.args);
      await start(input.sessionID);
      const run = await hook(directory, { hook_event_name: 'tool.execute.before', input, output: { args } });
      if (run.code !== 0) throw new Error(run.err.trim() || 'hestai hook exited with ' + run.code + ': refused');
    },
  };
};
`;
}

/** Pure: the shell command a plugin hestai wrote runs (its `COMMAND`), or null. */
export function pluginCommand(text: string): string | null {
  const m = /^const COMMAND = ("(?:[^"\\]|\\.)*");$/m.exec(text);
  if (m === null) return null;
  try {
    return JSON.parse(m[1]!) as string;
  } catch {
    return null;
  }
}

/**
 * The new text of `opencode.json` or `kilo.json`: `mcp.hestai` (a local server, `node <bin> mcp`) added or
 * replaced, everything else kept, and `$schema` first when absent (the runtime adds it at start: the file stays
 * as committed). A file that is not a JSON object with an object `mcp` is refused, unchanged.
 */
export function mergePluginConfig(existing: string | null, binPath: string, file: string, runtime: PluginRuntime) {
  const refuse = (what: string) =>
    usageError(`${file}: ${what}`, {
      file,
      code: 'AGENT_CONFIG_INVALID',
      remedy: `Fix ${file}, then run \`hestai init --agent ${runtime}\` again; it was left unchanged.`,
    });
  const doc = parseJsonObject(existing, refuse);
  const mcp = doc['mcp'] ?? {};
  if (!isRecord(mcp)) throw refuse('"mcp" is not an object');
  const hestai = { type: 'local', command: ['node', binPath, 'mcp'], enabled: true };
  const schema = { $schema: PLUGIN_RUNTIMES[runtime].schema };
  return `${JSON.stringify({ ...schema, ...doc, mcp: { ...mcp, hestai } }, null, 2)}\n`;
}

/** Cline's answer when the hook cannot run at all (Cline reads only JSON on stdout; it ignores exit codes). */
export const CLINE_CANNOT_START = JSON.stringify({
  cancel: true,
  errorMessage: 'hestai hook failed: it could not start, and hestai refuses changes it cannot check',
});

/**
 * Cline's executable `PreToolUse` hook. Cline ignores exit codes and reads `{"cancel": true}` on stdout as a
 * refusal that ends the whole task (the model reads no reason): a hook that cannot start answers that too.
 */
export function clineHookScript(command: string): string {
  return [
    '#!/bin/sh',
    '# hestai-hooks: every Cline tool call goes through hestai first (`npx hestai init --agent cline`).',
    '# Cline ignores exit codes: a refusal is {"cancel": true}, which stops the call and ends the task.',
    `${command} || printf '%s\\n' '${CLINE_CANNOT_START}'`,
    '',
  ].join('\n');
}

/** What hestai cannot guarantee under Cline, said by `init` and `doctor`. */
export const CLINE_LIMIT =
  'Cline cannot refuse one tool call with a reason: hestai\'s refusal ({"cancel": true}) stops the call and ends the whole task, and the model never reads why. Have the agent anchor before any write (the CLI\'s anchor stages: Cline reads no project MCP server), or start Cline with HESTAI_SESSION naming an anchored session';
