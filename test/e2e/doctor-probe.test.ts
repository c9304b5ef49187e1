import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';

// Issue 37, item 5: doctor cannot be told it is a probe. A repository's hooks may run hestai only when they
// see doctor's dry run (`[ -n "$HESTAI_PROBE" ] || exit 0`): every real commit then skips hestai while doctor
// said the hooks work. Doctor must prove the chain with a commit a hook script cannot tell from a real one,
// and fail when hestai's part is skipped.

const SKIP_UNLESS_PROBED = '[ -n "$HESTAI_PROBE" ] || exit 0\n';

/** A husky 9 repository (core.hooksPath=.husky/_, the real husky) adopted with `hestai init`, committed. */
function huskyAdopted(): TempRepo {
  const repo = makeRepo();
  repo.write('package.json', JSON.stringify({ name: 'app', private: true, devDependencies: { husky: '^9.1.7' } }));
  repo.write('.gitignore', 'node_modules/\n');
  const husky = repo.git(
    ['-c', `alias.husky=!node ${JSON.stringify(path.join(PROJECT_ROOT, 'node_modules/husky/bin.js'))}`, 'husky'],
    { allowFail: true },
  );
  expect(husky.status, husky.stderr).toBe(0);
  const init = repo.hestai(['init']);
  expect(init.status, init.stderr).toBe(0);
  repo.commit('chore: husky and hestai');
  return repo;
}

function hooksCheck(repo: TempRepo): { status: string; message: string } {
  const doctor = repo.hestai(['doctor', '--json']);
  const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; message: string }[] }).checks;
  return checks.find((c) => c.name === 'hooks')!;
}

/** A commit with no session, through the hooks git runs. */
function commitWithoutSession(repo: TempRepo) {
  repo.write('notes.md', `hello ${Math.random()}\n`);
  repo.git(['add', 'notes.md']);
  return repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
}

describe('hestai doctor cannot be told it is a probe', () => {
  it('fails when the committed .husky/pre-commit and commit-msg run hestai only under HESTAI_PROBE', () => {
    const repo = huskyAdopted();
    expect(hooksCheck(repo).status).toBe('pass');
    for (const hook of ['pre-commit', 'commit-msg']) {
      const file = path.join(repo.dir, '.husky', hook);
      fs.writeFileSync(file, SKIP_UNLESS_PROBED + fs.readFileSync(file, 'utf8'));
    }
    repo.commit('chore: hooks');
    // The attack: a real commit with no session goes through.
    expect(commitWithoutSession(repo).status).toBe(0);
    const check = hooksCheck(repo);
    expect(check.status, check.message).toBe('fail');
    expect(check.message).toMatch(/pre-commit/);
    expect(check.message).toMatch(/commit-msg/);
  });

  it('fails when a plain hook runs hestai only under HESTAI_PROBE, and passes once it runs hestai always', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: adopt hestai');
    const file = path.join(repo.dir, '.git/hooks/pre-commit');
    const installed = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, installed.replace(/^#!\/bin\/sh\n/, `#!/bin/sh\n${SKIP_UNLESS_PROBED}`));
    expect(commitWithoutSession(repo).status).toBe(0);
    const check = hooksCheck(repo);
    expect(check.status, check.message).toBe('fail');
    expect(check.message).toMatch(/pre-commit/);
    expect(check.message).not.toMatch(/commit-msg/);

    fs.writeFileSync(file, installed);
    const head = repo.git(['rev-parse', 'HEAD']).stdout;
    const branches = repo.git(['branch', '--list']).stdout;
    expect(hooksCheck(repo)).toMatchObject({ status: 'pass' });
    // The proof leaves nothing behind: no commit, no branch, no worktree, no session, an untouched index.
    expect(repo.git(['rev-parse', 'HEAD']).stdout).toBe(head);
    expect(repo.git(['branch', '--list']).stdout).toBe(branches);
    expect(repo.git(['worktree', 'list']).stdout.trim().split('\n')).toHaveLength(1);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    expect(fs.readdirSync(path.join(repo.dir, '.hestai/sessions/active'))).toEqual([]);
  });

  it('an interrupted doctor leaves its worktree behind: the next run removes a stale one, keeps a recent one, and prunes', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: adopt hestai');
    // What a doctor killed mid-probe leaves: its temporary directory, and the linked worktree git still lists.
    const left = (ageMs: number) => {
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-doctor-')));
      repo.git(['worktree', 'add', '-q', '--detach', path.join(tmp, 'wt'), 'HEAD']);
      const then = new Date(Date.now() - ageMs);
      fs.utimesSync(tmp, then, then);
      return tmp;
    };
    const stale = left(60 * 60 * 1000);
    const recent = left(0);
    const gone = left(60 * 60 * 1000);
    fs.rmSync(gone, { recursive: true, force: true }); // its directory deleted (a tmp cleaner): prune drops it
    expect(hooksCheck(repo).status).toBe('pass');
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
    const listed = repo.git(['worktree', 'list', '--porcelain']).stdout;
    expect(listed).not.toContain(stale);
    expect(listed).not.toContain(gone);
    expect(listed).toContain(recent);
    repo.git(['worktree', 'remove', '--force', path.join(recent, 'wt')]);
    fs.rmSync(recent, { recursive: true, force: true });
  });
});
