import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockIn } from '../../src/session/clock-in.js';
import { resolveConflict } from '../../src/session/resolve-conflict.js';
import { workspacePaths } from '../../src/paths.js';
import { readSession } from '../../src/records/session.js';
import { readJsonl } from '../../src/state/store.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { fixedClock, pathWithoutGh, rejection } from '../helpers/session-fixtures.js';
import { connectInProcess, textOf } from '../helpers/mcp.js';

// CI-I5 as issue 18 reads it: a conflict is another live session whose focus is the same as ours or related
// to it; an unrelated neighbour is reported, but is no conflict. The agent decides at clock-in (on_conflict)
// or afterwards, having seen the conflict: continue (do nothing), takeover or abort, each its own call.

const NOW = '2026-01-10T12:00:00.000Z';
const clock = fixedClock(NOW);

function deps(repo: TempRepo) {
  return { clock, env: { ...repo.env, PATH: pathWithoutGh() } };
}

function archivedFiles(repo: TempRepo): string[] {
  const dir = workspacePaths(repo.dir).archive;
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe('clockIn: conflicting and unrelated neighbours (CI-I5)', () => {
  it('reports an unrelated neighbour without calling it a conflict, and on_conflict abort still clocks in', async () => {
    const repo = makeRepo();
    const first = await clockIn({ working_dir: repo.dir, role: 'planner', focus: 'billing export' }, deps(repo));
    const second = await clockIn(
      { working_dir: repo.dir, role: 'tester', focus: 'login page', on_conflict: 'abort' },
      deps(repo),
    );
    expect(second.conflict).toBeNull();
    expect(second.neighbours).toEqual([
      expect.objectContaining({ existing_session_id: first.session_id, relation: 'unrelated' }),
    ]);
    expect(second.instruction).toContain(`${first.session_id}`);
    expect(second.instruction).toMatch(/unrelated focus/);
    expect(readSession(workspacePaths(repo.dir), first.session_id)!.state).not.toBe('STALE');
  });

  it('reports the same focus and a related focus as conflicts, differently, the same focus first', async () => {
    const repo = makeRepo();
    const related = await clockIn({ working_dir: repo.dir, role: 'planner', focus: 'login api' }, deps(repo));
    const same = await clockIn({ working_dir: repo.dir, role: 'designer', focus: 'Login page' }, deps(repo));
    const third = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login page' }, deps(repo));
    expect(third.conflict).toMatchObject({
      existing_session_id: same.session_id,
      relation: 'same',
      resolution: 'continue',
      other_live_sessions: 2,
    });
    expect(third.neighbours.map((n) => [n.existing_session_id, n.relation])).toEqual([
      [same.session_id, 'same'],
      [related.session_id, 'related'],
    ]);
    expect(third.instruction).toMatch(/same focus/);
    expect(third.instruction).toMatch(/hestai conflict takeover/);
    const error = await rejection(
      clockIn({ working_dir: repo.dir, role: 'x', focus: 'the login api', on_conflict: 'abort' }, deps(repo)),
    );
    expect(error).toMatchObject({ exitCode: 1, code: 'SESSION_CONFLICT' });
    expect(error.message).toMatch(/related focus/);
  });

  it('takes over only the conflicting sessions, never an unrelated neighbour', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const unrelated = await clockIn({ working_dir: repo.dir, role: 'planner', focus: 'billing' }, deps(repo));
    const same = await clockIn({ working_dir: repo.dir, role: 'designer', focus: 'login' }, deps(repo));
    const taker = await clockIn(
      { working_dir: repo.dir, role: 'tester', focus: 'login', on_conflict: 'takeover' },
      deps(repo),
    );
    expect(taker.conflict).toMatchObject({ existing_session_id: same.session_id, resolution: 'takeover' });
    expect(readSession(paths, same.session_id)!.state).toBe('STALE');
    expect(readSession(paths, unrelated.session_id)!.state).not.toBe('STALE');
  });
});

