import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolRepo } from '../helpers/protocol-repo.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { workspacePaths } from '../../src/paths.js';
import { anchorFile } from '../../src/records/anchor.js';
import { formerCacheDir, textKey } from '../helpers/former-cache.js';
import { makeRepo, tempDir, type RunResult, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';
import { hestai, noStack } from './helpers.js';

// Review of the user cache directory (~/.cache/hestai): no validated config, protocol, anchor or git history
// is cached there any more (issue 27), so whatever is planted where earlier builds read them (a FIFO, a symlink,
// another user's file, or a forged regular file the agent writes) changes nothing: the hooks never hang and
// judge as without a cache. Real `git commit`s through the installed hooks.

const TIMEOUT = 60_000;

/** `git commit` through the installed hooks, killed after TIMEOUT (a hang fails the test, never the suite). */
function commit(repo: TempRepo, message: string, env: NodeJS.ProcessEnv = {}): RunResult & { timedOut: boolean } {
  repo.write(`notes/${Date.now()}-${Math.random()}.md`, 'x\n');
  repo.git(['add', 'notes']);
  const r = spawnSync('git', ['commit', '-q', '-m', message], {
    cwd: repo.dir,
    env: { ...repo.env, ...env },
    encoding: 'utf8',
    timeout: TIMEOUT,
  });
  if (r.status !== 0) repo.git(['reset', '-q'], { allowFail: true });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, timedOut: r.error !== undefined };
}

/** A reader blocked opening `fifo` gets end-of-file (so a failing run leaves no process behind). */
function release(fifo: string): void {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    /* no reader */
  }
}

const cacheDir = (repo: TempRepo) => formerCacheDir(repo.env);

/** Where the protocol cache of earlier builds was read for the workspace's protocol text (format 3). */
function protocolEntry(repo: TempRepo): string {
  const text = fs.readFileSync(path.join(repo.dir, '.hestai/protocol.yaml'), 'utf8');
  const entry = path.join(cacheDir(repo), 'protocol', `3-${textKey(text)}.json`);
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  return entry;
}

