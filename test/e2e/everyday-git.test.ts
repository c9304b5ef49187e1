import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { tempDir } from '../helpers/git-repo.js';
import { anchoredRepo, verdictOf, type AnchoredRepo } from '../helpers/anchored-repo.js';
import { installPinned } from '../helpers/npm-tool.js';

const LEFTHOOK = await installPinned({
  pkg: 'lefthook',
  version: '2.2.2',
  bin: 'lefthook',
  allowScripts: { lefthook: false },
});

// Issue 41 item 2: git's everyday commands in an anchored session (anchors on) make commits that pass CI:
// a real push to a bare remote, then `hestai verify` in a fresh clone. No amend and no force-push afterwards.

/** A repository on feat/x, anchored at the branch point, with a test commit and its feat through the hooks. */
function started(): { repo: AnchoredRepo; token: string } {
  const repo = anchoredRepo();
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  const token = repo.anchor();
  expect(repo.commitHooked('test(greet): greets', { 'test/greet.test.js': 'test\n' }).stderr).not.toContain('blocked');
  const feat = repo.commitHooked('feat(greet): greet', { 'src/greet.js': 'export {};\n' });
  expect(feat.status, feat.stderr).toBe(0);
  return { repo, token };
}

/** Pushes `branch` (force when it was rewritten) and returns verify's report in a fresh clone, asserting a pass. */
function passesCi(repo: AnchoredRepo, branch = 'feat/x', force = false) {
  const push = repo.git(['push', '-q', ...(force ? ['-f'] : []), 'origin', branch], { allowFail: true });
  expect(push.status, push.stderr).toBe(0);
  const { status, report, stderr } = repo.verifyJson(repo.freshClone(branch), ['--from', 'origin/main']);
  const failing = report.commits
    .map((c) => ({ header: c.header, bad: c.verdicts.filter((v) => v.status === 'fail') }))
    .filter((c) => c.bad.length > 0);
  expect(failing, stderr).toEqual([]);
  expect(status, stderr).toBe(0);
  return report;
}

/** An editor script (for GIT_EDITOR or GIT_SEQUENCE_EDITOR): runs `sed -i` with `script` on the file. */
function editor(script: string): string {
  const file = path.join(tempDir('hestai-editor-'), 'edit.sh');
  fs.writeFileSync(file, `#!/bin/sh\nsed -i -e '${script}' "$1"\n`, { mode: 0o755 });
  return file;
}

const trailersOf = (repo: AnchoredRepo, rev = 'HEAD') =>
  repo.git(['log', '-1', '--format=%(trailers:key=HestAI-Session,valueonly)', rev]).stdout.trim();

