import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import {
  CEREMONY_BIND,
  CEREMONY_PROOF,
  CEREMONY_ROLE,
  ceremonyRepo,
  connectStdio,
  textOf,
  type ToolResult,
} from '../helpers/mcp.js';
import { holdLock } from '../helpers/hold-lock.js';

// Issue 17, item 8: a lock another process holds never stops the MCP server from answering. The server
// waits for the lock without blocking its event loop: a request sent after the lock-taking call is
// answered first, and the lock-taking call completes once the lock is released. Ordering, never time.

/** Polls until `condition` holds (the test's own timeout bounds it; nothing is asserted about time). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

/** Tracks the order in which requests were answered. */
function answered(order: string[], name: string, pending: Promise<ToolResult>): Promise<ToolResult> {
  return pending.then((result) => {
    order.push(name);
    return result;
  });
}

const sessionsLock = (repo: TempRepo) => path.join(repo.dir, '.hestai/sessions/.locks/sessions');
const anchorsTip = (repo: TempRepo) =>
  repo.git(['rev-parse', '-q', '--verify', 'refs/heads/hestai/anchors'], { allowFail: true }).stdout.trim();

describe('locks taken inside the MCP server never block its event loop', () => {
  it('clock_in waits for the sessions lock another process holds while the server answers other requests', async () => {
    const repo = makeRepo();
    const mcp = await connectStdio(repo.dir, repo.env);
    const active = path.join(repo.dir, '.hestai/sessions/active');
    expect(fs.existsSync(active)).toBe(false);
    const holder = await holdLock(sessionsLock(repo));

    const order: string[] = [];
    const clockIn = answered(
      order,
      'clock_in',
      mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE, focus: 'locks' }),
    );
    // clock_in creates active/ and takes the sessions lock in one synchronous step: from here on it waits.
    await until(() => fs.existsSync(active) || order.length > 0);
    await mcp.client.ping();
    order.push('ping');
    await mcp.client.listTools();
    order.push('tools/list');
    expect(order).toEqual(['ping', 'tools/list']);

    await holder.release();
    const result = await clockIn;
    expect(result.isError, textOf(result)).toBeFalsy();
    const sessionId = result.structuredContent!['session_id'] as string;
    expect(fs.existsSync(path.join(active, sessionId, 'session.json'))).toBe(true);
    expect(order).toEqual(['ping', 'tools/list', 'clock_in']);
    expect(fs.existsSync(sessionsLock(repo))).toBe(false);
  });

  it('the anchor proof waits for the sessions lock (the session becomes ACTIVE) while the server answers', async () => {
    const repo = ceremonyRepo();
    const mcp = await connectStdio(repo.dir, repo.env);
    const clocked = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE, focus: 'locks' });
    expect(clocked.isError, textOf(clocked)).toBeFalsy();
    const token = clocked.structuredContent!['session_id'] as string;
    const identity = await mcp.call('anchor', {
      stage: 'identity',
      working_dir: repo.dir,
      role: CEREMONY_ROLE,
      session_id: token,
    });
    expect(identity.isError, textOf(identity)).toBeFalsy();
    const context = await mcp.call('anchor', {
      stage: 'context',
      working_dir: repo.dir,
      session_id: token,
      payload: CEREMONY_BIND,
    });
    expect(context.isError, textOf(context)).toBeFalsy();

    const tipBefore = anchorsTip(repo);
    const holder = await holdLock(sessionsLock(repo));
    const order: string[] = [];
    const anchored = answered(
      order,
      'anchor',
      mcp.call('anchor', { stage: 'proof', working_dir: repo.dir, session_id: token, payload: CEREMONY_PROOF }),
    );
    // The proof record is written to hestai/anchors, then (synchronously) the session is marked working
    // under the sessions lock: once the branch moved, the server is at that lock.
    await until(() => anchorsTip(repo) !== tipBefore || order.length > 0);
    await mcp.client.ping();
    order.push('ping');
    const status = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: token });
    order.push('anchor_status');
    expect(order).toEqual(['ping', 'anchor_status']);
    expect(status.structuredContent).toMatchObject({ unlocked: false });

    await holder.release();
    const result = await anchored;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ success: true, token });
    expect(order).toEqual(['ping', 'anchor_status', 'anchor']);
    const session = JSON.parse(
      fs.readFileSync(path.join(repo.dir, '.hestai/sessions/active', token, 'session.json'), 'utf8'),
    ) as { state: string };
    expect(session.state).toBe('ACTIVE');
    const after = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: token });
    expect(after.structuredContent).toMatchObject({ unlocked: true });
  });
});
