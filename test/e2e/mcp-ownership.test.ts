import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TempRepo } from '../helpers/git-repo.js';
import { anchorOverMcp, CEREMONY_ROLE, ceremonyRepo, connectStdio, textOf } from '../helpers/mcp.js';

// An MCP connection owns what it started (issue 14, item 2): two agents side by side in one worktree,
// each its own `hestai mcp` process started by the SDK's stdio client.

const agentRepo = ceremonyRepo;
const activeDir = (repo: TempRepo, id: string) => path.join(repo.dir, '.hestai/sessions/active', id);
const activeIds = (repo: TempRepo) =>
  fs.readdirSync(path.join(repo.dir, '.hestai/sessions/active')).filter((n) => /^[0-9a-f-]{36}$/.test(n));

async function clockIn(mcp: Awaited<ReturnType<typeof connectStdio>>, repo: TempRepo, focus: string): Promise<string> {
  const result = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE, focus });
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent!['session_id'] as string;
}

describe('an MCP connection owns what it started', () => {
  it('clock_out and anchor_status without session_id act on the connection’s own session, never the neighbour’s', async () => {
    const repo = agentRepo();
    const agentA = await connectStdio(repo.dir, repo.env);
    const agentB = await connectStdio(repo.dir, repo.env);
    const a = await clockIn(agentA, repo, 'feature a');
    const b = await clockIn(agentB, repo, 'feature b');

    const statusA = await agentA.call('anchor_status', { working_dir: repo.dir });
    expect(statusA.structuredContent).toMatchObject({ session_id: a, selected_by: 'connection' });
    const statusB = await agentB.call('anchor_status', { working_dir: repo.dir });
    expect(statusB.structuredContent).toMatchObject({ session_id: b, selected_by: 'connection' });
    expect(await agentB.read('session://state')).toMatchObject({ session_id: b });

    // A closes its own (unanchored) session: allowed, recorded as unanchored; B's stays.
    const out = await agentA.call('clock_out', { working_dir: repo.dir, summary: 'gave up' });
    expect(out.isError, textOf(out)).toBeFalsy();
    expect(out.structuredContent).toMatchObject({ session_id: a, anchor_digest: null });
    expect(fs.existsSync(activeDir(repo, a))).toBe(false);
    expect(fs.existsSync(activeDir(repo, b))).toBe(true);
    const archive = fs.readFileSync(path.join(repo.dir, out.structuredContent!['archive_path'] as string), 'utf8');
    expect(archive).toContain('BINDING::unanchored');
  });

  it('a fresh connection cannot archive another agent’s anchored session by naming its id', async () => {
    const repo = agentRepo();
    const agentB = await connectStdio(repo.dir, repo.env);
    const b = await clockIn(agentB, repo, 'feature b');
    await anchorOverMcp(agentB, repo.dir);

    const intruder = await connectStdio(repo.dir, repo.env);
    const status = await intruder.call('anchor_status', { working_dir: repo.dir, session_id: b });
    expect(status.structuredContent).toMatchObject({ session_id: b, selected_by: 'explicit', unlocked: true });
    const refused = await intruder.call('clock_out', { working_dir: repo.dir, session_id: b });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('NOT_YOUR_SESSION');
    expect(textOf(refused)).toMatch(/hint: /);
    expect(fs.existsSync(activeDir(repo, b))).toBe(true);
    // Without an id the intruder has no session to close either (B's is pinned to B).
    const implicit = await intruder.call('clock_out', { working_dir: repo.dir });
    expect(implicit.isError).toBe(true);
    expect(fs.existsSync(activeDir(repo, b))).toBe(true);

    const own = await agentB.call('clock_out', { working_dir: repo.dir, summary: 'done' });
    expect(own.isError, textOf(own)).toBeFalsy();
    expect(own.structuredContent).toMatchObject({ session_id: b });
    expect(own.structuredContent!['anchor_digest']).toMatch(/^sha256:/);
  });

  it('anchor identity without a token reuses the session the connection clocked in, instead of creating another', async () => {
    const repo = agentRepo();
    const mcp = await connectStdio(repo.dir, repo.env);
    const id = await clockIn(mcp, repo, 'one session');
    const identity = await mcp.call('anchor', { stage: 'identity', working_dir: repo.dir, role: CEREMONY_ROLE });
    expect(identity.isError, textOf(identity)).toBeFalsy();
    expect(identity.structuredContent).toMatchObject({ token: id });
    expect(activeIds(repo)).toEqual([id]);
  });

  it('anchor identity without a token on a fresh connection clocks in once, and that session is the connection’s', async () => {
    const repo = agentRepo();
    const mcp = await connectStdio(repo.dir, repo.env);
    const id = await anchorOverMcp(mcp, repo.dir);
    expect(activeIds(repo)).toEqual([id]);
    const status = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(status.structuredContent).toMatchObject({ session_id: id, selected_by: 'connection', unlocked: true });
  });
});
