// Tests that call the library in-process with a repository's environment (git is started with process.env):
// set it per test, restore it after each, and prove "no git process" by running with no git on PATH.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { tempDir, type TempRepo } from './git-repo.js';

/** Restores process.env after each test of the calling file to what it was when this was called. */
export function restoreEnvAfterEach(): void {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });
}

/** The repository's environment in this process (its GIT_* variables replace any others). */
export function useRepo(repo: TempRepo): void {
  for (const k of Object.keys(process.env)) if (k.startsWith('GIT_')) delete process.env[k];
  Object.assign(process.env, repo.env);
}

/** Runs `fn` with no git on PATH: any git process it tries to start fails (GIT_MISSING). */
export function withoutGit<T>(fn: () => T): T {
  const saved = process.env['PATH'];
  process.env['PATH'] = tempDir('hestai-nogit-');
  try {
    return fn();
  } finally {
    process.env['PATH'] = saved;
  }
}

/** A git on PATH (prepended) that records each call's arguments, one line each, then runs the real git. */
function recordingGit(): { calls: () => string[]; restore: () => void } {
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  const dir = tempDir('hestai-gitlog-');
  const log = path.join(dir, 'calls');
  fs.writeFileSync(log, '');
  fs.writeFileSync(path.join(dir, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`, {
    mode: 0o755,
  });
  const saved = process.env['PATH'];
  process.env['PATH'] = `${dir}${path.delimiter}${saved ?? ''}`;
  return {
    calls: () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean),
    restore: () => {
      process.env['PATH'] = saved;
    },
  };
}

/** Runs `fn` with git's calls recorded: how many git processes it started, and which. */
export function withGitCalls<T>(fn: () => T): { result: T; calls: string[] } {
  const git = recordingGit();
  try {
    const result = fn();
    return { result, calls: git.calls() };
  } finally {
    git.restore();
  }
}

/** {@link withGitCalls} for an asynchronous `fn`. */
export async function withGitCallsAsync<T>(fn: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  const git = recordingGit();
  try {
    const result = await fn();
    return { result, calls: git.calls() };
  } finally {
    git.restore();
  }
}
