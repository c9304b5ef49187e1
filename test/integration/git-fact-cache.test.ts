import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoInfo } from '../../src/git/repo.js';
import { readHead, repoInfoFromFiles } from '../../src/git/refs.js';
import { rangeFacts, workTreeSnapshot, type SnapshotOptions } from '../../src/git/snapshot.js';
import { restoreEnvAfterEach, useRepo, withoutGit } from '../helpers/process-env.js';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 15 (Speed): the session protocol reads git facts from the git dir's files and from a cache in the
// user cache directory, so a read starts no git process while nothing changed. The cache must never
// answer for a repository that changed: every change below is made by another process (git, sh) on a real
// repository, and the next read must see it. "No git process" is proven by running with no git on PATH.

restoreEnvAfterEach();

/** Another process changes the work tree (never this one's fs calls). */
function sh(repo: TempRepo, script: string): void {
  const r = spawnSync('/bin/sh', ['-c', script], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** Past the file system's timestamp granularity, so a change made next cannot share the last one's ctime. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

function fixture() {
  const repo = makeRepo();
  repo.commit('chore: files', {
    'src/app.ts': 'export const a = 1;\n',
    'test/app.test.ts': '// test\n',
    '.gitignore': 'build/\n*.log\n',
    'build/out.js': 'ignored\n',
  });
  useRepo(repo);
  // The fixture was written just now: a zero margin lets it be cached (the racy rule is tested apart).
  const options: SnapshotOptions = { cacheDir: path.join(repo.home, '.cache', 'hestai'), racyMarginMs: 0 };
  return { repo, options };
}

/** Takes the snapshot and proves it is cached (a second read starts no git), before a change is made. */
function primed(repo: TempRepo, options: SnapshotOptions, dirty = false): void {
  workTreeSnapshot(repo.dir, { dirty }, options);
  expect(withoutGit(() => workTreeSnapshot(repo.dir, { dirty }, options)).cached).toBe(true);
}

const gitFiles = (repo: TempRepo) =>
  repo.git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']).stdout.split('\0').filter(Boolean).sort();

describe('git facts from files (src/git/refs.ts)', () => {
  it('reads HEAD and the branch as git does: loose and packed refs, detached, unborn, a linked worktree', () => {
    const repo = makeRepo();
    const sha = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    expect(readHead(repo.dir, repo.env)).toEqual({ sha, branch: 'main' });
    repo.git(['pack-refs', '--all']);
    expect(fs.existsSync(path.join(repo.dir, '.git/refs/heads/main'))).toBe(false);
    expect(readHead(repo.dir, repo.env)).toEqual({ sha, branch: 'main' });
    repo.git(['switch', '-q', '--detach']);
    expect(readHead(repo.dir, repo.env)).toEqual({ sha, branch: null });
    repo.git(['switch', '-q', '--orphan', 'fresh']);
    expect(readHead(repo.dir, repo.env)).toEqual({ sha: null, branch: 'fresh' });
    repo.git(['switch', '-q', 'main']);
    const wt = path.join(tempDir(), 'wt');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/wt', wt]);
    const wtSha = repo.commit('feat: in main');
    expect(readHead(wt, repo.env)).toEqual({ sha, branch: 'feat/wt' });
    expect(readHead(repo.dir, repo.env)).toEqual({ sha: wtSha, branch: 'main' });
    // A discovery variable means git may see another repository: the reader declines.
    expect(readHead(repo.dir, { ...repo.env, GIT_DIR: path.join(repo.dir, '.git') })).toBeNull();
  });

  it('declines a HEAD that is a symbolic ref outside refs/heads, or garbage', () => {
    const repo = makeRepo();
    fs.writeFileSync(path.join(repo.dir, '.git/HEAD'), 'ref: refs/remotes/origin/main\n');
    expect(readHead(repo.dir, repo.env)).toBeNull();
    fs.writeFileSync(path.join(repo.dir, '.git/HEAD'), 'not a ref\n');
    expect(readHead(repo.dir, repo.env)).toBeNull();
  });

  it('finds the repository from files exactly where git does, and declines where git must judge', () => {
    const repo = makeRepo();
    repo.write('src/deep/file.ts', 'x\n');
    useRepo(repo);
    for (const dir of [repo.dir, path.join(repo.dir, 'src/deep')])
      expect(repoInfoFromFiles(dir, repo.env)).toEqual(repoInfo(dir));
    const wt = path.join(tempDir(), 'wt');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/wt', wt]);
    expect(repoInfoFromFiles(wt, repo.env)).toEqual(repoInfo(wt));
    expect(repoInfoFromFiles(wt, repo.env)?.isLinkedWorktree).toBe(true);
    // Inside the git dir git sees no work tree; a core.worktree is git's to resolve.
    expect(repoInfoFromFiles(path.join(repo.dir, '.git/refs'), repo.env)).toBeNull();
    repo.git(['config', 'core.worktree', repo.dir]);
    expect(repoInfoFromFiles(repo.dir, repo.env)).toBeNull();
  });
});

describe('the work-tree snapshot cache (src/git/snapshot.ts)', () => {
  it('answers a repeated read from the cache without git, with what git says', () => {
    const { repo, options } = fixture();
    const first = workTreeSnapshot(repo.dir, { dirty: true }, options);
    expect(first.cached).toBe(false);
    expect([...first.files].sort()).toEqual(gitFiles(repo));
    expect(first.dirty).toEqual([]);
    const second = withoutGit(() => workTreeSnapshot(repo.dir, { dirty: true }, options));
    expect(second).toEqual({ ...first, cached: true });
  });

  it('sees a file another process adds, in an existing or a new directory, or removes', async () => {
    const { repo, options } = fixture();
    primed(repo, options);
    await settle();
    sh(repo, 'echo new > src/new.ts');
    const added = workTreeSnapshot(repo.dir, { dirty: false }, options);
    expect(added.cached).toBe(false);
    expect(added.files).toContain('src/new.ts');
    await settle();
    sh(repo, 'mkdir -p src/a/b && echo deep > src/a/b/deep.ts');
    expect(workTreeSnapshot(repo.dir, { dirty: false }, options).files).toContain('src/a/b/deep.ts');
    await settle();
    sh(repo, 'rm src/a/b/deep.ts');
    expect(workTreeSnapshot(repo.dir, { dirty: false }, options).files).not.toContain('src/a/b/deep.ts');
    expect([...workTreeSnapshot(repo.dir, { dirty: false }, options).files].sort()).toEqual(gitFiles(repo));
  });

  it('follows the ignore rules and the index: an edited .gitignore, info/exclude, a forced add', async () => {
    const { repo, options } = fixture();
    expect(workTreeSnapshot(repo.dir, { dirty: false }, options).files).not.toContain('build/out.js');
    await settle();
    sh(repo, 'echo notes > notes.md');
    expect(workTreeSnapshot(repo.dir, { dirty: false }, options).files).toContain('notes.md');
    primed(repo, options);
    await settle();
    sh(repo, 'echo notes.md >> .gitignore');
    expect(workTreeSnapshot(repo.dir, { dirty: false }, options).files).not.toContain('notes.md');
    sh(repo, 'printf "build/\\n*.log\\n" > .gitignore');
    expect(workTreeSnapshot(repo.dir, { dirty: false }, options).files).toContain('notes.md');
    primed(repo, options);
    await settle();
    sh(repo, 'echo "notes.md" > .git/info/exclude');
    expect(workTreeSnapshot(repo.dir, { dirty: false }, options).files).not.toContain('notes.md');
    primed(repo, options);
    await settle();
    sh(repo, 'git add -f build/out.js');
    expect(workTreeSnapshot(repo.dir, { dirty: false }, options).files).toContain('build/out.js');
  });

  it('follows a config file that appears after the read: the target of an include that did not exist yet', async () => {
    const { repo, options } = fixture();
    const global = repo.env['GIT_CONFIG_GLOBAL']!;
    const extra = path.join(repo.home, 'extra.gitconfig');
    const ignore = path.join(repo.home, 'more-ignores');
    fs.appendFileSync(global, `[include]\n\tpath = ${extra}\n`);
    fs.writeFileSync(ignore, 'notes.md\n');
    sh(repo, 'echo notes > notes.md');
    expect(workTreeSnapshot(repo.dir, { dirty: true }, options).files).toContain('notes.md');
    workTreeSnapshot(repo.dir, { dirty: true }, options);
    await settle();
    sh(repo, `printf "[core]\\n\\texcludesFile = ${ignore}\\n" > ${extra}`);
    expect(gitFiles(repo)).not.toContain('notes.md');
    expect(workTreeSnapshot(repo.dir, { dirty: true }, options).files).not.toContain('notes.md');
  });

  it('sees a tracked file changed in place even when its size and mtime are put back (git_clean)', async () => {
    const { repo, options } = fixture();
    expect(workTreeSnapshot(repo.dir, { dirty: true }, options).dirty).toEqual([]);
    primed(repo, options, true);
    await settle();
    // Same length, and the old mtime restored: only the ctime (which nobody can set back) tells.
    sh(
      repo,
      'touch -r src/app.ts .git/when && printf "export const b = 2;\\n" > src/app.ts && touch -r .git/when src/app.ts',
    );
    const after = workTreeSnapshot(repo.dir, { dirty: true }, options);
    expect(after.cached).toBe(false);
    expect(after.dirty).toEqual(['src/app.ts']);
  });

  it('follows HEAD: a commit or a switch by another process', async () => {
    const { repo, options } = fixture();
    primed(repo, options, true);
    await settle();
    sh(repo, 'echo more >> src/app.ts && git add -A && git commit -q --no-verify -m "feat: more"');
    const after = workTreeSnapshot(repo.dir, { dirty: true }, options);
    expect(after.cached).toBe(false);
    expect(after.dirty).toEqual([]);
    primed(repo, options, true);
    await settle();
    sh(repo, 'git switch -q -c other HEAD~1');
    const switched = workTreeSnapshot(repo.dir, { dirty: true }, options);
    expect(switched.cached).toBe(false);
    expect(switched.files).toEqual(expect.arrayContaining(['src/app.ts']));
  });

  it('never caches a work tree that changed within the racy margin', () => {
    const { repo, options } = fixture();
    const racy = { ...options, racyMarginMs: 60_000 };
    workTreeSnapshot(repo.dir, { dirty: true }, racy);
    expect(workTreeSnapshot(repo.dir, { dirty: true }, racy).cached).toBe(false);
  });

  it('treats a tampered or foreign cache file as a miss, never as an answer', () => {
    const { repo, options } = fixture();
    primed(repo, options, true);
    const dir = path.join(options.cacheDir!, 'git');
    for (const f of fs.readdirSync(dir)) {
      const entry = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(path.join(dir, f), JSON.stringify({ ...entry, key: 'someone else', dirty: [] }));
    }
    sh(repo, 'echo dirty >> src/app.ts');
    expect(workTreeSnapshot(repo.dir, { dirty: true }, options).dirty).toEqual(['src/app.ts']);
    for (const f of fs.readdirSync(dir)) fs.writeFileSync(path.join(dir, f), '{not json');
    expect(workTreeSnapshot(repo.dir, { dirty: true }, options).dirty).toEqual(['src/app.ts']);
  });
});

describe('the commit-range cache', () => {
  it('counts and lists the commits since a base from the cache while HEAD stays, and derives them when it moves on', () => {
    const { repo, options } = fixture();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('test: one', { 'test/one.test.ts': '1\n' });
    const first = rangeFacts(repo.dir, base, { commits: true }, options);
    expect(first).toMatchObject({ count: 1, cached: false });
    expect(first.commits!.map((c) => c.message.trim())).toEqual(['test: one']);
    expect(withoutGit(() => rangeFacts(repo.dir, base, { commits: true }, options))).toEqual({
      ...first,
      cached: true,
    });
    sh(repo, 'echo 2 > src/two.ts && git add -A && git commit -q --no-verify -m "feat: two"');
    // One commit on top of the cached answer: the history series (log-cache.ts) extended by one git log, as git lists it.
    const moved = rangeFacts(repo.dir, base, { commits: true }, options);
    expect(moved.cached).toBe(true);
    expect(moved.count).toBe(2);
    expect(moved.commits).toEqual(rangeFacts(repo.dir, base, { commits: true }, { cacheDir: null }).commits);
    sh(repo, 'git reset -q --hard HEAD~1');
    expect(rangeFacts(repo.dir, base, { commits: false }, options).count).toBe(1);
  });

  it('never caches while replace refs can rewrite the history behind a sha', () => {
    const { repo, options } = fixture();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const one = repo.commit('test: one', { 'test/one.test.ts': '1\n' });
    repo.commit('test: two', { 'test/two.test.ts': '2\n' });
    repo.git(['replace', one, base]);
    rangeFacts(repo.dir, base, { commits: false }, options);
    expect(rangeFacts(repo.dir, base, { commits: false }, options).cached).toBe(false);
  });
});

describe('content hashes of the protocol gates (src/protocol/facts.ts)', () => {
  it('hashes a binary file and a file larger than 64 KB exactly as node:crypto does', async () => {
    const { createHash } = await import('node:crypto');
    const { gatherFactsSync } = await import('../../src/protocol/facts.js');
    const { DEFAULTS } = await import('../../src/config/defaults.js');
    const { workspacePaths } = await import('../../src/paths.js');
    const repo = makeRepo();
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x0a]);
    const large = Buffer.alloc(200 * 1024, 'x');
    fs.writeFileSync(path.join(repo.dir, 'bin.dat'), binary);
    fs.writeFileSync(path.join(repo.dir, 'large.txt'), large);
    const gate = (id: string, file: string) => ({
      phase: 'P',
      gate: {
        id,
        step: id,
        level: 'MUST' as const,
        blocking: true,
        pre_commit: true,
        check: { type: 'evidence' as const, accepts: ['content_hash' as const], path: file },
      },
    });
    const facts = gatherFactsSync({
      paths: workspacePaths(repo.dir),
      config: DEFAULTS as never,
      env: repo.env,
      now: new Date(),
      session_id: '00000000-0000-4000-8000-000000000000',
      started_at: new Date().toISOString(),
      starting_commit: null,
      gates: [gate('bin', 'bin.dat'), gate('large', 'large.txt')],
      evidence: [],
      runCommands: false,
      recorded: {},
    });
    expect(facts.hashes).toEqual({
      'bin.dat': createHash('sha256').update(binary).digest('hex'),
      'large.txt': createHash('sha256').update(large).digest('hex'),
    });
  });
});

