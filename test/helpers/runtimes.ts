import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withLock } from '../../src/state/store.js';
import { installPinned, toolCache, type PinnedTool } from './npm-tool.js';

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
  // a launcher whose platform package (an optional dependency) unpacks ~235 MB under $XDG_CACHE_HOME at first start
  copilot: { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  qwen: { pkg: '@qwen-code/qwen-code', version: '0.15.10', bin: 'qwen' },
  // their postinstall links the platform's native program (a bun build)
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode', allowScripts: { 'opencode-ai': true } },
  kilo: { pkg: '@kilocode/cli', version: '7.7.7', bin: 'kilo', allowScripts: { '@kilocode/cli': true } },
} as const satisfies Record<string, PinnedTool>;
export type RuntimeName = keyof typeof RUNTIMES;

const installs = new Map<RuntimeName, Promise<string | null>>();

/**
 * The program of a runtime, installed into the cache if needed (once per process); null, with a message,
 * when the npm registry cannot be reached (outside CI: ./npm-tool.ts).
 */
export function runtimeBin(runtime: RuntimeName): Promise<string | null> {
  let bin = installs.get(runtime);
  if (bin === undefined) {
    bin = installPinned(RUNTIMES[runtime]);
    if (runtime === 'copilot') bin = bin.then((b) => (b === null ? null : unpackCopilot(b)));
    installs.set(runtime, bin);
  }
  return bin;
}

/**
 * Copilot CLI's cache directory ($XDG_CACHE_HOME), shared by every test and run: its first start unpacks its
 * program there (about 235 MB), which the tests' private HOMEs would otherwise each repeat.
 */
export function copilotCache(): string {
  return path.join(toolCache(), `copilot-cache-${RUNTIMES.copilot.version}`);
}

/** Copilot CLI's program unpacked into copilotCache() once (under a lock: no two workers unpack at once). */
async function unpackCopilot(bin: string): Promise<string> {
  const cache = copilotCache();
  const done = path.join(cache, '.unpacked');
  if (fs.existsSync(done)) return bin;
  return withLock(
    `${cache}.lock`,
    async () => {
      if (fs.existsSync(done)) return bin;
      const env = runtimeEnv(process.env, { XDG_CACHE_HOME: cache, COPILOT_AUTO_UPDATE: 'false' });
      const run = await runRuntime(bin, ['--version'], { cwd: os.tmpdir(), env, timeoutMs: 120_000 });
      if (run.status !== 0) throw new Error(`copilot --version failed (${run.status}): ${run.stderr}`);
      fs.writeFileSync(done, `${run.stdout.trim()}\n`);
      return bin;
    },
    { timeoutMs: 5 * 60_000 },
  );
}

/** Variables of the developer's own runtimes and model providers that must never reach a runtime under test. */
const FOREIGN =
  /^(ANTHROPIC_|CLAUDE|OPENAI_|CODEX_|GEMINI_|GOOGLE_|VERTEX|AWS_|OTEL_|MCP_|COPILOT_|GH_|GITHUB_|QWEN_|DASHSCOPE_|OPENCODE_|KILO_)/;

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
