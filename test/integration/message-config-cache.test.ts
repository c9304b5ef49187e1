import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitMessageConfig, type MessageConfigOptions } from '../../src/git/message-config.js';
import { restoreEnvAfterEach, useRepo, withoutGit } from '../helpers/process-env.js';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 15 (Speed): the commit-msg hook reads core.commentChar and commit.cleanup on every commit. Cached in the
// user cache directory, the answer must never differ from git's: every config change below is made by another
// process (git, sh) on real config files, and the next read must see it. "No git process" is proven by running
// with no git on PATH. The oracle is git itself: `git config -z --get-regexp` (the hook's call before the cache).

restoreEnvAfterEach();

/** Another process changes a config file (never this one's fs calls), with process.env as git's environment. */
function sh(repo: TempRepo, script: string, cwd = repo.dir): void {
  const r = spawnSync('/bin/sh', ['-c', script], { cwd, env: process.env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** Past the file system's timestamp granularity, so a change made next cannot share the last one's ctime. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/** What git answers (the oracle): `git config -z --get-regexp`, the last value of a key winning. */
function gitAnswer(cwd: string): { commentChar: string; cleanup: string } {
  const r = spawnSync('git', ['config', '-z', '--get-regexp', '^(core\\.commentchar|commit\\.cleanup)$'], {
    cwd,
    env: process.env,
    encoding: 'utf8',
  });
  expect([0, 1], r.stderr).toContain(r.status);
  const answer = { commentChar: '#', cleanup: 'default' };
  for (const record of r.stdout.split('\0').filter(Boolean)) {
    const [key, value = ''] = record.split('\n');
    if (key === 'core.commentchar' && value !== '') answer.commentChar = value;
    if (key === 'commit.cleanup' && ['strip', 'whitespace', 'verbatim', 'scissors', 'default'].includes(value))
      answer.cleanup = value;
  }
  return answer;
}

function fixture() {
  const repo = makeRepo();
  useRepo(repo);
  // The fixture was written just now: a zero margin lets it be cached (the racy rule is tested apart).
  const options: MessageConfigOptions = { cacheDir: path.join(repo.home, '.cache', 'hestai'), racyMarginMs: 0 };
  return { repo, options };
}

/** Reads, then proves the answer is cached (a second read starts no git) and is git's, before a change is made. */
function primed(cwd: string, options: MessageConfigOptions): void {
  commitMessageConfig(cwd, options);
  const second = withoutGit(() => commitMessageConfig(cwd, options));
  expect(second.cached).toBe(true);
  expect(second.config).toEqual(gitAnswer(cwd));
}

/** A fresh read (after a change by another process): git's answer, and not from the cache. */
function followed(cwd: string, options: MessageConfigOptions, expected: { commentChar: string; cleanup: string }) {
  expect(gitAnswer(cwd)).toEqual(expected);
  const read = commitMessageConfig(cwd, options);
  expect(read).toEqual({ config: expected, cached: false });
}

const cacheFiles = (dir: string) => {
  const git = path.join(dir, 'git');
  return fs.existsSync(git) ? fs.readdirSync(git).filter((f) => f.startsWith('message-config-')) : [];
};

describe('the commit message config cache (src/git/message-config.ts)', () => {
  it('answers as git does, and a repeated read from the cache without git', () => {
    const { repo, options } = fixture();
    sh(repo, 'git config --global core.commentChar ";" && git config commit.cleanup scissors');
    const first = commitMessageConfig(repo.dir, options);
    expect(first).toEqual({ config: { commentChar: ';', cleanup: 'scissors' }, cached: false });
    expect(first.config).toEqual(gitAnswer(repo.dir));
    const second = withoutGit(() => commitMessageConfig(repo.dir, options));
    expect(second).toEqual({ config: first.config, cached: true });
    // Nothing configured: git's defaults, cached as well.
    const plain = makeRepo();
    useRepo(plain);
    const opts = { ...options, cacheDir: path.join(plain.home, '.cache', 'hestai') };
    expect(commitMessageConfig(plain.dir, opts).config).toEqual({ commentChar: '#', cleanup: 'default' });
    expect(withoutGit(() => commitMessageConfig(plain.dir, opts))).toEqual({
      config: { commentChar: '#', cleanup: 'default' },
      cached: true,
    });
  });

  it('follows a changed global config and repository config between two reads', async () => {
    const { repo, options } = fixture();
    primed(repo.dir, options);
    await settle();
    sh(repo, 'git config --global core.commentChar ";"');
    followed(repo.dir, options, { commentChar: ';', cleanup: 'default' });
    primed(repo.dir, options);
    await settle();
    sh(repo, 'git config commit.cleanup scissors');
    followed(repo.dir, options, { commentChar: ';', cleanup: 'scissors' });
    primed(repo.dir, options);
    await settle();
    sh(repo, 'git config commit.cleanup verbatim');
    followed(repo.dir, options, { commentChar: ';', cleanup: 'verbatim' });
    primed(repo.dir, options);
    await settle();
    sh(repo, 'git config --unset commit.cleanup && git config --global --unset core.commentChar');
    followed(repo.dir, options, { commentChar: '#', cleanup: 'default' });
  });

  it('sees a config file rewritten in place with its size and mtime put back (only the ctime tells)', async () => {
    const { repo, options } = fixture();
    sh(repo, 'git config --global core.commentChar ";"');
    primed(repo.dir, options);
    await settle();
    const global = process.env['GIT_CONFIG_GLOBAL']!;
    sh(
      repo,
      `touch -r "${global}" "${global}.when" && sed -i 's/";"/"%"/' "${global}" && touch -r "${global}.when" "${global}"`,
    );
    followed(repo.dir, options, { commentChar: '%', cleanup: 'default' });
  });

  it('follows config files that appear after the read: the XDG and ~/.gitconfig files, config.worktree', async () => {
    const { repo, options } = fixture();
    // Without GIT_CONFIG_GLOBAL git reads ~/.gitconfig and $XDG_CONFIG_HOME/git/config, existing or not.
    const home = repo.home;
    fs.renameSync(path.join(home, '.gitconfig'), path.join(home, 'identity.gitconfig'));
    delete process.env['GIT_CONFIG_GLOBAL'];
    primed(repo.dir, options);
    await settle();
    sh(
      repo,
      `mkdir -p "${home}/.config/git" && printf '[commit]\\n\\tcleanup = verbatim\\n' > "${home}/.config/git/config"`,
    );
    followed(repo.dir, options, { commentChar: '#', cleanup: 'verbatim' });
    primed(repo.dir, options);
    await settle();
    sh(repo, `printf '[core]\\n\\tcommentChar = ";"\\n' > "${home}/.gitconfig"`);
    followed(repo.dir, options, { commentChar: ';', cleanup: 'verbatim' });
    // A linked worktree with extensions.worktreeConfig: its config.worktree, created after the read.
    const wt = path.join(tempDir(), 'wt');
    sh(repo, `git worktree add -q -b feat/wt "${wt}" && git config extensions.worktreeConfig true`);
    primed(wt, options);
    await settle();
    sh(repo, 'git config --worktree core.commentChar "%"', wt);
    followed(wt, options, { commentChar: '%', cleanup: 'verbatim' });
    expect(commitMessageConfig(repo.dir, options).config).toEqual(gitAnswer(repo.dir));
    expect(gitAnswer(repo.dir).commentChar).toBe(';');
  });

  it('never caches a configuration with includes: an include.path and an includeIf onbranch that changes with the branch', async () => {
    const { repo, options } = fixture();
    const global = process.env['GIT_CONFIG_GLOBAL']!;
    const extra = path.join(repo.home, 'extra.gitconfig');
    fs.writeFileSync(extra, '[core]\n\tcommentChar = ";"\n');
    fs.appendFileSync(global, `[includeIf "onbranch:other"]\n\tpath = ${extra}\n`);
    expect(commitMessageConfig(repo.dir, options)).toEqual({
      config: { commentChar: '#', cleanup: 'default' },
      cached: false,
    });
    expect(commitMessageConfig(repo.dir, options).cached).toBe(false);
    // No config file changes: only the branch does, and git's answer with it.
    sh(repo, 'git switch -q -c other');
    followed(repo.dir, options, { commentChar: ';', cleanup: 'default' });
    const plain = makeRepo();
    useRepo(plain);
    const target = path.join(plain.home, 'later.gitconfig');
    fs.appendFileSync(process.env['GIT_CONFIG_GLOBAL']!, `[include]\n\tpath = ${target}\n`);
    const opts = { ...options, cacheDir: path.join(plain.home, '.cache', 'hestai') };
    expect(commitMessageConfig(plain.dir, opts).cached).toBe(false);
    expect(commitMessageConfig(plain.dir, opts).cached).toBe(false);
    expect(cacheFiles(opts.cacheDir)).toEqual([]);
    await settle();
    sh(plain, `printf '[commit]\\n\\tcleanup = strip\\n' > "${target}"`);
    followed(plain.dir, opts, { commentChar: '#', cleanup: 'strip' });
  });

  it('honours configuration from the command line and the environment (git -c, GIT_CONFIG_COUNT), never cached', () => {
    const { repo, options } = fixture();
    sh(repo, 'git config commit.cleanup strip');
    primed(repo.dir, options);
    // `git -c core.commentChar=; commit` runs its hooks with GIT_CONFIG_PARAMETERS set.
    process.env['GIT_CONFIG_PARAMETERS'] = "'core.commentchar'=';'";
    followed(repo.dir, options, { commentChar: ';', cleanup: 'strip' });
    expect(commitMessageConfig(repo.dir, options).cached).toBe(false);
    delete process.env['GIT_CONFIG_PARAMETERS'];
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'commit.cleanup',
      GIT_CONFIG_VALUE_0: 'verbatim',
    });
    followed(repo.dir, options, { commentChar: '#', cleanup: 'verbatim' });
    expect(commitMessageConfig(repo.dir, options).cached).toBe(false);
    for (const k of ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0']) delete process.env[k];
    // What the environment said was never recorded: the files' answer is still the cached one.
    expect(withoutGit(() => commitMessageConfig(repo.dir, options))).toEqual({
      config: { commentChar: '#', cleanup: 'strip' },
      cached: true,
    });
  });

  it('does not cache a config file changed within the racy margin of the read', () => {
    const { repo } = fixture();
    const cacheDir = path.join(repo.home, '.cache', 'hestai');
    sh(repo, 'git config commit.cleanup verbatim');
    expect(commitMessageConfig(repo.dir, { cacheDir }).cached).toBe(false);
    expect(cacheFiles(cacheDir)).toEqual([]);
    expect(commitMessageConfig(repo.dir, { cacheDir }).cached).toBe(false);
    // Read as if 5 s later: the change is no longer racy, the answer is recorded.
    const later = { cacheDir, now: () => Date.now() + 5000 };
    expect(commitMessageConfig(repo.dir, later)).toEqual({
      config: { commentChar: '#', cleanup: 'verbatim' },
      cached: false,
    });
    expect(withoutGit(() => commitMessageConfig(repo.dir, { cacheDir }))).toEqual({
      config: { commentChar: '#', cleanup: 'verbatim' },
      cached: true,
    });
  });

  it('treats a tampered or foreign cache file as a miss and answers from git', () => {
    const { repo, options } = fixture();
    sh(repo, 'git config commit.cleanup strip');
    primed(repo.dir, options);
    const [name] = cacheFiles(options.cacheDir!);
    const file = path.join(options.cacheDir!, 'git', name!);
    const good = fs.readFileSync(file, 'utf8');
    const entry = JSON.parse(good) as { key: string; stats: Record<string, string> };
    const repoConfig = path.join(repo.dir, '.git', 'config');
    const tampered: Array<[string, string]> = [
      ['garbage', 'not json'],
      ['truncated', good.slice(0, good.length - 20)],
      ['null', 'null'],
      ['another format', JSON.stringify({ ...entry, format: 99 })],
      ['another key', JSON.stringify({ ...entry, key: entry.key.replace('message-config', 'other') })],
      ['an empty comment char', JSON.stringify({ ...entry, commentChar: '' })],
      ['a comment char that is not a string', JSON.stringify({ ...entry, commentChar: 35 })],
      ['an unknown cleanup', JSON.stringify({ ...entry, cleanup: 'none' })],
      ['an unexpected key', JSON.stringify({ ...entry, extra: true })],
      ['an entry that is an array', JSON.stringify([entry])],
      ['stats as an array', JSON.stringify({ ...entry, stats: [] })],
      ['a stat that is not a string', JSON.stringify({ ...entry, stats: { ...entry.stats, [repoConfig]: 1 } })],
      ['another stat', JSON.stringify({ ...entry, stats: { ...entry.stats, [repoConfig]: 'missing' } })],
      [
        'a config file left out',
        JSON.stringify({
          ...entry,
          stats: Object.fromEntries(Object.entries(entry.stats).filter(([f]) => f !== repoConfig)),
        }),
      ],
    ];
    expect(entry.stats[repoConfig]).toMatch(/^\d+:\d+:\d+:\d+:\d+$/);
    for (const [what, text] of tampered) {
      fs.writeFileSync(file, text);
      expect(commitMessageConfig(repo.dir, options), what).toEqual({
        config: { commentChar: '#', cleanup: 'strip' },
        cached: false,
      });
      // The miss rewrote the entry: the next read is a hit again.
      expect(withoutGit(() => commitMessageConfig(repo.dir, options)).cached, what).toBe(true);
    }
  });

  it('keys the answer by the repository, and never caches inside the work tree or without a cache directory', () => {
    const { repo, options } = fixture();
    sh(repo, 'git config commit.cleanup verbatim');
    const other = makeRepo();
    spawnSync('git', ['config', 'core.commentChar', ';'], { cwd: other.dir, env: process.env });
    primed(repo.dir, options);
    primed(other.dir, options);
    expect(withoutGit(() => commitMessageConfig(repo.dir, options)).config).toEqual({
      commentChar: '#',
      cleanup: 'verbatim',
    });
    expect(withoutGit(() => commitMessageConfig(other.dir, options)).config).toEqual({
      commentChar: ';',
      cleanup: 'default',
    });
    for (const cacheDir of [path.join(repo.dir, '.cache'), path.join(repo.dir, '.git', 'cache'), repo.dir]) {
      expect(commitMessageConfig(repo.dir, { cacheDir, racyMarginMs: 0 }).cached).toBe(false);
      expect(commitMessageConfig(repo.dir, { cacheDir, racyMarginMs: 0 }).cached).toBe(false);
      expect(cacheFiles(cacheDir)).toEqual([]);
    }
    expect(commitMessageConfig(repo.dir, { cacheDir: null }).cached).toBe(false);
    expect(repo.git(['status', '--porcelain', '--ignored']).stdout).toBe('');
  });
});
