import { spawn } from 'node:child_process';
import { installPinned, type PinnedTool } from './npm-tool.js';

// The real agent runtimes (issue 29), at pinned versions: npm installs them into the tests' shared cache
// (./npm-tool.ts) the first time a test needs one; one way to run them against the scripted model endpoint
// (./model-endpoint.ts) with nothing of the developer's own setup (keys, base URLs, settings) leaking in.

/** The runtimes' npm packages, the versions the tests run, their programs. */
export const RUNTIMES = {
  // its postinstall puts the platform's native program in place of bin/claude.exe
  'claude-code': {
    pkg: '@anthropic-ai/claude-code',
    version: '2.1.332',
    bin: 'claude',
    allowScripts: { '@anthropic-ai/claude-code': true },
  },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  // node-pty (an optional dependency) compiles with node-gyp; its prebuilt twin @lydell/node-pty has no script
  gemini: {
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    allowScripts: { 'node-pty': false, '@github/keytar': false },
  },
} as const satisfies Record<string, PinnedTool>;
export type RuntimeName = keyof typeof RUNTIMES;

const installs = new Map<RuntimeName, Promise<string | null>>();

/**
 * The program of a runtime, installed into the cache if needed (once per process); null, with a message,
 * when the npm registry cannot be reached (outside CI: ./npm-tool.ts).
 */
export function runtimeBin(runtime: RuntimeName): Promise<string | null> {
  let bin = installs.get(runtime);
  if (bin === undefined) installs.set(runtime, (bin = installPinned(RUNTIMES[runtime])));
  return bin;
}

/** Variables of the developer's own runtimes and model providers that must never reach a runtime under test. */
const FOREIGN = /^(ANTHROPIC_|CLAUDE|OPENAI_|CODEX_|GEMINI_|GOOGLE_|VERTEX|AWS_|OTEL_|MCP_)/;

/** `env` without the developer's runtime variables, plus what keeps a runtime off the network. */
export function runtimeEnv(env: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (!FOREIGN.test(key)) clean[key] = value;
  return {
    ...clean,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    NO_COLOR: '1',
    ...extra,
  };
}

export interface RuntimeRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a runtime program asynchronously (the scripted endpoint answers from this process, so a blocking
 * spawn would deadlock), killing it after `timeoutMs` (default 60 s).
 */
export function runRuntime(
  bin: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; input?: string },
): Promise<RuntimeRun> {
  return new Promise((resolve, reject) => {
    // its own process group, so a runtime that relaunches itself is killed whole at the deadline
    const child = spawn(bin, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