describe('resolveConflict: deciding after seeing the conflict (CI-I5)', () => {
  it('takeover: the conflicting sessions become STALE, both records log the transfer, the audit says so', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const old = await clockIn({ working_dir: repo.dir, role: 'planner', focus: 'login api' }, deps(repo));
    const other = await clockIn({ working_dir: repo.dir, role: 'ops', focus: 'billing' }, deps(repo));
    const mine = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login page' }, deps(repo));
    expect(mine.conflict).toMatchObject({ existing_session_id: old.session_id, resolution: 'continue' });

    const res = await resolveConflict(
      { working_dir: repo.dir, session_id: mine.session_id, action: 'takeover' },
      deps(repo),
    );
    expect(res).toMatchObject({ session_id: mine.session_id, action: 'takeover' });
    expect(res.taken_over.map((t) => [t.existing_session_id, t.relation])).toEqual([[old.session_id, 'related']]);
    expect(readSession(paths, old.session_id)).toMatchObject({
      state: 'STALE',
      ownership_log: [{ at: NOW, event: 'taken_over', other_session_id: mine.session_id }],
    });
    expect(readSession(paths, mine.session_id)!.ownership_log).toEqual([
      { at: NOW, event: 'took_over', other_session_id: old.session_id },
    ]);
    expect(readSession(paths, other.session_id)!.state).not.toBe('STALE');
    expect(readJsonl(paths.auditLog)).toContainEqual(
      expect.objectContaining({
        event: 'session_takeover',
        session_id: mine.session_id,
        previous_session_id: old.session_id,
        decided: 'after_clock_in',
      }),
    );
  });

  it('takeover without a conflict left refuses (exit 1) and changes nothing', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const other = await clockIn({ working_dir: repo.dir, role: 'ops', focus: 'billing' }, deps(repo));
    const mine = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login page' }, deps(repo));
    const before = fs.readFileSync(path.join(paths.active, other.session_id, 'session.json'), 'utf8');
    const error = await rejection(
      resolveConflict({ working_dir: repo.dir, session_id: mine.session_id, action: 'takeover' }, deps(repo)),
    );
    expect(error).toMatchObject({ exitCode: 1, code: 'NO_CONFLICT' });
    expect(error.message).toContain(other.session_id);
    expect(fs.readFileSync(path.join(paths.active, other.session_id, 'session.json'), 'utf8')).toBe(before);
  });

  it('abort: withdraws our own session (archived as ABORTED, naming the conflict); the neighbour keeps working', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const old = await clockIn({ working_dir: repo.dir, role: 'planner', focus: 'login' }, deps(repo));
    const mine = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo));
    const res = await resolveConflict(
      { working_dir: repo.dir, session_id: mine.session_id, action: 'abort' },
      deps(repo),
    );
    expect(res).toMatchObject({ session_id: mine.session_id, action: 'abort' });
    expect(res.archive_path).toMatch(new RegExp(`${mine.session_id}\\.oct\\.md$`));
    expect(fs.existsSync(path.join(paths.active, mine.session_id))).toBe(false);
    const archived = archivedFiles(repo).find((f) => f.includes(mine.session_id))!;
    const doc = fs.readFileSync(path.join(paths.archive, archived), 'utf8');
    expect(doc).toMatch(/STATE::ABORTED/);
    expect(doc).toContain(old.session_id);
    expect(readSession(paths, old.session_id)!.state).not.toBe('STALE');
    expect(readJsonl(paths.auditLog)).toContainEqual(
      expect.objectContaining({ event: 'session_abort', session_id: mine.session_id, conflicts: [old.session_id] }),
    );
  });

  it('rejects an unknown action as a usage error (exit 2)', async () => {
    const repo = makeRepo();
    const mine = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    const error = await rejection(
      resolveConflict({ working_dir: repo.dir, session_id: mine.session_id, action: 'later' as 'abort' }, deps(repo)),
    );
    expect(error).toMatchObject({ exitCode: 2 });
    expect(error.remedy).toMatch(/takeover|abort/);
  });
});

describe('hestai conflict (CLI, built dist/)', () => {
  it('shows the neighbours with their relation, then takes over; --json prints the result', () => {
    const repo = makeRepo();
    const env = { HESTAI_NOW: NOW, PATH: pathWithoutGh() };
    const a = repo.hestai(['clock-in', '--role', 'planner', '--focus', 'login api', '--json'], { env });
    const b = repo.hestai(['clock-in', '--role', 'tester', '--focus', 'login page', '--json'], { env });
    expect([a.status, b.status]).toEqual([0, 0]);
    const first = (JSON.parse(a.stdout) as { session_id: string }).session_id;
    const mine = (JSON.parse(b.stdout) as { session_id: string }).session_id;
    expect(b.stdout).toContain('"relation": "related"');

    const show = repo.hestai(['conflict', '--session', mine], { env });
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain(first);
    expect(show.stdout).toMatch(/related focus/);
    expect(show.stdout).toMatch(/hestai conflict takeover/);

    const take = repo.hestai(['conflict', 'takeover', '--session', mine, '--json'], { env });
    expect(take.status, take.stderr).toBe(0);
    expect(JSON.parse(take.stdout)).toMatchObject({ action: 'takeover', taken_over: [{ existing_session_id: first }] });
    expect(readSession(workspacePaths(repo.dir), first)!.state).toBe('STALE');

    const again = repo.hestai(['conflict', 'takeover', '--session', mine], { env });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/NO_CONFLICT|no live session/);
  });
});

describe('resolve_conflict (MCP)', () => {
  it("acts on the connection's own session: abort withdraws it, and the other agent's session stays live", async () => {
    const repo = makeRepo();
    const mcpDeps = { clock: () => new Date(NOW), env: { ...repo.env, PATH: pathWithoutGh() } };
    const agentA = await connectInProcess(mcpDeps);
    const agentB = await connectInProcess(mcpDeps);
    const a = await agentA.call('clock_in', { working_dir: repo.dir, role: 'planner', focus: 'login' });
    const b = await agentB.call('clock_in', { working_dir: repo.dir, role: 'tester', focus: 'login' });
    expect(b.structuredContent!['conflict']).toMatchObject({ relation: 'same' });
    expect(textOf(b)).toMatch(/resolve_conflict/);
    expect(textOf(b)).not.toMatch(/hestai conflict/);
    const aId = a.structuredContent!['session_id'] as string;
    const bId = b.structuredContent!['session_id'] as string;

    const res = await agentB.call('resolve_conflict', { working_dir: repo.dir, action: 'abort' });
    expect(res.isError, textOf(res)).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ session_id: bId, action: 'abort' });
    const paths = workspacePaths(repo.dir);
    expect(fs.existsSync(path.join(paths.active, bId))).toBe(false);
    expect(readSession(paths, aId)!.state).not.toBe('STALE');

    const none = await agentA.call('resolve_conflict', { working_dir: repo.dir, action: 'takeover' });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain('code: NO_CONFLICT');
  });
});
