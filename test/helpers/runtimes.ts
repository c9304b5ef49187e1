import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './git-repo.js';

// The real agent runtimes (issue 29), installed as pinned devDependencies: where their programs are, and
// one way to run them against the scripted model endpoint (./model-endpoint.ts) with nothing of the
// developer's own setup (keys, base URLs, settings) leaking in.

/** The runtimes' npm packages and their programs. */
export const RUNTIMES = {
  'claude-code': { pkg: '@anthropic-ai/claude-code', bin: 'claude' },
  codex: { pkg: '@openai/codex', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', bin: 'gemini' },
} as const;
export type RuntimeName = keyof typeof RUNTIMES;

/** The version of a runtime pinned in package.json (devDependencies). */
export function pinnedVersion(runtime: RuntimeName): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
  return pkg.devDependencies[RUNTIMES[runtime].pkg];
}

/**
 * The installed program of a runtime, or null when it is not installed. In CI (`CI=true`) a missing one is
 * an error: `npm ci` installs it, so a missing program there would turn the end-to-end cases into skips.
 */
export function runtimeBin(runtime: RuntimeName): string | null {
  const bin = path.join(PROJECT_ROOT, 'node_modules', '.bin', RUNTIMES[runtime].bin);
  if (fs.existsSync(bin)) return bin;
  if (process.env['CI'] === 'true')
    throw new Error(
      `${RUNTIMES[runtime].pkg} is not installed (node_modules/.bin/${RUNTIMES[runtime].bin}): run npm ci`,
    );
  process.stderr.write(
    `[runtimes] ${RUNTIMES[runtime].pkg} is not installed: its end-to-end cases are skipped (npm install)\n`,
  );
  return null;
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
