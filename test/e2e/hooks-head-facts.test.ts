import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// Issue 27 (git answers git questions): the commit-msg hook's facts about HEAD (which branch is checked out)
// and about a merge in progress (MERGE_HEAD) are what git itself says, in every layout git supports: a
// symlinked HEAD (core.preferSymlinkRefs), a linked worktree (MERGE_HEAD is per worktree), a git dir
// apart from its work tree (core.worktree, GIT_DIR), an octopus merge, `git merge --squash`, packed refs,
// and a reftable repository where git has it (2.45+). Real `git commit`s through the installed hooks; each
// case also asks git for the fact it turns on, so the test shows the layout is the one named.

function setup(repo: TempRepo = makeRepo()) {
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  // The anchor check is not what is under test: only the commit-msg hook's reading of the repository.
  fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'anchor:\n  required: false\n');
  repo.commit('chore: adopt hestai');
  return repo;
}

/** A real `git commit -m` through the installed hooks, in `cwd` (default: the repository); undone when blocked. */
function commit(
  repo: TempRepo,
  message: string,
  files: Record<string, string>,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; args?: string[] } = {},
) {
  const cwd = options.cwd ?? repo.dir;
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    fs.writeFileSync(path.join(cwd, file), content);
  }
  repo.git(['add', '-A'], { cwd, env: options.env ?? {} });
  const result = repo.git([...(options.args ?? []), 'commit', '-q', '-m', message], {
    cwd,
    allowFail: true,
    env: options.env ?? {},
  });
  // A blocked commit leaves nothing behind for the next one.
  if (result.status !== 0) {
    repo.git(['reset', '-q', '--hard'], { cwd, env: options.env ?? {} });
    repo.git(['clean', '-fdq'], { cwd, env: options.env ?? {} });
  }
  return result;
}

const gitSays = (repo: TempRepo, args: string[], cwd = repo.dir, env: NodeJS.ProcessEnv = {}) =>
  repo.git(args, { cwd, env }).stdout.trim();

/** Starts a merge of `branches` without committing it (MERGE_HEAD written), in `cwd`. */
function startMerge(repo: TempRepo, branches: string[], cwd = repo.dir) {
  repo.git(['merge', '-q', '--no-ff', '--no-commit', ...branches], { cwd });
}

/** A branch off main with one commit, for merges. */
function sideBranch(repo: TempRepo, name: string) {
  repo.git(['branch', name, 'main']);
  const wt = path.join(path.dirname(repo.dir), `side-${name.replace(/\W/g, '-')}`);
  repo.git(['worktree', 'add', '-q', wt, name]);
  fs.writeFileSync(path.join(wt, `${name.replace(/\W/g, '-')}.md`), `${name}\n`);
  repo.git(['add', '-A'], { cwd: wt });
  repo.git(['commit', '-q', '--no-verify', '-m', `docs: ${name}`], { cwd: wt });
  repo.git(['worktree', 'remove', '--force', wt]);
}

