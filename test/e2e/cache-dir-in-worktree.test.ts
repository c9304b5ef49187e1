// hestai keeps no cache (issue 27): nothing is read from or written to the user cache directory
// ($XDG_CACHE_HOME/hestai, else ~/.cache/hestai), where earlier builds kept git facts and verdicts. With that
// directory inside a git worktree (HOME at a repository's root, as in many containers, or XDG_CACHE_HOME
// pointing into one), the hooks write nothing into the repository and judge every commit. Real hooks, real
// commits.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Hestai Test',
  GIT_AUTHOR_EMAIL: 'test@hestai.invalid',
  GIT_COMMITTER_NAME: 'Hestai Test',
  GIT_COMMITTER_EMAIL: 'test@hestai.invalid',
};

describe('a user cache directory inside a git worktree', () => {
  for (const [where, env] of [
    ['HOME at the worktree root', (dir: string) => ({ HOME: dir, XDG_CACHE_HOME: '' })],
    ['XDG_CACHE_HOME inside the worktree', (dir: string) => ({ XDG_CACHE_HOME: path.join(dir, 'cache') })],
  ] as const) {
    it(`${where}: the hooks write no cache into the repository and still judge every commit`, () => {
      const repo = anchoredRepo();
      const token = repo.anchor();
      const hookEnv = { ...IDENTITY, ...env(repo.dir), HESTAI_SESSION: token };
      const blocked = repo.commitHooked('feat: untested', { 'src/a.ts': 'export const a = 1;\n' }, hookEnv);
      expect(blocked.status, blocked.stderr).toBe(1);
      expect(blocked.stderr).toContain('test-first');
      repo.git(['reset', '-q']);
      const test = repo.commitHooked('test: cover a', { 'test/a.test.ts': '// a\n' }, hookEnv);
      expect(test.status, test.stderr).toBe(0);
      const feat = repo.commitHooked('feat: a', { 'src/a.ts': 'export const a = 1;\n' }, hookEnv);
      expect(feat.status, feat.stderr).toBe(0);
      const untracked = repo.git(['status', '--porcelain', '--ignored', '--untracked-files=all']).stdout;
      expect(untracked).not.toMatch(/hestai\/(code|git|config|protocol|anchor)\//);
      expect(fs.existsSync(path.join(repo.dir, '.cache', 'hestai'))).toBe(false);
      expect(fs.existsSync(path.join(repo.dir, 'cache', 'hestai'))).toBe(false);
    });
  }
});
