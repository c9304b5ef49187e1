import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { worktreeAddDetached, worktreeRemove } from '../git/worktree.js';
import type { Verdict } from '../tdd/verdict.js';

/** How long one run of the test command may take. */
export const RED_GREEN_TIMEOUT_MS = 300_000;

export interface CommandRun {
  status: number | null;
  timedOut: boolean;
  tail: string;
}

/**
 * Runs `command` (via `sh -c`) in a temporary detached worktree at `sha`, with a timeout; the worktree is
 * always removed, with `options.env` (verify passes the minimal gate environment). The project's node_modules
 * is linked in when the checkout has none.
 */
export function runAtCommit(
  root: string,
  sha: string,
  command: string,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): CommandRun {
  const timeoutMs = options.timeoutMs ?? RED_GREEN_TIMEOUT_MS;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-red-green-'));
  const dir = path.join(base, 'wt');
  try {
    worktreeAddDetached(root, dir, sha);
    const modules = path.join(root, 'node_modules');
    if (fs.existsSync(modules) && !fs.existsSync(path.join(dir, 'node_modules')))
      fs.symlinkSync(modules, path.join(dir, 'node_modules'), 'dir');
    const result = spawnSync('sh', ['-c', command], {
      cwd: dir,
      ...(options.env ? { env: options.env } : {}),
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trimEnd().split('\n').slice(-5).join('\n');
    return {
      status: result.status,
      timedOut: result.error !== undefined && (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT',
      tail: output,
    };
  } finally {
    worktreeRemove(root, dir);
    fs.rmSync(base, { recursive: true, force: true });
  }
}

const CLAUSE = 'docs/design.md §6 (--red-green, tdd.test_command)';

/** Pure: the red-green verdict from the two runs. */
export function redGreenVerdict(
  testSha: string,
  featSha: string,
  red: CommandRun,
  green: CommandRun,
  command: string,
): Verdict {
  const s = (sha: string) => sha.slice(0, 7);
  if (red.timedOut || green.timedOut)
    return {
      rule: 'red-green',
      clause: CLAUSE,
      status: 'fail',
      message: `\`${command}\` timed out at ${s(red.timedOut ? testSha : featSha)}`,
    };
  if (red.status === 0) {
    return {
      rule: 'red-green',
      clause: CLAUSE,
      status: 'fail',
      message: `RED expected at test commit ${s(testSha)}, but \`${command}\` passed there: the test did not fail before the implementation`,
    };
  }
  if (green.status !== 0) {
    return {
      rule: 'red-green',
      clause: CLAUSE,
      status: 'fail',
      message: `GREEN expected at ${s(featSha)}, but \`${command}\` failed (exit ${green.status}): ${green.tail}`,
    };
  }
  return {
    rule: 'red-green',
    clause: CLAUSE,
    status: 'pass',
    message: `RED at ${s(testSha)} (exit ${red.status}), GREEN at ${s(featSha)}`,
  };
}
