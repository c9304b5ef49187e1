import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HestaiError } from '../../src/errors.js';
import {
  appendJsonl,
  lockOwnerLine,
  readJsonIfExists,
  readJsonl,
  withLock,
  writeFileAtomic,
  writeJsonAtomic,
  type Validate,
} from '../../src/state/store.js';
import { PROJECT_ROOT, tempDir } from '../helpers/git-repo.js';

const counter: Validate<{ n: number }> = (value) =>
  typeof value === 'object' && value !== null && typeof (value as { n?: unknown }).n === 'number'
    ? { ok: true, value: value as { n: number } }
    : { ok: false, errors: ['n: expected a number'] };

async function rejection(promise: Promise<unknown>): Promise<HestaiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HestaiError) return error;
    throw error;
  }
  throw new Error('expected a HestaiError');
}

function thrown(fn: () => unknown): HestaiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HestaiError) return error;
    throw error;
  }
  throw new Error('expected a HestaiError');
}

describe('state store', () => {
  it('writes atomically and leaves no temporary files', () => {
    const dir = tempDir();
    const file = path.join(dir, 'nested/state.json');
    writeJsonAtomic(file, { n: 1 });
    writeJsonAtomic(file, { n: 2 });
    expect(readJsonIfExists(file, counter)).toEqual({ n: 2 });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['state.json']);
  });

  it('returns null for a missing file', () => {
    expect(readJsonIfExists(path.join(tempDir(), 'none.json'), counter)).toBeNull();
  });

  it('never treats a truncated, empty or malformed file as valid', () => {
    const dir = tempDir();
    const file = path.join(dir, 'state.json');
    for (const text of ['{"n": 1', '', '[1,2]', '{"n": "one"}']) {
      fs.writeFileSync(file, text);
      const error = thrown(() => readJsonIfExists(file, counter));
      expect(error.exitCode).toBe(2);
      expect(error.code).toBe('STATE_CORRUPT');
      expect(error.message).toContain(file);
      expect(error.remedy).toBeTruthy();
    }
  });

  it('keeps the old content when a write fails', () => {
    const dir = tempDir();
    const file = path.join(dir, 'state.json');
    writeJsonAtomic(file, { n: 1 });
    fs.chmodSync(dir, 0o500);
    try {
      if (process.getuid?.() === 0) return; // root ignores directory permissions
      const error = thrown(() => writeFileAtomic(file, '{"n": 2}'));
      expect(error.code).toBe('STORAGE');
      expect(error.message).toContain('permission denied');
    } finally {
      fs.chmodSync(dir, 0o700);
    }
    expect(readJsonIfExists(file, counter)).toEqual({ n: 1 });
  });

  it('appends JSONL records and names a corrupt line', () => {
    const dir = tempDir();
    const file = path.join(dir, 'audit/audit.jsonl');
    appendJsonl(file, { event: 'a' });
    appendJsonl(file, { event: 'b' });
    expect(readJsonl(file)).toEqual([{ event: 'a' }, { event: 'b' }]);
    fs.appendFileSync(file, '{"event": \n');
    const error = thrown(() => readJsonl(file));
    expect(error.message).toContain('line 3');
  });

  it('serialises read-modify-write across processes with withLock', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'counter.json');
    writeJsonAtomic(file, { n: 0 });
    const storeModule = path.join(PROJECT_ROOT, 'dist/state/store.js');
    const script = `
      const { withLock, readJsonIfExists, writeJsonAtomic } = await import(${JSON.stringify(storeModule)});
      const v = (x) => ({ ok: true, value: x });
      for (let i = 0; i < 25; i++) {
        await withLock(${JSON.stringify(path.join(dir, 'counter.lock'))}, () => {
          const { n } = readJsonIfExists(${JSON.stringify(file)}, v);
          writeJsonAtomic(${JSON.stringify(file)}, { n: n + 1 });
        });
      }`;
    const runs = Array.from(
      { length: 4 },
      () =>
        new Promise<number>((resolve) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
          child.on('exit', (code) => resolve(code ?? -1));
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0]);
    expect(readJsonIfExists(file, counter)).toEqual({ n: 100 });
    expect(fs.existsSync(path.join(dir, 'counter.lock'))).toBe(false);
  });

  it('breaks a stale lock left by a process that is gone', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'x.lock');
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'owner'), '999999999\n');
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(lock, old, old);
    expect(await withLock(lock, () => 'ran', { staleMs: 1_000, timeoutMs: 2_000 })).toBe('ran');
  });

  it('times out with a clear error when the lock stays held', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'y.lock');
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'owner'), lockOwnerLine(process.pid));
    const error = await rejection(withLock(lock, () => 'never', { timeoutMs: 100 }));
    expect(error.code).toBe('LOCK_TIMEOUT');
    expect(error.remedy).toMatch(/remove the lock directory/);
    expect(fs.existsSync(lock)).toBe(true);
  });

  it('waits for a held lock without blocking the event loop, then runs once it is released', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'z.lock');
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'owner'), lockOwnerLine(process.pid));
    const events: string[] = [];
    const waiting = withLock(lock, () => {
      events.push('locked');
      return 'ran';
    });
    // Timers and I/O callbacks keep running while the lock is awaited.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 1));
    events.push('event loop turned');
    fs.rmSync(lock, { recursive: true });
    expect(await waiting).toBe('ran');
    expect(events).toEqual(['event loop turned', 'locked']);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('never removes a lock that is no longer its own: one broken as stale and taken by another holder stays', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'b.lock');
    const other = `${process.pid} start:another-holder\n`;
    await withLock(lock, () => {
      // While this holder works, another one judged the lock stale, broke it and took it.
      fs.rmSync(lock, { recursive: true });
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'owner'), other);
    });
    expect(fs.readFileSync(path.join(lock, 'owner'), 'utf8')).toBe(other);
  });

  it('holds the lock across an asynchronous critical section and releases it when that rejects', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'a.lock');
    const events: string[] = [];
    const first = withLock(lock, async () => {
      events.push('first in');
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push('first out');
      throw new Error('boom');
    });
    const second = withLock(lock, () => {
      events.push('second');
    });
    await expect(first).rejects.toThrow('boom');
    await second;
    expect(events).toEqual(['first in', 'first out', 'second']);
    expect(fs.existsSync(lock)).toBe(false);
  });
});
