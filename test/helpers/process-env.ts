// Tests that call the library in-process with a repository's environment (git is started with process.env):
// set it per test, restore it after each, and prove "no git process" by running with no git on PATH.
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
