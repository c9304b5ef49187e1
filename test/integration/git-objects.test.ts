import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { history, historyArgs } from '../../src/git/history.js';
import { chainLogBytes, chainSince } from '../../src/git/objects.js';
import { restoreEnvAfterEach, useRepo } from '../helpers/process-env.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// Issue 15 (Speed): the few commits made since a cached `git log` answer are read from loose objects
// instead of starting git. The reader must give exactly git's answer (same bytes, same LogCommit[]) for
// every commit it answers, and no answer at all (null: the caller asks git) for anything it cannot
// answer exactly. Every repository here is real and every expectation is git's own output.

restoreEnvAfterEach();

const objectsOf = (repo: TempRepo) => path.join(repo.dir, '.git', 'objects');
const rev = (repo: TempRepo, name: string) => repo.git(['rev-parse', name]).stdout.trim();

/** How this git prints a zero offset in `%aI` (`+00:00` up to 2.44, `Z` since). */
function utcSuffix(): string {
  const probe = makeRepo({ initialCommit: false });
  probe.git(['commit', '--allow-empty', '-q', '-m', 'probe'], { env: { GIT_AUTHOR_DATE: '1700000000 +0000' } });
  return probe.git(['log', '-1', '--format=%aI']).stdout.trim().endsWith('Z') ? 'Z' : '+00:00';
}

/** git's raw stdout for `history()`'s log of `head ^tip` with `nonce` (byte for byte). */
function gitLogBytes(repo: TempRepo, head: string, tip: string, nonce: string, topo = false): Buffer {
  const r = spawnSync('git', historyArgs({ revisions: [head, `^${tip}`], topoOrder: topo }, nonce), {
    cwd: repo.dir,
    env: { ...repo.env, LC_ALL: 'C' },
  });
  expect(r.status, String(r.stderr)).toBe(0);
  return r.stdout;
}

/** Commits with a message file (any bytes) and an optional environment (dates, zones). */
function commitBytes(repo: TempRepo, message: Buffer, env: NodeJS.ProcessEnv = {}): string {
  const file = path.join(repo.home, 'MSG');
  fs.writeFileSync(file, message);
  repo.git(['add', '-A']);
  repo.git(['commit', '--no-verify', '--allow-empty', '-q', '--cleanup=verbatim', '-F', file], { env });
  return rev(repo, 'HEAD');
}

function expectSameAsGit(repo: TempRepo, head: string, tip: string, utc: string): void {
  const nonce = `n${Math.random().toString(36).slice(2, 10)}`;
  const mine = chainLogBytes(objectsOf(repo), head, tip, { max: 32, stop: new Set(), utc }, nonce);
  expect(mine).not.toBeNull();
  const theirs = gitLogBytes(repo, head, tip, nonce);
  expect(mine!.bytes.toString('latin1')).toBe(theirs.toString('latin1'));
  const fromGit = history(repo.dir, { revisions: [head, `^${tip}`] });
  const fromGitTopo = history(repo.dir, { revisions: [head, `^${tip}`], topoOrder: true });
  expect('commits' in fromGit).toBe(true);
  const commits = chainSince(objectsOf(repo), head, tip, { max: 32, stop: new Set(), utc });
  expect(commits).toEqual((fromGit as { commits: unknown }).commits);
  expect(commits).toEqual((fromGitTopo as { commits: unknown }).commits);
}

