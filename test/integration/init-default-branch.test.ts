import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 25, item 6: `hestai init` on a repository whose default branch is `master` must not leave
// `tdd.default_branch: main` (the built-in default) silently. It asks git (origin/HEAD, then
// init.defaultBranch when that branch exists, then main or master, then the current branch), writes the
// answer into the config it creates and says where it came from.

const defaultBranchOf = (repo: TempRepo) =>
  (
    parse(fs.readFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'utf8')) as {
      tdd: { default_branch?: string };
    }
  ).tdd.default_branch;

/** A repository whose only branch is `master` (git's init.defaultBranch says main, as on many machines). */
function masterRepo(): TempRepo {
  const repo = makeRepo();
  repo.git(['branch', '-m', 'main', 'master']);
  return repo;
}

describe('hestai init: tdd.default_branch from git', () => {
  it("takes the remote's default branch from origin/HEAD and says so", () => {
    const repo = masterRepo();
    const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
    repo.git(['init', '-q', '--bare', remote]);
    repo.git(['remote', 'add', 'origin', remote]);
    repo.git(['push', '-q', 'origin', 'master']);
    repo.git(['remote', 'set-head', 'origin', 'master']);
    repo.git(['switch', '-q', '-c', 'feat/adopt']);
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    expect(defaultBranchOf(repo)).toBe('master');
    expect(init.stdout).toContain('tdd.default_branch: master (origin/HEAD;');
  });

  it('without a remote, a local master (init.defaultBranch names main, which does not exist)', () => {
    const repo = masterRepo();
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    expect(defaultBranchOf(repo)).toBe('master');
    expect(init.stdout).toMatch(/tdd\.default_branch: master \(.*master.*\)/);
  });

  it('writes main where main is the default branch, and says so too', () => {
    const repo = makeRepo();
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    expect(defaultBranchOf(repo)).toBe('main');
    expect(init.stdout).toContain('tdd.default_branch: main (');
  });

  it('on a repository that has no commit yet, the branch HEAD names', () => {
    const repo = makeRepo({ initialCommit: false });
    repo.git(['symbolic-ref', 'HEAD', 'refs/heads/trunk']);
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    expect(defaultBranchOf(repo)).toBe('trunk');
  });
});