describe('everyday git in an anchored session passes CI', () => {
  it('git revert --no-edit: the revert carries the session trailers and passes verify in a fresh clone', () => {
    const { repo, token } = started();
    repo.commitHooked('docs: a note', { 'docs/note.md': 'n\n' });
    const revert = repo.git(['revert', '--no-edit', 'HEAD'], { allowFail: true });
    expect(revert.status, revert.stderr).toBe(0);
    expect(trailersOf(repo)).toBe(token);
    const report = passesCi(repo);
    expect(verdictOf(report, 'Revert "docs: a note"', 'anchor')?.status).toBe('pass');
  });

  it('git revert --edit: the message written in the editor keeps the trailers and passes verify', () => {
    const { repo, token } = started();
    repo.commitHooked('docs: a note', { 'docs/note.md': 'n\n' });
    const revert = repo.git(['revert', '--edit', 'HEAD'], {
      allowFail: true,
      env: { GIT_EDITOR: editor('1s/.*/Revert "docs: a note": it was wrong/') },
    });
    expect(revert.status, revert.stderr).toBe(0);
    expect(trailersOf(repo)).toBe(token);
    const report = passesCi(repo);
    expect(verdictOf(report, 'Revert "docs: a note": it was wrong', 'anchor')?.status).toBe('pass');
  });

  it('git cherry-pick of a commit from another branch passes verify on the branch it lands on', () => {
    const { repo, token } = started();
    repo.git(['checkout', '-q', '-b', 'side', 'main']);
    repo.write('docs/side.md', 'side\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'docs: a side note']);
    repo.git(['checkout', '-q', 'feat/x']);
    const pick = repo.git(['cherry-pick', 'side'], { allowFail: true });
    expect(pick.status, pick.stderr).toBe(0);
    expect(trailersOf(repo)).toBe(token);
    const report = passesCi(repo);
    expect(verdictOf(report, 'docs: a side note', 'anchor')?.status).toBe('pass');
  });

  it('git commit --amend (with and without a new message) passes verify', () => {
    const { repo, token } = started();
    repo.commitHooked('docs: a note', { 'docs/note.md': 'n\n' });
    repo.write('docs/note.md', 'n2\n');
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-q', '--amend', '--no-edit'], { allowFail: true }).status).toBe(0);
    expect(repo.git(['commit', '-q', '--amend', '-m', 'docs: a better note'], { allowFail: true }).status).toBe(0);
    expect(trailersOf(repo)).toBe(token);
    passesCi(repo);
  });

  it('git rebase onto a main that moved passes verify after the (force) push of the rebased branch', () => {
    const { repo } = started();
    repo.git(['push', '-q', 'origin', 'feat/x']);
    repo.git(['checkout', '-q', 'main']);
    repo.write('docs/main.md', 'main\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'docs: main moves']);
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', 'feat/x']);
    const rebase = repo.git(['rebase', 'main'], { allowFail: true });
    expect(rebase.status, rebase.stderr).toBe(0);
    passesCi(repo, 'feat/x', true);
  });

  it('git rebase -i with reword, squash and fixup passes verify', () => {
    const { repo, token } = started();
    repo.commitHooked('docs: one', { 'docs/one.md': '1\n' });
    repo.commitHooked('docs: two', { 'docs/two.md': '2\n' });
    repo.commitHooked('docs: three', { 'docs/three.md': '3\n' });
    repo.commitHooked('docs: four', { 'docs/four.md': '4\n' });
    // pick one, reword two, squash three into it, fixup four.
    const sequence = editor('2s/^pick/reword/;3s/^pick/squash/;4s/^pick/fixup/');
    // The editor rewords "docs: two" and, for the squash, keeps the first header of the combined message.
    const messages = editor('s/^docs: two$/docs: two, reworded/');
    const rebase = repo.git(['rebase', '-i', 'HEAD~4'], {
      allowFail: true,
      env: { GIT_SEQUENCE_EDITOR: sequence, GIT_EDITOR: messages },
    });
    expect(rebase.status, rebase.stderr).toBe(0);
    expect(repo.git(['log', '--format=%s', '-2']).stdout.trim().split('\n')).toEqual([
      'docs: two, reworded',
      'docs: one',
    ]);
    expect(trailersOf(repo)).toBe(token);
    passesCi(repo);
  });
});

describe('hestai init installs the prepare-commit-msg hook for each hook manager', () => {
  /** A `docs` commit and its revert in the anchored session: the revert's trailers name the session. */
  function revertCarriesTrailers(repo: AnchoredRepo, env: NodeJS.ProcessEnv = {}) {
    const token = repo.anchor();
    const made = repo.commitHooked('docs: a note', { 'docs/note.md': 'n\n' }, env);
    expect(made.status, made.stderr).toBe(0);
    const revert = repo.git(['revert', '--no-edit', 'HEAD'], { allowFail: true, env });
    expect(revert.status, revert.stderr).toBe(0);
    expect(trailersOf(repo)).toBe(token);
  }

  it('plain hooks: the hook is installed, and doctor names it when it is missing', () => {
    const repo = anchoredRepo();
    expect(fs.readFileSync(path.join(repo.dir, '.git/hooks/prepare-commit-msg'), 'utf8')).toContain(
      '# hestai prepare-commit-msg (added by hestai init; keep this comment)',
    );
    fs.rmSync(path.join(repo.dir, '.git/hooks/prepare-commit-msg'));
    const doctor = repo.hestai(['doctor']);
    expect(`${doctor.stdout}${doctor.stderr}`).toMatch(/prepare-commit-msg not installed for hestai[\s\S]*hestai init/);
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    revertCarriesTrailers(repo);
  });

  it('husky: a line in .husky/prepare-commit-msg, run through the runner', () => {
    const repo = anchoredRepo();
    const init = repo.hestai(['init', '--husky']);
    expect(init.status, init.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.husky/prepare-commit-msg'), 'utf8')).toContain(
      'hooks/prepare-commit-msg',
    );
    repo.git(['add', '.husky']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: husky']);
    revertCarriesTrailers(repo);
  });

  it.skipIf(LEFTHOOK === null)("lefthook: prepare-commit-msg in lefthook.yml with git's two arguments", () => {
    const repo = anchoredRepo();
    const PATH = [path.dirname(LEFTHOOK!), ...(process.env['PATH'] ?? '').split(':')].join(':');
    const env = { ...repo.env, PATH };
    repo.write('lefthook.yml', 'pre-commit:\n  commands:\n    lint:\n      run: echo lint ran\n');
    for (const hook of ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'pre-push'])
      fs.rmSync(path.join(repo.dir, '.git/hooks', hook), { force: true });
    const install = spawnSync('lefthook', ['install'], { cwd: repo.dir, env, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    const init = repo.hestai(['init'], { env });
    expect(init.status, init.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8')).toMatch(
      /prepare-commit-msg:[\s\S]*hooks\/prepare-commit-msg \{1\} \{2\}/,
    );
    expect(spawnSync('lefthook', ['install'], { cwd: repo.dir, env }).status).toBe(0);
    repo.git(['add', 'lefthook.yml']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: lefthook']);
    revertCarriesTrailers(repo, env);
  });
});
