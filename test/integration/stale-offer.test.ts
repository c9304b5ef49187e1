import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clockIn } from '../../src/session/clock-in.js';
import { workspacePaths } from '../../src/paths.js';
import { listActiveSessions, readSession } from '../../src/records/session.js';
import { readJsonl } from '../../src/state/store.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { fixedClock, pathWithoutGh, rejection } from '../helpers/session-fixtures.js';
import { connectInProcess, textOf } from '../helpers/mcp.js';

// Seed 000 §7: "Session inactive >72 hours: mark as STALE, block on next clock_in until resolved" and
// "Stale session on clock_in: offer to clean up or continue (agent decides)". The offer changes nothing;
// the caller's choice (`on_stale`) is recorded in the audit log.

const THEN = '2026-01-06T00:00:00.000Z';
const LATER = '2026-01-10T00:00:00.000Z'; // 96 h later

function deps(repo: TempRepo, iso: string) {
  return { clock: fixedClock(iso), env: { ...repo.env, PATH: pathWithoutGh() } };
}

function auditEvents(repo: TempRepo): Record<string, unknown>[] {
  return readJsonl(workspacePaths(repo.dir).auditLog) as Record<string, unknown>[];
}

function archived(repo: TempRepo): string[] {
  const dir = workspacePaths(repo.dir).archive;
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** A repository with one session last active at THEN. */
async function withStaleSession(): Promise<{ repo: TempRepo; old: string }> {
  const repo = makeRepo();
  const old = (await clockIn({ working_dir: repo.dir, role: 'planner', focus: 'billing' }, deps(repo, THEN)))
    .session_id;
  return { repo, old };
}

describe('clock-in with a stale neighbour: an offer, then the caller decides (seed 000 §7)', () => {
  it('offers clean up or continue and creates, marks and archives nothing', async () => {
    const { repo, old } = await withStaleSession();
    const before = auditEvents(repo).length;
    const error = await rejection(clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo, LATER)));
    expect(error.code).toBe('STALE_SESSIONS');
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain(old);
    expect(error.details.join('\n')).toMatch(/planner.*billing.*2026-01-06T00:00:00.000Z/);
    expect(error.remedy).toContain('hestai clock-in --role tester --on-stale cleanup');
    expect(error.remedy).toContain('hestai clock-in --role tester --on-stale continue');
    const paths = workspacePaths(repo.dir);
    expect(listActiveSessions(paths).sessions.map((s) => s.session_id)).toEqual([old]);
    expect(readSession(paths, old)!.state).not.toBe('STALE');
    expect(archived(repo)).toEqual([]);
    expect(auditEvents(repo)).toHaveLength(before);
  });

  it('cleanup: marks the stale session STALE, archives it, creates the session and records the choice', async () => {
    const { repo, old } = await withStaleSession();
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', on_stale: 'cleanup' }, deps(repo, LATER));
    expect(res.stale_sessions).toEqual([expect.objectContaining({ session_id: old })]);
    expect(res.stale_decision).toBe('cleanup');
    expect(res.cleanup.archived).toEqual([{ session_id: old, archive_path: expect.stringContaining(old) }]);
    const paths = workspacePaths(repo.dir);
    expect(readSession(paths, old)).toBeNull();
    expect(readSession(paths, res.session_id)).not.toBeNull();
    expect(auditEvents(repo)).toContainEqual(
      expect.objectContaining({
        event: 'stale_decision',
        session_id: res.session_id,
        decision: 'cleanup',
        stale_sessions: [old],
      }),
    );
  });

  it('continue: leaves the stale session as it was, creates the session and records the choice', async () => {
    const { repo, old } = await withStaleSession();
    const paths = workspacePaths(repo.dir);
    const record = readSession(paths, old);
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', on_stale: 'continue' }, deps(repo, LATER));
    expect(res.stale_sessions).toEqual([expect.objectContaining({ session_id: old })]);
    expect(res.stale_decision).toBe('continue');
    expect(res.cleanup.archived).toEqual([]);
    expect(readSession(paths, old)).toEqual(record);
    expect(archived(repo)).toEqual([]);
    expect(res.conflict).toBeNull();
    expect(auditEvents(repo)).toContainEqual(
      expect.objectContaining({
        event: 'stale_decision',
        session_id: res.session_id,
        decision: 'continue',
        stale_sessions: [old],
      }),
    );
    expect(auditEvents(repo).some((e) => e['event'] === 'session_marked_stale')).toBe(false);
  });

  it('without a stale neighbour there is no offer, and on_stale is not needed', async () => {
    const repo = makeRepo();
    await clockIn({ working_dir: repo.dir, role: 'planner' }, deps(repo, THEN));
    const res = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo, '2026-01-08T00:00:00.000Z'));
    expect(res.stale_sessions).toEqual([]);
    expect(res.stale_decision).toBeNull();
    expect(auditEvents(repo).some((e) => e['event'] === 'stale_decision')).toBe(false);
  });

  it('refuses an unknown on_stale with a usage error', async () => {
    const repo = makeRepo();
    const error = await rejection(
      clockIn({ working_dir: repo.dir, role: 'tester', on_stale: 'archive' as 'cleanup' }, deps(repo, THEN)),
    );
    expect(error.exitCode).toBe(2);
    expect(error.remedy).toMatch(/--on-stale cleanup or continue/);
  });
});

describe('the offer on the built CLI and over MCP', () => {
  it('CLI: exit 1 with the two commands; the printed command runs and clocks in', async () => {
    const { repo, old } = await withStaleSession();
    const env = { HESTAI_NOW: LATER, PATH: pathWithoutGh() };
    const offer = repo.hestai(['clock-in', '--role', 'tester'], { env });
    expect(offer.status).toBe(1);
    expect(offer.stderr).toMatch(/no activity for over 72 h/);
    expect(offer.stderr).toContain(old);
    const printed = /hestai (clock-in --role tester --on-stale cleanup)/.exec(offer.stderr);
    expect(printed, offer.stderr).not.toBeNull();
    const chosen = repo.hestai([...printed![1]!.split(' '), '--json'], { env });
    expect(chosen.status, chosen.stderr).toBe(0);
    const res = JSON.parse(chosen.stdout) as { stale_decision: string; cleanup: { archived: unknown[] } };
    expect(res.stale_decision).toBe('cleanup');
    expect(res.cleanup.archived).toHaveLength(1);
  });

  it('MCP clock_in: the offer names on_stale; clock_in with on_stale continue clocks in', async () => {
    const { repo, old } = await withStaleSession();
    const agent = await connectInProcess({ clock: fixedClock(LATER), env: { ...repo.env, PATH: pathWithoutGh() } });
    const offer = await agent.call('clock_in', { working_dir: repo.dir, role: 'tester' });
    expect(offer.isError).toBe(true);
    expect(textOf(offer)).toContain('STALE_SESSIONS');
    expect(textOf(offer)).toContain(old);
    expect(textOf(offer)).toContain('on_stale: "continue"');
    expect(listActiveSessions(workspacePaths(repo.dir)).sessions).toHaveLength(1);
    const chosen = await agent.call('clock_in', { working_dir: repo.dir, role: 'tester', on_stale: 'continue' });
    expect(chosen.isError, textOf(chosen)).toBeFalsy();
    expect(chosen.structuredContent).toMatchObject({ stale_decision: 'continue' });
  });
});