describe('the commit-msg hook reads HEAD as git does', () => {
  it('on the default branch through a symlinked HEAD (core.preferSymlinkRefs), judges the default branch', () => {
    const repo = setup();
    repo.git(['-c', 'core.preferSymlinkRefs=true', 'symbolic-ref', 'HEAD', 'refs/heads/main']);
    expect(fs.lstatSync(path.join(repo.dir, '.git', 'HEAD')).isSymbolicLink()).toBe(true);
    expect(gitSays(repo, ['rev-parse', '--symbolic-full-name', 'HEAD'])).toBe('refs/heads/main');
    const t = commit(repo, 'test(a): covers a', { 'test/a.test.ts': 't\n' });
    expect(t.status, t.stderr).toBe(0);
    // git says HEAD is main: the history since tdd.since holds the test, so the feat is paired.
    const f = commit(repo, 'feat(a): a', { 'src/a.ts': 'a\n' });
    expect(f.status, f.stderr).toBe(0);
    // ...and an unpaired one is still blocked.
    const g = commit(repo, 'feat(a): b', { 'src/b.ts': 'b\n' });
    expect(g.status).toBe(1);
    expect(g.stderr).toContain('test-first');
  });

  it('on a branch through a symlinked HEAD, judges that branch since the default one', () => {
    const repo = setup();
    repo.commit('test(a): on main', { 'test/main.test.ts': 't\n' });
    repo.git(['-c', 'core.preferSymlinkRefs=true', 'checkout', '-q', '-b', 'feat/x']);
    expect(gitSays(repo, ['rev-parse', '--symbolic-full-name', 'HEAD'])).toBe('refs/heads/feat/x');
    const f = commit(repo, 'feat(a): a', { 'src/a.ts': 'a\n' });
    expect(f.status).toBe(1); // main's test is not this branch's
    expect(commit(repo, 'test(a): covers a', { 'test/a.test.ts': 't\n' }).status).toBe(0);
    expect(commit(repo, 'feat(a): a', { 'src/a.ts': 'a\n' }).status).toBe(0);
  });

  it('on the default branch after git gc packed its ref (and left a symlinked HEAD dangling)', () => {
    const repo = setup();
    repo.git(['-c', 'core.preferSymlinkRefs=true', 'symbolic-ref', 'HEAD', 'refs/heads/main']);
    expect(commit(repo, 'test(a): covers a', { 'test/a.test.ts': 't\n' }).status).toBe(0);
    repo.git(['gc', '-q']);
    expect(fs.existsSync(path.join(repo.dir, '.git', 'refs', 'heads', 'main'))).toBe(false);
    expect(gitSays(repo, ['rev-parse', '--symbolic-full-name', 'HEAD'])).toBe('refs/heads/main');
    const f = commit(repo, 'feat(a): a', { 'src/a.ts': 'a\n' });
    expect(f.status, f.stderr).toBe(0);
  });

  it('with the git dir apart from the work tree (core.worktree; GIT_DIR relative to a subdirectory)', () => {
    const repo = setup();
    repo.commit('test(a): covers a', { 'test/a.test.ts': 't\n' });
    // Move the git dir aside: git finds it through GIT_DIR and the work tree through core.worktree.
    const gitDir = path.join(path.dirname(repo.dir), 'meta.git');
    fs.renameSync(path.join(repo.dir, '.git'), gitDir);
    repo.git(['--git-dir', gitDir, 'config', 'core.worktree', repo.dir], { cwd: path.dirname(repo.dir) });
    fs.mkdirSync(path.join(repo.dir, 'sub'), { recursive: true });
    const env = { GIT_DIR: path.relative(path.join(repo.dir, 'sub'), gitDir) };
    const cwd = path.join(repo.dir, 'sub');
    expect(gitSays(repo, ['rev-parse', '--symbolic-full-name', 'HEAD'], cwd, env)).toBe('refs/heads/main');
    expect(commit(repo, 'feat(a): a', { 'x.ts': 'a\n' }, { cwd, env }).status).toBe(0);
    const blocked = commit(repo, 'feat(a): b', { 'y.ts': 'b\n' }, { cwd, env });
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('test-first');
  });

  it.runIf(gitAtLeast(2, 45))('in a reftable repository (git 2.45+), judges the default branch', () => {
    const repo = makeRepo({ initialCommit: false });
    fs.rmSync(path.join(repo.dir, '.git'), { recursive: true, force: true });
    repo.git(['init', '-q', '-b', 'main', '--ref-format=reftable']);
    repo.commit('chore: initial commit', { 'README.md': '# temp\n' });
    setup(repo);
    expect(gitSays(repo, ['rev-parse', '--show-ref-format'])).toBe('reftable');
    expect(commit(repo, 'test(a): covers a', { 'test/a.test.ts': 't\n' }).status).toBe(0);
    const f = commit(repo, 'feat(a): a', { 'src/a.ts': 'a\n' });
    expect(f.status, f.stderr).toBe(0);
  });
});

