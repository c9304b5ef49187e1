import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolRepo } from '../helpers/protocol-repo.js';
import { userCacheDir } from '../../src/config/cache.js';
import { workspacePaths } from '../../src/paths.js';
import { anchorFile } from '../../src/records/anchor.js';
import { textKey } from '../../src/util/text-key.js';
import { makeRepo, tempDir, type RunResult, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';
import { hestai, noStack } from './helpers.js';

// Review of the user cache directory (~/.cache/hestai): every cache read there goes through one reader
// (readOwnCacheFile in src/state/store.ts) that opens without following a symlink and without blocking, and
// believes only a regular file of this user within a size bound. Planted in place of a cache file, a FIFO
// must not hang the hooks, a symlink must not be followed, and (as root) another user's file in a shared
// cache directory must be a miss. Real `git commit`s through the installed hooks; the verdict is the one
// without a cache.

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

const cacheDir = (repo: TempRepo) => userCacheDir(repo.env)!;

/** The cache files under `sub` whose name matches `pattern`. */
function cached(repo: TempRepo, sub: string, pattern: RegExp): string[] {
  const dir = path.join(cacheDir(repo), sub);
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => pattern.test(f))
        .map((f) => path.join(dir, f))
    : [];
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

/** The config entry rewritten to switch the test-first rule off. */
function forgedConfig(repo: TempRepo): { entry: string; forged: string } {
  const entries = cached(repo, 'config', /\.json$/);
  expect(entries, 'no config cache was written').toHaveLength(1);
  const good = JSON.parse(fs.readFileSync(entries[0]!, 'utf8')) as { config: { tdd: Record<string, unknown> } };
  const forged = { ...good, config: { ...good.config, tdd: { ...good.config.tdd, policy: 'any', types: [] } } };
  return { entry: entries[0]!, forged: JSON.stringify(forged) };
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
  it('anchor and config caches: the commit completes with the verdict of no cache', () => {
    const { repo } = anchoredRepo();
    for (const [sub, pattern] of [
      ['anchor', /\.json$/],
      ['config', /\.json$/],
    ] as const) {
      const entries = cached(repo, sub, pattern);
      expect(entries.length, `${sub}: no cache was written`).toBeGreaterThan(0);
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

  it('protocol cache: the enforced commit completes, blocked by the same gate', () => {
    const { repo, env } = protocolRepo({ focus: 'cache', objective: 'fifo' });
    const run = (args: string[]) => hestai(repo, args, env);
    const entries = cached(repo, 'protocol', /\.json$/);
    expect(entries).toHaveLength(1);
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
    const { entry } = forgedConfig(repo);
    const good = JSON.parse(fs.readFileSync(entry, 'utf8')) as { config: { hooks: Record<string, unknown> } };
    fs.writeFileSync(
      entry,
      JSON.stringify({ ...good, config: { ...good.config, hooks: { ...good.config.hooks, commit_msg: false } } }),
    );
    expectUnpairedFeat(commit(repo, 'feat: unpaired'), 'forged config, commit_msg off');
  });

  it('protocol: an entry whose protocol has no gates does not let the enforced commit through', () => {
    const { repo, env } = protocolRepo({ focus: 'cache', objective: 'forged' });
    const before = commit(repo, 'chore: work', env);
    expect(before.status).toBe(1);
    expect(before.stderr).toContain('BINDING/read_context');
    const entries = cached(repo, 'protocol', /\.json$/);
    expect(entries.length, 'a protocol cache entry to forge (or none at all)').toBeLessThanOrEqual(1);
    for (const entry of entries) {
      const good = JSON.parse(fs.readFileSync(entry, 'utf8')) as {
        protocol: { phases: Array<{ gates: unknown[] }> };
      };
      const forged = {
        ...good,
        protocol: { ...good.protocol, phases: good.protocol.phases.map((p) => ({ ...p, gates: [] })) },
      };
      fs.writeFileSync(entry, JSON.stringify(forged));
    }
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
