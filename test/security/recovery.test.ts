import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { sessionsLock } from '../../src/records/activity.js';
import { appendJsonl, readJsonl } from '../../src/state/store.js';
import { makeRepo } from '../helpers/git-repo.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 6: recovery after a crash. A lock whose owner is gone is taken over at once; staging
// directories and temporary files a kill left behind are swept by the next run; a clock-out killed
// between archiving and removal is finished (never a duplicate archive); a torn audit line stays alone.

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const json = <T>(text: string) => JSON.parse(text) as T;

describe('recovery: locks', () => {
  it('a lock left by a killed process is taken over at once (no timeout, no waiting for an age)', () => {
    const repo = makeRepo();
    const lock = sessionsLock(workspacePaths(repo.dir));
    fs.mkdirSync(lock, { recursive: true });
    fs.writeFileSync(path.join(lock, 'owner'), `${deadPid()}\n`);
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(result.status, result.stderr).toBe(0);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a lock whose pid was reused by another live process (start time differs) is taken over', () => {
    const repo = makeRepo();
    const lock = sessionsLock(workspacePaths(repo.dir));
    fs.mkdirSync(lock, { recursive: true });
    // This machine's boot, so only the start time tells the holder is gone (a foreign boot alone would).
    const boot = fs.existsSync('/proc/sys/kernel/random/boot_id')
      ? ` boot:${fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}`
      : '';
    fs.writeFileSync(path.join(lock, 'owner'), `${process.pid} start:1${boot}\n`);
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    expect(result.status, result.stderr).toBe(0);
  });

  it('a lock directory with no owner file (killed between mkdir and write) is taken over once briefly old', () => {
    const repo = makeRepo();
    const lock = sessionsLock(workspacePaths(repo.dir));
    fs.mkdirSync(lock, { recursive: true });
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, past, past);
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    expect(result.status, result.stderr).toBe(0);
  });
});

describe('recovery: leftovers of a kill', () => {
  it('staging directories and temporary files are swept by the next clock-in', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const staging = path.join(paths.active, '.staging-4a1f0c8e-8d3b-4c55-9a53-1b2c3d4e5f60');
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(path.join(staging, 'session.json'), '{"half":');
    fs.mkdirSync(paths.state, { recursive: true });
    const tmp = path.join(paths.state, `.current-focus.oct.md.${deadPid()}.0123456789ab.tmp`);
    fs.writeFileSync(tmp, 'half written');
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    expect(result.status, result.stderr).toBe(0);
    expect(fs.existsSync(staging)).toBe(false);
    expect(fs.existsSync(tmp)).toBe(false);
  });

  it('a temporary file named as writeFileAtomic names it (pid, then base-36 time and randomness) is swept', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    fs.mkdirSync(paths.state, { recursive: true });
    const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    const tmp = path.join(paths.state, `.current-focus.oct.md.${deadPid()}.${unique}.tmp`);
    fs.writeFileSync(tmp, 'half written');
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    expect(result.status, result.stderr).toBe(0);
    expect(fs.existsSync(tmp)).toBe(false);
  });
});

describe('recovery: clock-out killed between archive and removal', () => {
  it('leaves no session both active and archived, and a second clock-out writes no duplicate archive', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const id = json<{ session_id: string }>(
      hestai(repo, ['clock-in', '--role', 'implementation-lead', '--json']).stdout,
    ).session_id;
    const active = path.join(paths.active, id);
    const copy = path.join(repo.home, 'copy');
    fs.cpSync(active, copy, { recursive: true });
    expect(hestai(repo, ['clock-out', '--session', id]).status).toBe(0);
    fs.cpSync(copy, active, { recursive: true }); // the state a kill after the archive write leaves
    const again = hestai(repo, ['clock-out', '--session', id]);
    noStack(again);
    expect([0, 1]).toContain(again.status);
    expect(fs.readdirSync(paths.archive).filter((f) => f.includes(id))).toHaveLength(1);
    expect(fs.existsSync(active)).toBe(false);
  });

  it('the next clock-in finishes an interrupted clock-out: the archived session is no longer active', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const id = json<{ session_id: string }>(
      hestai(repo, ['clock-in', '--role', 'implementation-lead', '--json']).stdout,
    ).session_id;
    const active = path.join(paths.active, id);
    const copy = path.join(repo.home, 'copy');
    fs.cpSync(active, copy, { recursive: true });
    expect(hestai(repo, ['clock-out', '--session', id]).status).toBe(0);
    fs.cpSync(copy, active, { recursive: true });
    expect(hestai(repo, ['clock-in', '--role', 'code-review-specialist']).status).toBe(0);
    expect(fs.existsSync(active)).toBe(false);
    expect(fs.readdirSync(paths.archive).filter((f) => f.includes(id))).toHaveLength(1);
  });
});

describe('recovery: audit log', () => {
  it('a torn last line in audit.jsonl does not corrupt the next record', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    fs.mkdirSync(paths.audit, { recursive: true });
    fs.writeFileSync(paths.auditLog, '{"at":"2026-01-01T00:00:00Z","event":"clock_in","ses');
    appendJsonl(paths.auditLog, { event: 'after', session_id: null });
    const lines = fs.readFileSync(paths.auditLog, 'utf8').split('\n');
    expect(JSON.parse(lines[1]!)).toEqual({ event: 'after', session_id: null });
    expect(() => readJsonl(paths.auditLog)).toThrow(/line 1/);
  });
});