function mkfifo(file: string): void {
  fs.rmSync(file, { force: true });
  const r = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** A repository with the hooks installed, a workspace config and an anchored session: `chore` passes, `feat` is blocked. */
function anchoredRepo() {
  const repo = makeRepo();
  expect(hestai(repo, ['init', '--no-husky']).status).toBe(0);
  repo.write('.hestai_workspace.yaml', 'tdd:\n  policy: paired\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  repo.git(['switch', '-q', '-c', 'feat/x']);
  const { token } = makeSession(repo.dir);
  const first = commit(repo, 'chore: warm the caches');
  expect(first.status, first.stderr).toBe(0);
  return { repo, token };
}

function expectPass(r: RunResult & { timedOut: boolean }, what: string) {
  expect(r.timedOut, `${what}: the commit hung`).toBe(false);
  noStack(r);
  expect(r.status, `${what}: ${r.stderr}`).toBe(0);
}

function expectUnpairedFeat(r: RunResult & { timedOut: boolean }, what: string) {
  expect(r.timedOut, `${what}: the commit hung`).toBe(false);
  noStack(r);
  expect(r.status, `${what}: an unpaired feat was committed`).toBe(1);
}

function expectTampered(r: RunResult & { timedOut: boolean }, what: string) {
  expect(r.timedOut, `${what}: the commit hung`).toBe(false);
  noStack(r);
  expect(r.status, what).toBe(1);
  expect(r.stderr, what).toContain('does not match its integrity hash');
}

/** An anchor file edited after validation (its integrity no longer holds), and a forged cache entry vouching for it. */
function editAnchor(repo: TempRepo, token: string): { text: string; entry: string; forged: string } {
  const file = anchorFile(workspacePaths(repo.dir), token);
  const anchor = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const text = JSON.stringify({ ...anchor, role: 'someone-else' }, null, 2);
  fs.writeFileSync(file, text);
  const entry = path.join(cacheDir(repo), 'anchor', `1-${textKey(text)}.json`);
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  return { text, entry, forged: JSON.stringify({ format: 1, text }) };
}

/** Where the config cache of earlier builds was read (format 4): the path an attacker plants at. */
function configEntry(repo: TempRepo): { entry: string; text: string } {
  const text = fs.readFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'utf8');
  const entry = path.join(cacheDir(repo), 'config', `4-${textKey(text)}.json`);
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  return { entry, text };
}

/** A config entry for the workspace file's exact text, with `change` applied: what the agent would write. */
function forgedConfig(
  repo: TempRepo,
  change: (c: typeof DEFAULTS) => unknown = (c) => ({ ...c, tdd: { ...c.tdd, policy: 'any', types: [] } }),
): { entry: string; forged: string } {
  const { entry, text } = configEntry(repo);
  const config = { ...DEFAULTS, tdd: { ...DEFAULTS.tdd, policy: 'paired' as const } };
  return { entry, forged: JSON.stringify({ format: 4, text, config: change(config) }) };
}

/** Where the anchor cache of earlier builds was read for this session's anchor text (format 1). */
function anchorEntry(repo: TempRepo, token: string): string {
  const text = fs.readFileSync(anchorFile(workspacePaths(repo.dir), token), 'utf8');
  const entry = path.join(cacheDir(repo), 'anchor', `1-${textKey(text)}.json`);
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  return entry;
}

/** Puts `content` at `entry` through a symlink to a file of this user outside the cache directory. */
function plantSymlink(entry: string, content: string): void {
  const target = path.join(tempDir('hestai-elsewhere-'), 'entry.json');
  fs.writeFileSync(target, content);
  fs.rmSync(entry, { force: true });
  fs.symlinkSync(target, entry);
}

/** Puts `content` at `entry` as a regular file owned by another user (uid 65534). */
function plantForeign(entry: string, content: string): void {
  fs.rmSync(entry, { force: true });
  fs.writeFileSync(entry, content);
  fs.chownSync(entry, 65534, 65534);
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('a FIFO planted at a cache path never hangs a hook', () => {
  it('at the former anchor and config cache paths: the commit completes with the verdict of no cache', () => {
    const { repo, token } = anchoredRepo();
    for (const [sub, entries] of [
      ['anchor', [anchorEntry(repo, token)]],
      ['config', [configEntry(repo).entry]],
    ] as const) {
      for (const entry of entries) mkfifo(entry);
      try {
        expectPass(commit(repo, 'chore: work'), `${sub} FIFO, chore`);
        for (const entry of entries) mkfifo(entry);
        expectUnpairedFeat(commit(repo, 'feat: unpaired'), `${sub} FIFO, feat`);
      } finally {
        for (const entry of entries) release(entry);
      }
    }
  });

  it('at the former protocol cache path: the enforced commit completes, blocked by the same gate', () => {
    const { repo, env } = protocolRepo({ focus: 'cache', objective: 'fifo' });
    const run = (args: string[]) => hestai(repo, args, env);
    const entries = [protocolEntry(repo)];
    mkfifo(entries[0]!);
    try {
      const r = commit(repo, 'chore: work', env);
      expect(r.timedOut, 'the commit hung').toBe(false);
      noStack(r);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('BINDING/read_context');
      // And the CLI reading the protocol: completes too.
      mkfifo(entries[0]!);
      const show = run(['session', 'show']);
      expect(show.status, show.stderr).toBe(0);
    } finally {
      release(entries[0]!);
    }
  });
});

describe('a forged cache entry through a symlink is never followed', () => {
  it('config: an entry switching the test-first rule off does not let an unpaired feat through', () => {
    const { repo } = anchoredRepo();
    const { entry, forged } = forgedConfig(repo);
    plantSymlink(entry, forged);
    expectUnpairedFeat(commit(repo, 'feat: unpaired'), 'config symlink');
  });

  it('anchor: an entry vouching for an edited anchor does not make it pass', () => {
    const { repo, token } = anchoredRepo();
    const { entry, forged } = editAnchor(repo, token);
    plantSymlink(entry, forged);
    expectTampered(commit(repo, 'chore: work'), 'anchor symlink');
  });
});

describe.skipIf(!asRoot)("another user's file in the cache directory is a miss (as root)", () => {
  it('config and anchor entries owned by uid 65534 are not believed', () => {
    const { repo, token } = anchoredRepo();
    const config = forgedConfig(repo);
    plantForeign(config.entry, config.forged);
    expectUnpairedFeat(commit(repo, 'feat: unpaired'), 'foreign config');
    const anchor = editAnchor(repo, token);
    plantForeign(anchor.entry, anchor.forged);
    expectTampered(commit(repo, 'chore: work'), 'foreign anchor');
  });
});

describe('a forged cache entry the agent writes as a regular file of this user is never believed', () => {
  // Issue 27 item 3 / issue 26 item 3: an agent running as the user can write the user cache directory. No
  // cache may make a hook pass what it would block without it: a validated config, protocol or anchor is
  // never taken from that directory.
  it('config: an entry with the exact text and the test-first rule off does not let an unpaired feat through', () => {
    const { repo } = anchoredRepo();
    const { entry, forged } = forgedConfig(repo);
    fs.writeFileSync(entry, forged);
    expectUnpairedFeat(commit(repo, 'feat: unpaired'), 'forged config');
  });

  it('config: an entry that turns the commit-msg hook off does not let an unpaired feat through', () => {
    const { repo } = anchoredRepo();
    const { entry, forged } = forgedConfig(repo, (c) => ({ ...c, hooks: { ...c.hooks, commit_msg: false } }));
    fs.writeFileSync(entry, forged);
    expectUnpairedFeat(commit(repo, 'feat: unpaired'), 'forged config, commit_msg off');
  });

  it('protocol: an entry whose protocol has no gates does not let the enforced commit through', () => {
    const { repo, env } = protocolRepo({ focus: 'cache', objective: 'forged' });
    const before = commit(repo, 'chore: work', env);
    expect(before.status).toBe(1);
    expect(before.stderr).toContain('BINDING/read_context');
    const text = fs.readFileSync(path.join(repo.dir, '.hestai/protocol.yaml'), 'utf8');
    const weak = { version: 1, phases: [{ id: 'BINDING', stage: 'start', gates: [] }] };
    fs.writeFileSync(protocolEntry(repo), JSON.stringify({ format: 3, text, protocol: weak }));
    const after = commit(repo, 'chore: work', env);
    expect(after.status, after.stderr).toBe(1);
    expect(after.stderr).toContain('BINDING/read_context');
  });

  it('anchor: an entry vouching for an edited anchor does not make it pass', () => {
    const { repo, token } = anchoredRepo();
    const { entry, forged } = editAnchor(repo, token);
    fs.writeFileSync(entry, forged);
    expectTampered(commit(repo, 'chore: work'), 'forged anchor');
  });
});

/**
 * Where builds up to this one read the branch history the commit-msg hook judges a feat against (the
 * history cache, `git/log-*.json`, format 2): the entry for this worktree's branch series, keyed by its
 * repository, branch and the default branch's tip.
 */
function historyEntry(repo: TempRepo, branch: string, excludes: string[]): { entry: string; key: string } {
  const gitDir = path.join(repo.dir, '.git');
  const key = JSON.stringify([2, 'log', 'branch', gitDir, gitDir, branch, excludes]);
  const entry = path.join(cacheDir(repo), 'git', `log-${textKey(key)}.json`);
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  return { entry, key };
}

/** One commit record as git's log prints it (src/git/parse.ts), with `files` added or changed. */
function record(sha: string, parents: string[], message: string, files: string[]) {
  const date = '2026-11-26T07:00:00+00:00';
  return {
    sha,
    parents,
    authorDate: date,
    committerDate: date,
    message,
    files,
    changes: files.map((p) => ({ status: 'A', path: p })),
  };
}

describe('a forged history cache entry never makes the commit-msg hook pass a feat it blocks', () => {
  // Issue 27 item 3: the agent, as the user, writes the history cache (`git/log-*.json`) as a regular file.
  // An entry claiming a test commit on the branch (one that does not exist, or the branch's real commit
  // retyped as a test) must not pair an unpaired feat: the hook judges it as git's own history says.
  const rev = (repo: TempRepo, name: string) => repo.git(['rev-parse', name]).stdout.trim();

  it('an entry with a test commit that does not exist: the feat is refused as without the cache', () => {
    const { repo } = anchoredRepo();
    const main = rev(repo, 'main');
    const head = rev(repo, 'HEAD');
    const files = repo.git(['show', '--format=', '--name-only', head]).stdout.trim().split('\n');
    const fake = 'f'.repeat(40);
    const { entry, key } = historyEntry(repo, 'feat/x', [main]);
    const commits = [
      record(fake, [main], 'test(x): covers the feat', ['test/forged.test.ts']),
      record(head, [fake], 'chore: warm the caches', files),
    ];
    fs.writeFileSync(entry, JSON.stringify({ format: 2, key, tip: head, excludes: [main], commits }));
    expectUnpairedFeat(commit(repo, 'feat(x): unpaired'), 'forged history, a commit git does not have');
    expect(repo.git(['rev-parse', 'HEAD']).stdout.trim()).toBe(head);
  });

  it("an entry retyping the branch's real commit as a test commit: the feat is refused as without the cache", () => {
    const { repo } = anchoredRepo();
    const main = rev(repo, 'main');
    const head = rev(repo, 'HEAD');
    const { entry, key } = historyEntry(repo, 'feat/x', [main]);
    const commits = [record(head, [main], 'test(x): covers the feat', ['test/forged.test.ts'])];
    fs.writeFileSync(entry, JSON.stringify({ format: 2, key, tip: head, excludes: [main], commits }));
    expectUnpairedFeat(commit(repo, 'feat(x): unpaired'), 'forged history, a chore retyped as a test');
    expect(repo.git(['rev-parse', 'HEAD']).stdout.trim()).toBe(head);
  });
});
