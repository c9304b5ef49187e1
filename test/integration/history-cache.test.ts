import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { history } from '../../src/git/history.js';
import { rangeFacts, rangeFactsAsync } from '../../src/git/snapshot.js';
import { branchHistory } from '../../src/hooks/branch-history.js';
import { restoreEnvAfterEach, useRepo, withGitCalls, withGitCallsAsync, withoutGit } from '../helpers/process-env.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// Issue 15 (Speed), issue 27: the hooks' two `git log`s (pre-commit's commits since the session start,
// commit-msg's branch history) are answered from the history cache: the same HEAD with no git process (proven
// by running with no git on PATH), a HEAD a few commits on with ONE `git log HEAD ^<cached tip>` (proven by
// recording git's calls). The answer must always be git's own: each case below compares with `history()`
// asked of git afterwards.

restoreEnvAfterEach();

const rev = (repo: TempRepo, name: string) => repo.git(['rev-parse', name]).stdout.trim();

/** `fn` started exactly one git process: the log of the commits since the cached tip. */
function oneLog<T>(fn: () => T): T {
  const { result, calls } = withGitCalls(fn);
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatch(/^log .* \^[0-9a-f]{40} --max-count=33 --$/);
  return result;
}

/** `fn` asked git for the whole log (the cache could not answer). */
function fullLog<T>(fn: () => T): T {
  const { result, calls } = withGitCalls(fn);
  expect(calls.some((c) => c.startsWith('log ') && !c.includes('--max-count'))).toBe(true);
  return result;
}

/** git's own answer for branchHistory's first attempt. */
function gitBranchLog(repo: TempRepo, excludes: string[]) {
  const r = history(repo.dir, { revisions: ['HEAD', ...excludes.map((e) => `^${e}`)], topoOrder: true });
  if (!('commits' in r)) throw new Error(r.error);
  return r.commits;
}

function gitRangeLog(repo: TempRepo, base: string | null) {
  const r = history(repo.dir, { revisions: ['HEAD', ...(base ? [`^${base}`] : [])] });
  if (!('commits' in r)) throw new Error(r.error);
  return r.commits;
}

function fixture() {
  const repo = makeRepo();
  useRepo(repo);
  const cacheDir = path.join(repo.home, '.cache', 'hestai');
  const main = rev(repo, 'HEAD');
  repo.git(['switch', '-q', '-c', 'feat/x']);
  repo.commit('chore: start', { 'src/a.ts': 'a\n' });
  return { repo, cacheDir, main };
}

const cacheFiles = (cacheDir: string) =>
  fs.existsSync(path.join(cacheDir, 'git'))
    ? fs
        .readdirSync(path.join(cacheDir, 'git'))
        .filter((f) => f.startsWith('log-') && f.endsWith('.json'))
        .map((f) => path.join(cacheDir, 'git', f))
    : [];

describe('branch history through the history cache', () => {
  it('answers the commits made since the cached answer with one git log of them, as git does', () => {
    const { repo, cacheDir, main } = fixture();
    const scope = { defaultBranch: 'main', since: null };
    expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual(gitBranchLog(repo, [main]));
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    repo.commit('test(a): covers a', { 'test/a.test.ts': 't\n', 'test/deep/b.test.ts': 'b\n' });
    repo.commit('feat(a): a', { 'src/a.ts': 'a2\n' });
    const derived = oneLog(() => branchHistory(repo.dir, scope, process.env, cacheDir));
    expect(derived).toEqual(gitBranchLog(repo, [main]));
    expect(derived).toHaveLength(3);
    // The extended answer was written back: the next commit extends it in turn.
    repo.commit('chore: more', { 'docs/x.md': 'x\n' });
    expect(oneLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(gitBranchLog(repo, [main]));
    // Same HEAD again: the entry itself.
    expect(withoutGit(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toHaveLength(4);
  });

  it('with tdd.since and on the default branch too', () => {
    const { repo, cacheDir } = fixture();
    branchHistory(repo.dir, { defaultBranch: 'main', since: null }, process.env, cacheDir);
    repo.git(['switch', '-q', 'main']);
    const since = rev(repo, 'HEAD');
    const scope = { defaultBranch: 'main', since };
    expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual([]);
    // T is the only exclude tip and its answer is empty: the commits on top are exactly the new ones.
    repo.commit('feat: on main', { 'm.txt': 'm\n' });
    expect(oneLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(gitBranchLog(repo, [since]));
    repo.git(['switch', '-q', 'feat/x']);
    expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual(gitBranchLog(repo, ['main', since]));
    repo.commit('fix: x', { 'src/a.ts': 'fixed\n' });
    expect(oneLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(
      gitBranchLog(repo, ['main', since]),
    );
  });

  it('an empty answer at an exclude tip is not extended when another exclude could reach the new commits', () => {
    // HEAD at main's tip M (empty answer cached), tdd.since X is a commit built on C (a child of M); HEAD then
    // moves to C: C is reachable from X, so git's answer is still empty, although C is a new commit on M.
    const repo = makeRepo();
    useRepo(repo);
    const cacheDir = path.join(repo.home, '.cache', 'hestai');
    repo.git(['switch', '-q', '-c', 'feat/x']);
    const c = repo.commit('feat: c', { 'c.txt': 'c\n' });
    const x = repo.commit('test: x', { 'x.test.ts': 'x\n' });
    repo.git(['reset', '-q', '--hard', 'main']);
    const scope = { defaultBranch: 'main', since: x };
    expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual([]);
    repo.git(['merge', '-q', '--ff-only', c]);
    fullLog(() => branchHistory(repo.dir, scope, process.env, cacheDir));
    expect(gitBranchLog(repo, ['main', x])).toEqual([]);
    expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual([]);
  });

  it('extends across a rename and packed objects; leaves to git a merge and more than 32 new commits', () => {
    const { repo, cacheDir, main } = fixture();
    const scope = { defaultBranch: 'main', since: null };
    const check = (expectGit: boolean) => {
      const run = () => branchHistory(repo.dir, scope, process.env, cacheDir);
      expect(expectGit ? fullLog(run) : oneLog(run)).toEqual(gitBranchLog(repo, [main]));
    };
    expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual(gitBranchLog(repo, [main]));
    repo.git(['mv', 'src/a.ts', 'src/b.ts']);
    repo.commit('refactor: rename');
    check(false);
    repo.git(['switch', '-q', '-c', 'side']);
    repo.commit('feat: side', { 'side.txt': 's\n' });
    repo.git(['switch', '-q', 'feat/x']);
    repo.commit('feat: here', { 'here.txt': 'h\n' });
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
    check(true);
    repo.commit('chore: before gc', { 'g.txt': 'g\n' });
    repo.git(['gc', '-q']);
    repo.commit('chore: after gc', { 'g2.txt': 'g\n' });
    check(false);
    for (let i = 0; i < 33; i++) repo.commit(`chore: ${i}`, { [`n/${i}.txt`]: `${i}\n` });
    check(true);
    repo.commit('chore: one more', { 'last.txt': 'l\n' });
    // Back to the cache: extended by one git log, as git answers; the same HEAD again with no git process.
    check(false);
    expect(withoutGit(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(gitBranchLog(repo, [main]));
  });

  it('refuses the cache when something could change what git prints or where it reads', () => {
    const { repo, cacheDir, main } = fixture();
    const scope = { defaultBranch: 'main', since: null };
    branchHistory(repo.dir, scope, process.env, cacheDir);
    repo.commit('chore: one', { 'one.txt': '1\n' });
    const viaGit = () =>
      expect(fullLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(gitBranchLog(repo, [main]));
    repo.git(['config', 'log.showSignature', 'true']);
    viaGit();
    repo.git(['config', '--unset', 'log.showSignature']);
    fs.writeFileSync(path.join(repo.home, '.gitconfig'), '[i18n] logOutputEncoding = ISO-8859-1\n', { flag: 'a' });
    viaGit();
    fs.writeFileSync(path.join(repo.home, '.gitconfig'), '[include]\n\tpath = other\n', { flag: 'a' });
    viaGit();
    fs.writeFileSync(path.join(repo.home, '.gitconfig'), '[user]\n\tname = T\n\temail = t@x\n');
    expect(oneLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(gitBranchLog(repo, [main]));
    repo.commit('chore: two', { 'two.txt': '2\n' });
    process.env['GIT_OBJECT_DIRECTORY'] = path.join(repo.dir, '.git', 'objects');
    viaGit();
    delete process.env['GIT_OBJECT_DIRECTORY'];
    fs.writeFileSync(path.join(repo.dir, '.git', 'info', 'grafts'), '');
    viaGit();
    fs.rmSync(path.join(repo.dir, '.git', 'info', 'grafts'));
    expect(oneLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(gitBranchLog(repo, [main]));
  });

  it('i18n.commitEncoding (git re-encodes the log to it) sends the hooks to git, which answers', () => {
    const { repo, cacheDir, main } = fixture();
    const scope = { defaultBranch: 'main', since: null };
    branchHistory(repo.dir, scope, process.env, cacheDir);
    // A UTF-8 message without an encoding header (written before the setting), then the setting.
    repo.commit('chore: café naïve', { 'one.txt': '1\n' });
    fs.writeFileSync(path.join(repo.home, '.gitconfig'), '[i18n]\n\tcommitEncoding = ISO-8859-1\n', { flag: 'a' });
    expect(fullLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(gitBranchLog(repo, [main]));
  });

  it('a tampered or foreign cache file is a miss: git answers', () => {
    const { repo, cacheDir, main } = fixture();
    const scope = { defaultBranch: 'main', since: null };
    branchHistory(repo.dir, scope, process.env, cacheDir);
    const [file] = cacheFiles(cacheDir);
    const good = JSON.parse(fs.readFileSync(file!, 'utf8')) as Record<string, unknown> & {
      commits: Array<Record<string, unknown>>;
    };
    const tampered: unknown[] = [
      'not json',
      JSON.stringify({ ...good, format: 99 }),
      JSON.stringify({ ...good, key: 'f'.repeat(64) }),
      JSON.stringify({ ...good, extra: true }),
      JSON.stringify({ ...good, tip: 'HEAD' }),
      JSON.stringify({ ...good, excludes: [] }),
      JSON.stringify({ ...good, utc: '+01:00' }),
      JSON.stringify({ ...good, commits: [{ ...good.commits[0], sha: 'x' }] }),
      JSON.stringify({ ...good, commits: [{ ...good.commits[0], files: ['test/a.test.ts'] }] }),
      JSON.stringify({ ...good, commits: [{ ...good.commits[0], changes: [{ status: 'Q', path: 'src/a.ts' }] }] }),
      JSON.stringify({ ...good, commits: [{ ...good.commits[0], authorDate: 'yesterday' }] }),
      JSON.stringify({ ...good, commits: [{ ...good.commits[0], injected: 1 }] }),
      JSON.stringify({ ...good, commits: [...good.commits, ...good.commits] }),
      JSON.stringify([good]),
    ];
    for (const text of tampered) {
      fs.writeFileSync(file!, text as string);
      expect(() => withoutGit(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toThrow();
      expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual(gitBranchLog(repo, [main]));
    }
    // A directory or a symlink in its place: a miss too, and never followed for writing.
    fs.rmSync(file!);
    fs.mkdirSync(file!);
    expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual(gitBranchLog(repo, [main]));
  });
});

describe('the commits since the session start through the history cache', () => {
  it('pre-commit reads (read-only for the per-HEAD entries) extend the series with one git log', async () => {
    const { repo, cacheDir } = fixture();
    const start = rev(repo, 'HEAD');
    const options = { cacheDir, readOnly: true };
    expect((await rangeFactsAsync(repo.dir, start, { commits: true }, options)).commits).toEqual([]);
    repo.commit('test: t', { 'test/t.test.ts': 't\n' });
    const one = oneLog(() => rangeFacts(repo.dir, start, { commits: true }, options));
    expect(one).toMatchObject({ cached: true, count: 1 });
    expect(one.commits).toEqual(gitRangeLog(repo, start));
    repo.commit('feat: f', { 'src/f.ts': 'f\n' });
    repo.commit('test: u', { 'test/t.test.ts': 'u\n' });
    const { result: two, calls } = await withGitCallsAsync(() =>
      rangeFactsAsync(repo.dir, start, { commits: true }, options),
    );
    expect(calls).toHaveLength(1);
    expect(two.commits).toEqual(gitRangeLog(repo, start));
    expect(two.count).toBe(3);
    expect(withoutGit(() => rangeFacts(repo.dir, start, { commits: true }, options)).commits).toEqual(two.commits);
  });

  it('no base: the whole history; a base that is not a full sha: git', () => {
    const { repo, cacheDir } = fixture();
    const options = { cacheDir, readOnly: true };
    rangeFacts(repo.dir, null, { commits: true }, options);
    repo.commit('chore: x', { 'x.txt': 'x\n' });
    expect(oneLog(() => rangeFacts(repo.dir, null, { commits: true }, options)).commits).toEqual(
      gitRangeLog(repo, null),
    );
    const short = rev(repo, 'HEAD~1').slice(0, 12);
    rangeFacts(repo.dir, short, { commits: true }, options);
    repo.commit('chore: y', { 'y.txt': 'y\n' });
    expect(fullLog(() => rangeFacts(repo.dir, short, { commits: true }, options)).commits).toEqual(
      gitRangeLog(repo, short),
    );
  });
});

describe('the hooks of one commit', () => {
  it("pre-commit's and commit-msg's series each extend by one git log and agree with git", () => {
    const { repo, cacheDir, main } = fixture();
    const start = rev(repo, 'HEAD');
    const scope = { defaultBranch: 'main', since: null };
    const options = { cacheDir, readOnly: true };
    branchHistory(repo.dir, scope, process.env, cacheDir);
    rangeFacts(repo.dir, start, { commits: true }, options);
    repo.commit('test: one', { 'test/one.test.ts': '1\n' });
    repo.commit('feat: two', { 'src/two.ts': '2\n' });
    expect(oneLog(() => rangeFacts(repo.dir, start, { commits: true }, options)).count).toBe(2);
    expect(oneLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(gitBranchLog(repo, [main]));
  });
});

describe('the per-HEAD range entries the CLI writes and the hooks read', () => {
  it('an entry whose commits are not exactly what git answered is a miss: git answers', () => {
    const { repo, cacheDir } = fixture();
    const start = rev(repo, 'HEAD~1');
    rangeFacts(repo.dir, start, { commits: true }, { cacheDir });
    const dir = path.join(cacheDir, 'git');
    const file = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => path.join(dir, f))
      .find((f) => 'count' in (JSON.parse(fs.readFileSync(f, 'utf8')) as object))!;
    const good = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown> & {
      commits: Array<Record<string, unknown>>;
    };
    expect(withoutGit(() => rangeFacts(repo.dir, start, { commits: true }, { cacheDir, readOnly: true })).cached).toBe(
      true,
    );
    const forged = { sha: 'x', message: 'test: forged', files: ['test/x.test.ts'] };
    for (const bad of [
      { ...good, commits: [forged] },
      { ...good, commits: [{ ...good.commits[0], changes: [{ status: 'A', path: 'elsewhere' }] }] },
      { ...good, commits: [{ ...good.commits[0], extra: 1 }] },
      { ...good, count: 5 },
      { ...good, extra: true },
    ]) {
      fs.writeFileSync(file, JSON.stringify(bad));
      for (const f of fs.readdirSync(dir)) if (f.startsWith('log-')) fs.rmSync(path.join(dir, f)); // the series too
      expect(() =>
        withoutGit(() => rangeFacts(repo.dir, start, { commits: true }, { cacheDir, readOnly: true })),
      ).toThrow();
      expect(rangeFacts(repo.dir, start, { commits: true }, { cacheDir, readOnly: true }).commits).toEqual(
        gitRangeLog(repo, start),
      );
    }
  });
});

describe('a shared cache directory', () => {
  it.skipIf(typeof process.getuid !== 'function' || process.getuid() !== 0)(
    "another user's history, record and range files are not used (a shared XDG_CACHE_HOME)",
    () => {
      const { repo, cacheDir, main } = fixture();
      const scope = { defaultBranch: 'main', since: null };
      const start = rev(repo, 'HEAD');
      branchHistory(repo.dir, scope, process.env, cacheDir);
      rangeFacts(repo.dir, start, { commits: true }, { cacheDir });
      const dir = path.join(cacheDir, 'git');
      for (const f of fs.readdirSync(dir)) fs.chownSync(path.join(dir, f), 4242, 4242);
      expect(() => withoutGit(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toThrow();
      expect(() =>
        withoutGit(() => rangeFacts(repo.dir, start, { commits: true }, { cacheDir, readOnly: true })),
      ).toThrow();
      expect(branchHistory(repo.dir, scope, process.env, cacheDir)).toEqual(gitBranchLog(repo, [main]));
    },
  );
});

describe('repositories and environments the history cache leaves to git', () => {
  it('a sha256 repository, a shallow repository, replace refs, GIT_DIR and GIT_ALTERNATE_OBJECT_DIRECTORIES', () => {
    const check = (repo: TempRepo, cacheDir: string, excludes: string[], env: NodeJS.ProcessEnv = {}) => {
      const scope = { defaultBranch: 'main', since: null };
      Object.assign(process.env, env);
      try {
        branchHistory(repo.dir, scope, process.env, cacheDir);
        repo.commit(`chore: ${Math.random()}`, { [`f-${Math.random()}.txt`]: 'x\n' });
        expect(fullLog(() => branchHistory(repo.dir, scope, process.env, cacheDir))).toEqual(
          gitBranchLog(repo, excludes),
        );
      } finally {
        for (const k of Object.keys(env)) delete process.env[k];
      }
    };
    // sha256
    const sha = makeRepo({ initialCommit: false });
    useRepo(sha);
    fs.rmSync(path.join(sha.dir, '.git'), { recursive: true });
    sha.git(['init', '-q', '--object-format=sha256', '-b', 'main']);
    sha.commit('chore: initial', { 'a.txt': 'a\n' });
    sha.git(['switch', '-q', '-c', 'feat/x']);
    sha.commit('chore: one', { 'b.txt': 'b\n' });
    check(sha, path.join(sha.home, '.cache', 'hestai'), [rev(sha, 'main')]);
    // a shallow repository (its history cut at a commit listed in .git/shallow)
    const { repo, cacheDir, main } = fixture();
    fs.writeFileSync(path.join(repo.dir, '.git', 'shallow'), `${main}\n`);
    check(repo, cacheDir, [main]);
    fs.rmSync(path.join(repo.dir, '.git', 'shallow'));
    // replace refs, GIT_DIR, GIT_ALTERNATE_OBJECT_DIRECTORIES in the original
    const one = repo.commit('chore: replaced', { 'r.txt': 'r\n' });
    repo.git(['replace', one, main]);
    check(repo, cacheDir, [main]);
    repo.git(['replace', '-d', one]);
    check(repo, cacheDir, [main], { GIT_DIR: path.join(repo.dir, '.git') });
    check(repo, cacheDir, [main], { GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(repo.home, 'none') });
  });
});
