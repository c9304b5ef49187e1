// Many waiters breaking the same stale lock at once (issue 15, item 6: two agents on one session cannot lose
// an evidence record): real processes, released together, each holding the lock for a while. A waiter that
// judged the old lock stale must never remove the lock another waiter has taken since, and no waiter may
// crash while another one is writing its owner file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLock } from '../../src/state/store.js';
import { PROJECT_ROOT, tempDir } from '../helpers/git-repo.js';

const WAITERS = 8;
const ROUNDS = 6;

/** One waiter: spins until `go` exists, then takes the lock; inside, `inside/` must not exist yet. */
const waiter = (dir: string) => `
  import fs from 'node:fs';
  import path from 'node:path';
  const { withLock } = await import(${JSON.stringify(path.join(PROJECT_ROOT, 'dist/state/store.js'))});
  const dir = ${JSON.stringify(dir)};
  while (!fs.existsSync(path.join(dir, 'go'))) {}
  await withLock(path.join(dir, 'x.lock'), async () => {
    try {
      fs.mkdirSync(path.join(dir, 'inside'));
    } catch {
      fs.appendFileSync(path.join(dir, 'overlaps'), process.pid + '\\n');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    fs.rmdirSync(path.join(dir, 'inside'));
  }, { timeoutMs: 20_000 });`;

async function round(): Promise<{ codes: number[]; stderr: string; overlaps: number }> {
  const dir = tempDir('hestai-lock-break-');
  // A lock left by a process that is gone: every waiter judges it stale.
  fs.mkdirSync(path.join(dir, 'x.lock'));
  fs.writeFileSync(path.join(dir, 'x.lock', 'owner'), '999999999\n');
  let stderr = '';
  const exits = Array.from({ length: WAITERS }, () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', waiter(dir)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  });
  // Every waiter is spinning before they are released together.
  await new Promise((resolve) => setTimeout(resolve, 500));
  fs.writeFileSync(path.join(dir, 'go'), '');
  const codes = await Promise.all(exits);
  const overlaps = fs.existsSync(path.join(dir, 'overlaps'))
    ? fs.readFileSync(path.join(dir, 'overlaps'), 'utf8').trim().split('\n').length
    : 0;
  return { codes, stderr, overlaps };
}

describe('breaking a stale lock', () => {
  it('lets exactly one of many simultaneous waiters in at a time, and none of them crashes', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { codes, stderr, overlaps } = await round();
      expect(stderr).toBe('');
      expect(codes).toEqual(Array.from({ length: WAITERS }, () => 0));
      expect(overlaps).toBe(0);
    }
  });
});

describe('a breaker left behind', () => {
  const staleLock = () => {
    const dir = tempDir('hestai-lock-breaker-');
    const lock = path.join(dir, 'x.lock');
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'owner'), '999999999\n');
    return lock;
  };

  it('waits while another waiter breaks the lock (its fresh `.break`), then takes it', async () => {
    const lock = staleLock();
    fs.mkdirSync(`${lock}.break`);
    const events: string[] = [];
    const waiting = withLock(lock, () => events.push('locked'), { timeoutMs: 10_000 });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    // The other waiter is still breaking it: the stale lock stands.
    expect(fs.readFileSync(path.join(lock, 'owner'), 'utf8')).toBe('999999999\n');
    events.push('breaker done');
    fs.rmSync(lock, { recursive: true });
    fs.rmdirSync(`${lock}.break`);
    await waiting;
    expect(events).toEqual(['breaker done', 'locked']);
  });

  it('removes a `.break` left by a killed waiter once it is old, then breaks the stale lock', async () => {
    const lock = staleLock();
    fs.mkdirSync(`${lock}.break`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${lock}.break`, old, old);
    expect(await withLock(lock, () => 'ran', { timeoutMs: 5_000 })).toBe('ran');
    expect(fs.existsSync(`${lock}.break`)).toBe(false);
    expect(fs.existsSync(lock)).toBe(false);
  });
});