describe('the commit-msg hook sees the merge in progress that git sees (MERGE_HEAD, per worktree)', () => {
  it('a merge in the main worktree is not one in a linked worktree, and the linked one has its own', () => {
    const repo = setup();
    sideBranch(repo, 'side');
    sideBranch(repo, 'other');
    const linked = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked', linked]);
    startMerge(repo, ['side']);
    expect(fs.existsSync(gitSays(repo, ['rev-parse', '--path-format=absolute', '--git-path', 'MERGE_HEAD']))).toBe(
      true,
    );
    const linkedMergeHead = gitSays(repo, ['rev-parse', '--path-format=absolute', '--git-path', 'MERGE_HEAD'], linked);
    expect(fs.existsSync(linkedMergeHead)).toBe(false);
    // No merge in the linked worktree: this feat is an ordinary commit without a test.
    const plain = commit(repo, 'feat(a): not a merge', { 'src/a.ts': 'a\n' }, { cwd: linked });
    expect(plain.status).toBe(1);
    expect(plain.stderr).toContain('test-first');
    // The linked worktree's own merge (its MERGE_HEAD under .git/worktrees/linked) is one: merges are not judged.
    startMerge(repo, ['other'], linked);
    expect(fs.existsSync(linkedMergeHead)).toBe(true);
    const merged = commit(repo, 'feat(a): merge other', {}, { cwd: linked });
    expect(merged.status, merged.stderr).toBe(0);
    expect(gitSays(repo, ['rev-list', '--parents', '-n', '1', 'HEAD'], linked).split(' ')).toHaveLength(3);
    // The main worktree's merge is a merge too.
    const main = commit(repo, 'feat(a): merge side', {});
    expect(main.status, main.stderr).toBe(0);
  });

  it('an octopus merge is a merge; git merge --squash (SQUASH_MSG, no MERGE_HEAD) is an ordinary commit', () => {
    const repo = setup();
    sideBranch(repo, 'one');
    sideBranch(repo, 'two');
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    startMerge(repo, ['one', 'two']);
    const mergeHead = gitSays(repo, ['rev-parse', '--path-format=absolute', '--git-path', 'MERGE_HEAD']);
    const heads = fs.readFileSync(mergeHead, 'utf8').trim();
    expect(heads.split('\n')).toHaveLength(2);
    const octopus = commit(repo, 'feat(a): octopus', {});
    expect(octopus.status, octopus.stderr).toBe(0);
    expect(gitSays(repo, ['rev-list', '--parents', '-n', '1', 'HEAD']).split(' ')).toHaveLength(4);

    repo.git(['checkout', '-q', '-b', 'feat/y', 'main']);
    sideBranch(repo, 'three');
    repo.git(['merge', '-q', '--squash', 'three']);
    expect(fs.existsSync(path.join(repo.dir, '.git', 'SQUASH_MSG'))).toBe(true);
    expect(fs.existsSync(path.join(repo.dir, '.git', 'MERGE_HEAD'))).toBe(false);
    const squash = commit(repo, 'feat(a): squashed', {});
    expect(squash.status).toBe(1);
    expect(squash.stderr).toContain('test-first');
  });

  it('with the git dir apart from the work tree (GIT_DIR, core.worktree), a merge there is seen', () => {
    const repo = setup();
    sideBranch(repo, 'side');
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const gitDir = path.join(path.dirname(repo.dir), 'meta.git');
    fs.renameSync(path.join(repo.dir, '.git'), gitDir);
    repo.git(['--git-dir', gitDir, 'config', 'core.worktree', repo.dir], { cwd: path.dirname(repo.dir) });
    const env = { GIT_DIR: gitDir };
    repo.git(['merge', '-q', '--no-ff', '--no-commit', 'side'], { env });
    expect(fs.existsSync(path.join(gitDir, 'MERGE_HEAD'))).toBe(true);
    const merged = commit(repo, 'feat(a): merge side', {}, { env });
    expect(merged.status, merged.stderr).toBe(0);
    const plain = commit(repo, 'feat(a): plain', { 'src/p.ts': 'p\n' }, { env });
    expect(plain.status).toBe(1);
  });
});

/** Whether the git on PATH is at least `major.minor`. */
function gitAtLeast(major: number, minor: number): boolean {
  const out = process.getBuiltinModule('node:child_process').spawnSync('git', ['version'], { encoding: 'utf8' });
  const m = /(\d+)\.(\d+)/.exec(out.stdout ?? '');
  return m !== null && (Number(m[1]) > major || (Number(m[1]) === major && Number(m[2]) >= minor));
}
