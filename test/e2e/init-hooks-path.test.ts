import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// Issue 27 (git answers git questions): where git runs hooks from is git's answer (`git rev-parse --git-path
// hooks`), not our reading of core.hooksPath: a core.hooksPath of `~/.githooks` is $HOME/.githooks to git.
// Review F2: such a directory is shared by every repository of the user, so hestai's plain hooks written
// there would block commits in repositories that never adopted hestai. `hestai init --no-husky` refuses
// (exit 2, nothing written) naming the directory, where the setting comes from and two remedies that work;
// doctor never calls hestai's hooks in a shared directory ok.

/** Repository A (a TempRepo) and a second repository B under the same HOME, both with `~/.githooks` global. */
function setup() {
  const repo = makeRepo();
  repo.git(['config', '--global', 'core.hooksPath', '~/.githooks']);
  const shared = path.join(repo.home, '.githooks');
  fs.mkdirSync(shared);
  expect(repo.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).stdout.trim()).toBe(shared);
  const other = path.join(path.dirname(repo.dir), 'other');
  fs.mkdirSync(other);
  repo.git(['init', '-q', '-b', 'main'], { cwd: other });
  return { repo, shared, other };
}

function commitIn(repo: TempRepo, cwd: string, message: string) {
  fs.writeFileSync(path.join(cwd, 'notes.md'), `x ${Math.random()}\n`);
  repo.git(['add', 'notes.md'], { cwd });
  return repo.git(['commit', '-q', '-m', message], { allowFail: true, cwd });
}

describe('a hooks directory shared outside the repository (core.hooksPath ~/.githooks)', () => {
  it('hestai init --no-husky refuses, writes nothing, and another repository still commits', () => {
    const { repo, shared, other } = setup();
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(2);
    expect(init.stderr).toContain(shared);
    expect(init.stderr).toContain('core.hooksPath=~/.githooks');
    expect(init.stderr).toContain('global');
    expect(init.stderr).toContain('git config core.hooksPath .githooks');
    expect(init.stderr).toContain('hestai init --husky');
    expect(fs.readdirSync(shared)).toEqual([]);
    expect(fs.existsSync(path.join(repo.dir, '.hestai'))).toBe(false);
    expect(fs.existsSync(path.join(repo.dir, '~'))).toBe(false);
    const unrelated = commitIn(repo, other, 'chore: unrelated repo');
    expect(unrelated.status, unrelated.stderr).toBe(0);
  });

  it('an absolute core.hooksPath outside the repository, set in its own config, is refused too', () => {
    const { repo, other } = setup();
    const company = path.join(path.dirname(repo.dir), 'company-hooks');
    fs.mkdirSync(company);
    repo.git(['config', 'core.hooksPath', company]);
    const init = repo.hestai(['init']);
    expect(init.status, init.stderr).toBe(2);
    expect(init.stderr).toContain(`core.hooksPath=${company}`);
    expect(init.stderr).toContain('local');
    expect(fs.readdirSync(company)).toEqual([]);
    expect(commitIn(repo, other, 'chore: unrelated repo').status).toBe(0);
  });

  it('the remedy `git config core.hooksPath .githooks` then hestai init --no-husky works: A is checked, B is not', () => {
    const { repo, shared, other } = setup();
    repo.git(['config', 'core.hooksPath', '.githooks']);
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    for (const hook of ['pre-commit', 'commit-msg']) {
      expect(fs.existsSync(path.join(repo.dir, '.githooks', hook)), hook).toBe(true);
      expect(fs.existsSync(path.join(shared, hook)), hook).toBe(false);
    }
    const doctor = JSON.parse(repo.hestai(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string }[];
    };
    expect(doctor.checks.find((c) => c.name === 'hooks')).toMatchObject({ status: 'pass' });
    repo.commit('chore: adopt hestai');
    const blocked = commitIn(repo, repo.dir, 'docs: notes');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai: commit blocked');
    expect(commitIn(repo, other, 'chore: unrelated repo').status).toBe(0);
  });

  it('a hooks directory named `..hooks` inside the repository is its own, not a shared one: init installs there', () => {
    // Issue 38: `..hooks` is a name, not a parent segment (paths.ts pathInside, the one "inside").
    const { repo, shared, other } = setup();
    repo.git(['config', 'core.hooksPath', '..hooks']);
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    for (const hook of ['pre-commit', 'commit-msg'])
      expect(fs.existsSync(path.join(repo.dir, '..hooks', hook)), hook).toBe(true);
    expect(fs.readdirSync(shared)).toEqual([]);
    repo.commit('chore: adopt hestai');
    const blocked = commitIn(repo, repo.dir, 'docs: notes');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai: commit blocked');
    expect(commitIn(repo, other, 'chore: unrelated repo').status).toBe(0);
  });

  it('the remedy hestai init --husky works: A is checked through its own runner, B is not', () => {
    const { repo, shared, other } = setup();
    const init = repo.hestai(['init', '--husky']);
    expect(init.status, init.stderr).toBe(0);
    expect(fs.readdirSync(shared)).toEqual([]);
    repo.commit('chore: adopt hestai');
    const blocked = commitIn(repo, repo.dir, 'docs: notes');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai: commit blocked');
    expect(commitIn(repo, other, 'chore: unrelated repo').status).toBe(0);
  });

  it('hestai doctor fails the hooks check when hestai runs from the shared directory', () => {
    const { repo, shared } = setup();
    // As an earlier version left it: hestai's plain hooks in the shared directory.
    repo.git(['config', 'core.hooksPath', '.githooks']);
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    for (const hook of fs.readdirSync(path.join(repo.dir, '.githooks')))
      fs.copyFileSync(path.join(repo.dir, '.githooks', hook), path.join(shared, hook));
    repo.git(['config', '--unset', 'core.hooksPath']);
    const doctor = JSON.parse(repo.hestai(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string; message: string }[];
    };
    const hooks = doctor.checks.find((c) => c.name === 'hooks');
    expect(hooks).toMatchObject({ status: 'fail' });
    expect(hooks?.message).toContain(shared);
    expect(hooks?.message).toContain('shared');
  });

  it('hestai doctor, for hestai hooks in .git/hooks that a later global core.hooksPath hides, names remedies that work there', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: adopt hestai');
    repo.git(['config', '--global', 'core.hooksPath', '~/.githooks']);
    fs.mkdirSync(path.join(repo.home, '.githooks'));
    const doctor = repo.hestai(['doctor']);
    expect(doctor.status, doctor.stdout).toBe(1);
    expect(doctor.stdout).toContain('git config core.hooksPath .githooks');
    expect(doctor.stdout).not.toContain('hestai init --no-husky (it installs into');
    expect(doctor.stdout).not.toContain('git config --unset core.hooksPath');
    // The remedy doctor names, run as it says.
    repo.git(['config', 'core.hooksPath', '.githooks']);
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const after = JSON.parse(repo.hestai(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string }[];
    };
    expect(after.checks.find((c) => c.name === 'hooks')).toMatchObject({ status: 'pass' });
    const blocked = commitIn(repo, repo.dir, 'docs: notes');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai: commit blocked');
  });
});
