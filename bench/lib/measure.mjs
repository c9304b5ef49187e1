// Measuring one sample: wall time around a spawned process (peak RSS through /usr/bin/time), or an
// in-process async function. Exit codes are checked: a case that fails is an error, never a fast sample.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const TIME = '/usr/bin/time';
/** Whether GNU time is available to report each process's peak RSS. */
export const HAS_GNU_TIME = (() => {
  try {
    return spawnSync(TIME, ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0;
  } catch {
    return false;
  }
})();
/** Whether hyperfine is installed (optional; the runner does its own interleaving either way). */
export const HAS_HYPERFINE = spawnSync('hyperfine', ['--version']).status === 0;

const rssFile = path.join(os.tmpdir(), `hestai-bench-rss-${process.pid}`);

/**
 * Spawns `cmd args` once and returns `{wallMs, rssKb}`. Peak RSS is the largest maximum resident set of the
 * process and every descendant it waited for (GNU time's %M), so for `git commit` it covers the hooks.
 */
export function measureSpawn(cmd, args, { cwd, env, input, expect = 0 } = {}) {
  const argv = HAS_GNU_TIME ? [TIME, ['-f', '%M', '-o', rssFile, '--', cmd, ...args]] : [cmd, args];
  const start = performance.now();
  const result = spawnSync(argv[0], argv[1], { cwd, env, input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wallMs = performance.now() - start;
  if (result.error) throw result.error;
  if (expect !== null && result.status !== expect) {
    throw new Error(
      `${[cmd, ...args].join(' ')} exited ${result.status} (expected ${expect}) in ${cwd}\n${result.stderr}${result.stdout}`.slice(
        0,
        4000,
      ),
    );
  }
  let rssKb = null;
  if (HAS_GNU_TIME) {
    const lines = fs.readFileSync(rssFile, 'utf8').trim().split('\n');
    rssKb = Number(lines[lines.length - 1]);
  }
  return { wallMs, rssKb, stdout: result.stdout, stderr: result.stderr };
}

/** Times one call of an async function in this process (no RSS: the runner's heap is not the case's). */
export async function measureInProcess(fn) {
  const start = performance.now();
  const value = await fn();
  return { wallMs: performance.now() - start, rssKb: null, value };
}

/** Peak RSS (VmHWM, kB) of a live process from /proc, or null where /proc is unavailable. */
export function peakRssOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Runs a command once with GIT_TRACE to a file and returns the git commands it started (one per git
 * process: git logs `trace: built-in: git …` at the start of each built-in command).
 */
export function gitProcesses(cmd, args, { cwd, env, input } = {}) {
  const trace = path.join(os.tmpdir(), `hestai-bench-trace-${process.pid}`);
  fs.rmSync(trace, { force: true });
  const result = spawnSync(cmd, args, { cwd, env: { ...env, GIT_TRACE: trace }, input, encoding: 'utf8' });
  if (result.error) throw result.error;
  const lines = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').split('\n') : [];
  fs.rmSync(trace, { force: true });
  return lines.map((l) => /trace: built-in: (git .*)$/.exec(l)?.[1]).filter(Boolean);
}
