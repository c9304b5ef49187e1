import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { CEREMONY_ROLE, connectStdio, textOf } from '../helpers/mcp.js';
import { hestai, noStack, outsideDir, repoWithLink } from './helpers.js';

// Issue 17, item 8: waiting for a lock never blocks. A lock's `owner` file is read to judge whether its
// holder still runs; an `owner` that is not a regular file (a FIFO, or a symlink to a FIFO or a device such
// as /dev/zero) would make that read block forever or never end. No hestai process writes one: such a lock
// was planted, and it is broken at once without reading it.

const SESSIONS_LOCK = '.hestai/sessions/.locks/sessions';

describe('a planted lock owner never blocks a command or the MCP server', () => {
  it('a FIFO as the owner of the sessions lock: the server answers ping and clock_in completes', async () => {
    const repo = makeRepo();
    const lock = path.join(repo.dir, SESSIONS_LOCK);
    fs.mkdirSync(lock, { recursive: true });
    execFileSync('mkfifo', [path.join(lock, 'owner')]);
    const mcp = await connectStdio(repo.dir, repo.env);
    const clockIn = mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE, focus: 'fifo' });
    await mcp.client.ping();
    const result = await clockIn;
    expect(result.isError, textOf(result)).toBeFalsy();
    const sessionId = result.structuredContent!['session_id'] as string;
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', sessionId, 'session.json'))).toBe(true);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a committed symlink as the owner (to a FIFO outside): clock-in breaks the lock without following it', () => {
    const outside = outsideDir();
    const fifo = path.join(outside.dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const repo = repoWithLink(`${SESSIONS_LOCK}/owner`, fifo);
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(result.status, result.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo.dir, SESSIONS_LOCK))).toBe(false);
    expect(outside.snapshot()).toEqual({ bashrc: 'export PS1=original\n', pipe: '<fifo>' });
  });
});

// A lock committed to a cloned repository names a process of another machine: pid 1 is always alive here,
// and its start time is easy to guess. Whatever the owner line says, a lock written on another machine (or
// before this boot) has no live holder here and is broken at once.
describe('a committed lock never holds a command', () => {
  const pid1Start = (() => {
    try {
      const stat = fs.readFileSync('/proc/1/stat', 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
    } catch {
      return '1';
    }
  })();

  it.each([
    ['pid 1 without a start time', '1\n'],
    ["pid 1 with this machine's start time of pid 1", `1 start:${pid1Start}\n`],
    ['pid 1 with a guessed boot', `1 start:${pid1Start} boot:00000000-0000-0000-0000-000000000000\n`],
  ])('%s: clock-in breaks it and completes (no LOCK_TIMEOUT)', (_name, owner) => {
    const repo = makeRepo();
    repo.commit('chore: a lock in the repository', { [`${SESSIONS_LOCK}/owner`]: owner });
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(result.stderr).not.toContain('LOCK_TIMEOUT');
    expect(result.status, result.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo.dir, SESSIONS_LOCK))).toBe(false);
  });
});