describe('the index read without git (src/git/index-file.ts)', () => {
  const lsCached = (repo: TempRepo, env: NodeJS.ProcessEnv = {}) =>
    [...new Set(repo.git(['ls-files', '-z', '--cached'], { env }).stdout.split('\0').filter(Boolean))].sort();

  it('lists what git ls-files --cached lists: versions 2, 3 and 4, long and non-ASCII paths, GIT_INDEX_FILE', async () => {
    const { readIndexPaths } = await import('../../src/git/index-file.js');
    const repo = makeRepo();
    const long = `deep/${'d'.repeat(120)}/${'n'.repeat(200)}.ts`;
    repo.commit('chore: files', {
      'a.ts': '1\n',
      'src/b/c.ts': '2\n',
      'src/b/ä ö.ts': '3\n',
      [long]: '4\n',
      'test/x.test.ts': '5\n',
    });
    const read = () => [...new Set(readIndexPaths(repo.dir, repo.env) ?? ['(null)'])].sort();
    expect(read()).toEqual(lsCached(repo));
    repo.write('new.ts', 'n\n');
    repo.git(['add', '-N', 'new.ts']); // intent-to-add: an extended entry (version 3)
    expect(read()).toEqual(lsCached(repo));
    repo.git(['update-index', '--index-version', '4']);
    expect(read()).toEqual(lsCached(repo));
    repo.git(['update-index', '--index-version', '2']);
    repo.git(['rm', '-q', '--cached', 'a.ts']);
    expect(read()).toEqual(lsCached(repo));
    // The index git hands the pre-commit hook.
    fs.copyFileSync(path.join(repo.dir, '.git/index'), path.join(repo.dir, '.git/other-index'));
    repo.git(['rm', '-q', '--cached', 'src/b/c.ts']);
    expect(readIndexPaths(repo.dir, { ...repo.env, GIT_INDEX_FILE: '.git/other-index' })).toContain('src/b/c.ts');
    expect(readIndexPaths(repo.dir, repo.env)).not.toContain('src/b/c.ts');
  });

  it('declines a split index and a damaged file (git answers instead)', async () => {
    const { readIndexPaths } = await import('../../src/git/index-file.js');
    const repo = makeRepo();
    repo.commit('chore: files', { 'a.ts': '1\n', 'b.ts': '2\n' });
    const index = path.join(repo.dir, '.git/index');
    const good = fs.readFileSync(index);
    fs.writeFileSync(index, good.subarray(0, good.length - 30));
    expect(readIndexPaths(repo.dir, repo.env)).toBeNull();
    fs.writeFileSync(index, good);
    repo.git(['update-index', '--split-index']);
    expect(readIndexPaths(repo.dir, repo.env)).toBeNull();
  });

  it('the hook path: a glob a tracked file satisfies needs no file list; untracked or ignored ones are asked of git', async () => {
    const { prefetchGitFacts, gatherFactsSync } = await import('../../src/protocol/facts.js');
    const { DEFAULTS } = await import('../../src/config/defaults.js');
    const { workspacePaths } = await import('../../src/paths.js');
    const repo = makeRepo();
    repo.commit('chore: files', { 'test/a.test.ts': '1\n', '.gitignore': 'ignored/\n' });
    repo.write('untracked/u.md', 'u\n');
    repo.write('ignored/i.md', 'i\n');
    useRepo(repo);
    const gate = (p: string) => ({
      phase: 'P',
      gate: {
        id: p,
        step: p,
        level: 'MUST' as const,
        blocking: true,
        pre_commit: true,
        check: { type: 'file_exists' as const, path: p },
      },
    });
    const input = (globs: string[]) => ({
      paths: workspacePaths(repo.dir),
      config: DEFAULTS as never,
      env: repo.env,
      now: new Date(),
      session_id: '00000000-0000-4000-8000-000000000000',
      started_at: new Date().toISOString(),
      starting_commit: null,
      gates: globs.map(gate),
      evidence: [],
      runCommands: false,
      recorded: {},
    });
    const tracked = withoutGit(() => prefetchGitFacts(input(['test/*.ts'])));
    const early = await tracked;
    expect(early).toEqual({ exists: { 'test/*.ts': true } });
    expect(gatherFactsSync({ ...input(['test/*.ts']), prefetched: early }).exists).toEqual({ 'test/*.ts': true });
    const all = ['test/*.ts', 'untracked/*.md', 'ignored/*.md'];
    const asked = await prefetchGitFacts(input(all));
    expect(asked.files).toBeDefined();
    expect(gatherFactsSync({ ...input(all), prefetched: asked }).exists).toEqual({
      'test/*.ts': true,
      'untracked/*.md': true,
      'ignored/*.md': false,
    });
    // A tracked file deleted from disk does not count.
    sh(repo, 'rm test/a.test.ts');
    const gone = await prefetchGitFacts(input(['test/*.ts']));
    expect(gatherFactsSync({ ...input(['test/*.ts']), prefetched: gone }).exists).toEqual({ 'test/*.ts': false });
  });
});
