import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// A ref that makes `HEAD` ambiguous (a tag or a branch named HEAD, which any upstream can publish and a clone
// fetches) must not change which branch the commit-msg hook judges: git still checks out refs/heads/main, so a
// feat on main paired by its test commit passes, as it does without the tag. Real `git commit`s through the
// installed hooks.

function adopt(repo: TempRepo) {
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'anchor:\n  required: false\n');
  repo.commit('chore: adopt hestai');
}

function commit(repo: TempRepo, message: string, file: string) {
  fs.mkdirSync(path.dirname(path.join(repo.dir, file)), { recursive: true });
  fs.writeFileSync(path.join(repo.dir, file), `${message}\n`);
  repo.git(['add', '-A']);
  return repo.git(['commit', '-q', '-m', message], { allowFail: true });
}

describe('the commit-msg hook with an ambiguous HEAD', () => {
  const cases = [
    ['tag', 'a tag named HEAD does not turn the default branch into a feature branch'],
    ['ref', 'a branch ref named HEAD does not turn the default branch into a feature branch'],
  ] as const;
  for (const [kind, name] of cases) {
    it(name, () => {
      const repo = makeRepo();
      adopt(repo);
      // `git branch HEAD` is refused, but a ref refs/heads/HEAD can still be written (update-ref, a fetch refspec).
      repo.git(kind === 'tag' ? ['tag', 'HEAD'] : ['update-ref', 'refs/heads/HEAD', 'HEAD']);
      // git warns that HEAD is ambiguous, yet HEAD is still the checked-out main.
      expect(repo.git(['symbolic-ref', 'HEAD']).stdout.trim()).toBe('refs/heads/main');
      const t = commit(repo, 'test(a): covers a', 'test/a.test.ts');
      expect(t.status, t.stderr).toBe(0);
      const f = commit(repo, 'feat(a): a', 'src/a.ts');
      expect(f.status, f.stderr).toBe(0);
      // ...and an unpaired feat is still blocked by test-first.
      const g = commit(repo, 'feat(b): b', 'src/b.ts');
      expect(g.status).toBe(1);
      expect(g.stderr).toContain('test-first');
    });
  }
});