describe('the loose object reader gives git log answers byte for byte', () => {
  it('a linear chain: nested additions, modifications, deletions, modes, symlinks, odd names and messages', () => {
    const repo = makeRepo();
    useRepo(repo);
    const utc = utcSuffix();
    const tip = repo.commit('chore: tree', {
      'a.txt': 'a\n',
      'a/x.ts': 'x\n',
      'a-b/y.ts': 'y\n',
      a0: 'z\n',
      'src/deep/er/one.ts': '1\n',
      'src/deep/two.ts': '2\n',
      'src/keep.ts': 'k\n',
      'doomed/inner/file.txt': 'd\n',
      'doomed/other.txt': 'o\n',
      'run.sh': 'echo\n',
      'link-me': 'target\n',
    });
    // Additions only, in new nested directories and next to existing ones (tree order: "a.txt" < "a/" < "a0").
    repo.write('a/new/deeper/n.ts', 'n\n');
    repo.write('a.b', 'ab\n');
    repo.write('src/deep/er/zz.ts', 'zz\n');
    repo.write('name with spaces ü.txt', 'u\n');
    repo.write('tab\there.txt', 't\n');
    repo.write('new\nline.txt', 'nl\n');
    commitBytes(repo, Buffer.from('feat(a): additions\n\nwith a body\n\nTrailer: yes\n'));
    // Modifications only, one nested, and a mode change (executable bit: M).
    repo.write('src/deep/er/one.ts', '1!\n');
    repo.write('a/x.ts', 'x!\n');
    fs.chmodSync(path.join(repo.dir, 'run.sh'), 0o755);
    commitBytes(repo, Buffer.from('fix: modifications\n\n\n\n'), {
      GIT_AUTHOR_DATE: '1700000000 +0530',
      GIT_COMMITTER_DATE: '1700000100 -0700',
    });
    // Deletions only: a whole nested directory and a file, with modifications.
    fs.rmSync(path.join(repo.dir, 'doomed'), { recursive: true });
    fs.rmSync(path.join(repo.dir, 'a0'));
    repo.write('src/keep.ts', 'k2\n');
    commitBytes(repo, Buffer.from('refactor: deletions\r\nCRLF body\r\n'));
    // A type change (regular file -> symlink) and a mode change back.
    fs.rmSync(path.join(repo.dir, 'link-me'));
    fs.symlinkSync('a.txt', path.join(repo.dir, 'link-me'));
    fs.chmodSync(path.join(repo.dir, 'run.sh'), 0o644);
    commitBytes(repo, Buffer.from('chore: type change'));
    // Non-UTF-8 bytes, separator characters and a subject only, no trailing newline.
    commitBytes(
      repo,
      Buffer.concat([
        Buffer.from('docs: odd \xff\xfe bytes '),
        Buffer.from([0xc3, 0x28, 0x1e, 0x1f]),
        Buffer.from(' end'),
      ]),
    );
    // An empty commit and one dated far away with a negative zone.
    commitBytes(repo, Buffer.from('chore: empty\n'), {
      GIT_AUTHOR_DATE: '@4102444800 -1200',
      GIT_COMMITTER_DATE: '@86400 +1400',
    });
    const head = rev(repo, 'HEAD');
    expectSameAsGit(repo, head, tip, utc);
    const git = history(repo.dir, { revisions: [head, `^${tip}`] });
    const statuses = 'commits' in git ? git.commits.flatMap((c) => (c.changes ?? []).map((x) => x.status)) : [];
    expect(new Set(statuses)).toEqual(new Set(['A', 'M', 'D', 'T']));
    // Every shorter chain too.
    const shas = repo
      .git(['rev-list', `${tip}..${head}`])
      .stdout.trim()
      .split('\n');
    for (const sha of shas) expectSameAsGit(repo, head, sha, utc);
    expect(chainSince(objectsOf(repo), head, head, { max: 32, stop: new Set(), utc })).toEqual([]);
  });

  it('a zero offset needs to know how this git prints it', () => {
    const repo = makeRepo();
    useRepo(repo);
    const tip = rev(repo, 'HEAD');
    const head = commitBytes(repo, Buffer.from('chore: utc\n'), {
      GIT_AUTHOR_DATE: '1700000000 +0000',
      GIT_COMMITTER_DATE: '1700000000 -0000',
    });
    expect(chainSince(objectsOf(repo), head, tip, { max: 32, stop: new Set(), utc: null })).toBeNull();
    expectSameAsGit(repo, head, tip, utcSuffix());
  });

  it('a signed-looking commit (gpgsig header) is read like git reads it', () => {
    const repo = makeRepo();
    useRepo(repo);
    const tip = rev(repo, 'HEAD');
    repo.write('f.txt', 'f\n');
    repo.git(['add', '-A']);
    const tree = repo.git(['write-tree']).stdout.trim();
    const body =
      `tree ${tree}\nparent ${tip}\nauthor A <a@x> 1700000000 +0100\ncommitter C <c@x> 1700000001 +0200\n` +
      'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEz\n -----END PGP SIGNATURE-----\n\nfeat: signed\n\nbody\n';
    const head = repo.git(['hash-object', '-t', 'commit', '-w', '--stdin'], { input: body }).stdout.trim();
    expectSameAsGit(repo, head, tip, '+00:00');
  });
});

describe('anything it cannot answer exactly is left to git (null)', () => {
  const opts = { max: 32, stop: new Set<string>(), utc: utcSuffix() };

  it('a commit that adds and deletes (git -M pairs them as a rename)', () => {
    const repo = makeRepo();
    useRepo(repo);
    const tip = repo.commit('chore: one', { 'src/old-name.ts': 'same content\n' });
    repo.git(['mv', 'src/old-name.ts', 'src/new-name.ts']);
    const head = repo.commit('refactor: rename');
    const git = history(repo.dir, { revisions: [head, `^${tip}`] });
    expect('commits' in git && git.commits[0]!.changes?.[0]?.status).toBe('R');
    expect(chainSince(objectsOf(repo), head, tip, opts)).toBeNull();
    // An unrelated add + delete too: git decides whether they pair.
    const head2 = repo.commit('chore: swap', { 'x.txt': 'x\n' });
    fs.rmSync(path.join(repo.dir, 'README.md'));
    const head3 = repo.commit('chore: swap 2', { 'y.txt': 'y\n' });
    expect(chainSince(objectsOf(repo), head3, head2, opts)).toBeNull();
  });

  it('a merge commit on the chain', () => {
    const repo = makeRepo();
    useRepo(repo);
    const tip = rev(repo, 'HEAD');
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('feat: side', { 'side.txt': 's\n' });
    repo.git(['checkout', '-q', 'main']);
    repo.commit('feat: main', { 'main.txt': 'm\n' });
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
    const head = rev(repo, 'HEAD');
    expect(chainSince(objectsOf(repo), head, tip, opts)).toBeNull();
  });

  it('packed objects (after git gc), and a chain that never reaches the tip within max', () => {
    const repo = makeRepo();
    useRepo(repo);
    const tip = rev(repo, 'HEAD');
    const one = repo.commit('feat: one', { 'one.txt': '1\n' });
    const two = repo.commit('feat: two', { 'two.txt': '2\n' });
    expect(chainSince(objectsOf(repo), two, tip, opts)).not.toBeNull();
    expect(chainSince(objectsOf(repo), two, tip, { ...opts, max: 1 })).toBeNull();
    expect(chainSince(objectsOf(repo), two, tip, { ...opts, stop: new Set([one]) })).toBeNull();
    expect(chainSince(objectsOf(repo), two, 'f'.repeat(40), opts)).toBeNull();
    repo.git(['gc', '-q']);
    expect(fs.existsSync(path.join(objectsOf(repo), two.slice(0, 2), two.slice(2)))).toBe(false);
    expect(chainSince(objectsOf(repo), two, tip, opts)).toBeNull();
    // New loose commits on a packed parent: the parent's tree is packed too, still git.
    const three = repo.commit('feat: three', { 'three.txt': '3\n' });
    expect(chainSince(objectsOf(repo), three, two, opts)).toBeNull();
    // Once the parent is loose itself, the chain on top of it is answered.
    const four = repo.commit('feat: four', { 'four.txt': '4\n' });
    expectSameAsGit(repo, four, three, utcSuffix());
  });

  it('an encoding header (git re-encodes the message) and a submodule entry (gitlink)', () => {
    const repo = makeRepo();
    useRepo(repo);
    const tip = rev(repo, 'HEAD');
    // Without an encoding header the same bytes are read as git reads them (invalid UTF-8 and all).
    const latin1 = commitBytes(repo, Buffer.from([0x66, 0x65, 0x61, 0x74, 0x3a, 0x20, 0xe9, 0x0a]));
    expectSameAsGit(repo, latin1, tip, utcSuffix());
    const file = path.join(repo.home, 'MSG');
    fs.writeFileSync(file, Buffer.from([0x66, 0x65, 0x61, 0x74, 0x3a, 0x20, 0xe9, 0x0a]));
    repo.git(['-c', 'i18n.commitEncoding=ISO-8859-1', 'commit', '--allow-empty', '-q', '-F', file]);
    const encoded = rev(repo, 'HEAD');
    expect(repo.git(['cat-file', 'commit', encoded]).stdout).toMatch(/^encoding ISO-8859-1$/m);
    expect(chainSince(objectsOf(repo), encoded, latin1, opts)).toBeNull();
    repo.git(['update-index', '--add', '--cacheinfo', `160000,${tip},vendor/sub`]);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: submodule']);
    const sub = rev(repo, 'HEAD');
    expect(chainSince(objectsOf(repo), sub, encoded, opts)).toBeNull();
  });
});

describe('an object file that is not a plain file', () => {
  it('a FIFO in place of a loose object is no answer, and never hangs the reader', () => {
    const repo = makeRepo();
    useRepo(repo);
    const tip = rev(repo, 'HEAD');
    const head = repo.commit('feat: one', { 'one.txt': '1\n' });
    const file = path.join(objectsOf(repo), head.slice(0, 2), head.slice(2));
    fs.rmSync(file, { force: true });
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    expect(chainSince(objectsOf(repo), head, tip, { max: 32, stop: new Set(), utc: utcSuffix() })).toBeNull();
  });
});
