import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorFile, anchorDigest } from '../../src/records/anchor.js';
import { workspacePaths, type WorkspacePaths } from '../../src/paths.js';
import { parseOctave, toObject } from '../../src/octave/index.js';
import { clockIn } from '../../src/session/clock-in.js';
import { acknowledgeStale } from '../../src/session/ack.js';
import { cleanupSessions } from '../../src/session/cleanup.js';
import { clockOut } from '../../src/session/clock-out.js';
import { refreshSession } from '../../src/session/refresh.js';
import { sessionStatus } from '../../src/session/status.js';
import { readSession, writeSession } from '../../src/records/session.js';
import { resolveSession, resolveSessionId } from '../../src/records/resolve.js';
import { readJsonl } from '../../src/state/store.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { seedAnchor, seedSession } from '../helpers/session-fixture.js';
import { markSessionWorking } from '../../src/records/activity.js';
import { fixedClock, pathWithoutGh, rejection } from '../helpers/session-fixtures.js';

const T0 = '2026-01-10T12:00:00.000Z';
const at = (hours: number) => fixedClock(new Date(Date.parse(T0) + hours * 3_600_000).toISOString());
const deps = (repo: TempRepo, hours = 0, env: NodeJS.ProcessEnv = {}) => ({
  clock: at(hours),
  env: { ...repo.env, PATH: pathWithoutGh(), ...env },
});

const anchorFor = (paths: WorkspacePaths, token: string, validatedAt: string) =>
  seedAnchor(
    paths.root,
    token,
    {},
    {
      validated_at: validatedAt,
      arm: {
        phase: 'B1',
        branch: 'main',
        ahead: 0,
        behind: 0,
        files_count: 0,
        top_files: [],
        focus: 'general',
        context_hash: 'x',
      },
    },
  );

describe('resolveSessionId', () => {
  it('picks explicit > HESTAI_SESSION > the only live unpinned session, and nothing when several fit', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const a = (await clockIn({ working_dir: repo.dir, role: 'a' }, deps(repo, 0))).session_id;
    expect(resolveSessionId(paths, undefined, {})).toBe(a);
    const b = (await clockIn({ working_dir: repo.dir, role: 'b' }, deps(repo, 1))).session_id;
    // Two live sessions: no implicit choice, anchored or not.
    expect(resolveSessionId(paths, undefined, {})).toBeNull();
    anchorFor(paths, a, new Date(Date.parse(T0) + 2 * 3_600_000).toISOString());
    expect(resolveSessionId(paths, undefined, {})).toBeNull();
    expect(resolveSession(paths, {})).toMatchObject({
      kind: 'ambiguous',
      candidates: [
        { session_id: a, anchored: true },
        { session_id: b, anchored: false },
      ],
    });
    expect(resolveSessionId(paths, undefined, { HESTAI_SESSION: b })).toBe(b);
    expect(resolveSessionId(paths, a, { HESTAI_SESSION: b })).toBe(a);
    // A pinned session (an agent runtime's) never fits an implicit choice.
    const c = (await clockIn({ working_dir: repo.dir, role: 'c', pinned: true }, deps(repo, 2))).session_id;
    await clockOut({ working_dir: repo.dir, session_id: a }, deps(repo, 3));
    expect(resolveSessionId(paths, undefined, {})).toBe(b);
    await clockOut({ working_dir: repo.dir, session_id: b }, deps(repo, 3));
    expect(resolveSessionId(paths, undefined, {})).toBeNull();
    expect(resolveSession(paths, {})).toMatchObject({ kind: 'none', candidates: [{ session_id: c, pinned: true }] });
    expect(resolveSessionId(paths, undefined, { HESTAI_SESSION: c })).toBe(c);
  });

  it('returns null without sessions and refuses a malformed id with exit 2', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    expect(resolveSessionId(paths, undefined, {})).toBeNull();
    expect(() => resolveSessionId(paths, '../x', {})).toThrow(/not a session id/);
    expect(() => resolveSessionId(paths, undefined, { HESTAI_SESSION: 'nope' })).toThrow(/HESTAI_SESSION/);
  });
});

describe('refreshSession and acknowledgeStale (CI-I2)', () => {
  it('regenerates the context with a new generation timestamp', async () => {
    const repo = makeRepo();
    const { session_id } = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo));
    repo.commit('feat: new work', { 'src/login.ts': 'x\n' });
    const res = await refreshSession({ working_dir: repo.dir }, deps(repo, 30));
    const generatedAt = new Date(Date.parse(T0) + 30 * 3_600_000).toISOString();
    expect(res).toMatchObject({
      session_id,
      previous_context_generated_at: T0,
      context_generated_at: generatedAt,
      focus_resolved: { value: 'login' },
    });
    expect(res.context.git.recent_commits[0]!.header).toBe('feat: new work');
    expect(res.context.selected.map((s) => s.path)).toContain('src/login.ts');
    const record = readSession(workspacePaths(repo.dir), session_id)!;
    expect(record).toMatchObject({ context_generated_at: generatedAt, last_activity: generatedAt, state: 'ACTIVE' });
    const focus = toObject(
      parseOctave(fs.readFileSync(path.join(repo.dir, '.hestai/context/state/current-focus.oct.md'), 'utf8')),
    );
    expect(focus['CONTEXT_GENERATED_AT']).toBe(generatedAt);
    const state = toObject(parseOctave(fs.readFileSync(workspacePaths(repo.dir).currentState, 'utf8')));
    expect(state).toMatchObject({ GENERATED_AT: generatedAt, SESSION_ID: session_id });
    expect(res.context_paths.current_state).toBe('.hestai/context/state/current-state.oct.md');
  });

  it('records an acknowledgment for the current generation, audited; an empty reason is exit 2', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const { session_id } = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    expect(await rejection(acknowledgeStale({ working_dir: repo.dir, reason: '  ' }, deps(repo, 30)))).toMatchObject({
      exitCode: 2,
      code: 'ACK_REASON_REQUIRED',
    });
    const res = await acknowledgeStale(
      { working_dir: repo.dir, reason: 'long review, context still valid' },
      deps(repo, 30),
    );
    expect(res).toMatchObject({ session_id, context_generated_at: T0, context_age_hours: 30, was_stale: true });
    const record = readSession(paths, session_id)!;
    expect(record.acknowledgments).toEqual([
      { at: at(30)().toISOString(), context_generated_at: T0, reason: 'long review, context still valid' },
    ]);
    expect(readJsonl(paths.auditLog)).toContainEqual(
      expect.objectContaining({
        event: 'stale_context_acknowledged',
        session_id,
        reason: 'long review, context still valid',
      }),
    );
    expect((await sessionStatus({ working_dir: repo.dir }, deps(repo, 31))).sessions[0]).toMatchObject({
      context_stale: false,
      acknowledged: true,
    });
    await refreshSession({ working_dir: repo.dir, session_id }, deps(repo, 32));
    expect((await sessionStatus({ working_dir: repo.dir }, deps(repo, 57))).sessions[0]).toMatchObject({
      context_stale: true,
      acknowledged: false,
    });
  });

  it('refuses to act on an unknown or STALE session', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    expect(await rejection(refreshSession({ working_dir: repo.dir }, deps(repo)))).toMatchObject({
      exitCode: 2,
      code: 'NO_SESSION',
    });
    const { session_id } = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    writeSession(paths, { ...readSession(paths, session_id)!, state: 'STALE' });
    expect(await rejection(refreshSession({ working_dir: repo.dir, session_id }, deps(repo)))).toMatchObject({
      exitCode: 1,
      code: 'SESSION_CLOSED',
    });
  });
});

describe('clockOut', () => {
  it('archives the session in OCTAVE with commits and anchor digest, then removes the active directory', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const { session_id } = await clockIn(
      { working_dir: repo.dir, role: 'implementation-lead', focus: 'login' },
      deps(repo),
    );
    anchorFor(paths, session_id, T0);
    const sha1 = repo.commit('test: login', { 'test/login.test.ts': 'x\n' });
    const sha2 = repo.commit('feat: login', { 'src/login.ts': 'x\n' });
    const res = await clockOut({ working_dir: repo.dir, summary: 'login done\nwith tests' }, deps(repo, 1.5));
    expect(res).toMatchObject({ session_id, duration: '1h 30m 0s', summary: 'login done with tests' });
    expect(res.commits).toEqual([
      { sha: sha1, header: 'test: login' },
      { sha: sha2, header: 'feat: login' },
    ]);
    const anchorDigestValue = res.anchor_digest;
    expect(anchorDigestValue).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(fs.existsSync(path.join(paths.active, session_id))).toBe(false);
    const archive = toObject(parseOctave(fs.readFileSync(path.join(repo.dir, res.archive_path), 'utf8')));
    expect(archive).toMatchObject({
      SESSION_ID: session_id,
      ROLE: 'implementation-lead',
      FOCUS: 'login',
      STARTED_AT: T0,
      ENDED_AT: at(1.5)().toISOString(),
      DURATION: '1h 30m 0s',
      SUMMARY: 'login done with tests',
      COMMITS: [`${sha1} test: login`, `${sha2} feat: login`],
      ANCHOR: anchorDigestValue,
      STATE: 'COMPLETED',
    });
    const focus = toObject(parseOctave(fs.readFileSync(paths.currentFocus, 'utf8')));
    expect(focus).toMatchObject({ STATUS: 'ENDED', SESSION_ID: session_id });
    expect(readJsonl(paths.auditLog)).toContainEqual(expect.objectContaining({ event: 'clock_out', session_id }));
    expect(await rejection(clockOut({ working_dir: repo.dir, session_id }, deps(repo, 2)))).toMatchObject({
      code: 'NO_SESSION',
    });
  });

  it("marks the session's checklist items DONE, or carries the named ones forward to its focus", async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const checklist = () => toObject(parseOctave(fs.readFileSync(paths.checklist, 'utf8')));
    const a = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo));
    const b = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'billing' }, deps(repo));
    const outA = await clockOut({ working_dir: repo.dir, session_id: a.session_id }, deps(repo, 1));
    expect(outA.checklist).toEqual({ done: ['session task: login'], carried_forward: [] });
    expect(checklist()).toMatchObject({ PENDING: ['session task: billing'], DONE: ['session task: login'] });
    const error = await rejection(
      clockOut({ working_dir: repo.dir, session_id: b.session_id, carry: ['no such item'] }, deps(repo, 1)),
    );
    expect(error).toMatchObject({ exitCode: 2, code: 'CHECKLIST_ITEM_UNKNOWN' });
    expect(error.remedy).toContain('session task: billing');
    expect(readSession(paths, b.session_id)).not.toBeNull();
    const outB = await clockOut(
      { working_dir: repo.dir, session_id: b.session_id, carry: ['session task: billing'] },
      deps(repo, 1),
    );
    expect(outB.checklist).toEqual({ done: [], carried_forward: ['session task: billing'] });
    expect(checklist()).toMatchObject({
      PENDING: ['session task: billing'],
      OWNERS: [['focus', 'billing']],
      DONE: ['session task: login'],
    });
    expect(readJsonl(paths.auditLog)).toContainEqual(
      expect.objectContaining({
        event: 'clock_out',
        session_id: b.session_id,
        checklist_carried: 1,
        checklist_done: 0,
      }),
    );
  });

  it('keeps the active session when the archive cannot be written', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const { session_id } = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    fs.writeFileSync(paths.archive, 'a file where the archive directory must go');
    expect(await rejection(clockOut({ working_dir: repo.dir }, deps(repo, 1)))).toMatchObject({
      exitCode: 2,
      code: 'STORAGE',
    });
    expect(readSession(paths, session_id)).not.toBeNull();
  });

  it('has no anchor digest for an unanchored session', async () => {
    const repo = makeRepo();
    await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    expect((await clockOut({ working_dir: repo.dir }, deps(repo, 0.01))).anchor_digest).toBeNull();
  });
});

describe('cleanupSessions (72 h / 30 days, thresholds from the workspace file)', () => {
  it('marks inactive sessions STALE, archives stale sessions and deletes expired archives', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const old = (await clockIn({ working_dir: repo.dir, role: 'a' }, deps(repo, 0))).session_id;
    const done = (await clockIn({ working_dir: repo.dir, role: 'b' }, deps(repo, 0))).session_id;
    await clockOut({ working_dir: repo.dir, session_id: done }, deps(repo, 1));
    // Written directly: a clock-in would itself archive and delete (see clock-in.test.ts).
    const later = at(24 * 31)().toISOString();
    const fresh = seedSession(repo.dir, {
      role: 'c',
      state: 'CREATED',
      started_at: later,
      last_activity: later,
      context_generated_at: later,
    }).session_id;
    fs.writeFileSync(path.join(paths.archive, 'unreadable.oct.md'), 'garbage');
    const res = await cleanupSessions({ working_dir: repo.dir }, deps(repo, 24 * 31 + 1));
    expect(res.marked_stale).toEqual([old]);
    expect(res.archived.map((a) => a.session_id)).toEqual([old]);
    expect(res.deleted_archives).toHaveLength(1);
    expect(res.deleted_archives[0]).toContain(done);
    expect(res.problems).toEqual([expect.objectContaining({ file: expect.stringContaining('unreadable.oct.md') })]);
    expect(res.thresholds).toEqual({ stale_session_hours: 72, archive_retention_days: 30, source: 'defaults' });
    expect(fs.existsSync(path.join(paths.active, old))).toBe(false);
    expect(readSession(paths, fresh)!.state).toBe('CREATED');
    expect(fs.existsSync(path.join(paths.archive, 'unreadable.oct.md'))).toBe(true);
    const archived = toObject(parseOctave(fs.readFileSync(path.join(repo.dir, res.archived[0]!.archive_path), 'utf8')));
    expect(archived).toMatchObject({ SESSION_ID: old, STATE: 'STALE' });
  });

  it('uses the thresholds from .hestai_workspace.yaml', async () => {
    const repo = makeRepo();
    repo.write('.hestai_workspace.yaml', 'cleanup:\n  stale_session_hours: 1\n  archive_retention_days: 1\n');
    const s = (await clockIn({ working_dir: repo.dir, role: 'a' }, deps(repo, 0))).session_id;
    const res = await cleanupSessions({ working_dir: repo.dir }, deps(repo, 2));
    expect(res.marked_stale).toEqual([s]);
    expect(res.archived.map((a) => a.session_id)).toEqual([s]);
    expect(res.thresholds).toEqual({
      stale_session_hours: 1,
      archive_retention_days: 1,
      source: '.hestai_workspace.yaml',
    });
    expect((await cleanupSessions({ working_dir: repo.dir }, deps(repo, 2 + 24))).deleted_archives).toEqual([]);
    expect((await cleanupSessions({ working_dir: repo.dir }, deps(repo, 2 + 25))).deleted_archives).toHaveLength(1);
    expect(readJsonl(workspacePaths(repo.dir).auditLog)).toContainEqual(
      expect.objectContaining({ event: 'archive_deleted' }),
    );
  });
});

describe('sessionStatus (the dashboard data)', () => {
  it('shows sessions with binding state, context age and the hooks of this worktree', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const a = (await clockIn({ working_dir: repo.dir, role: 'a', focus: 'x' }, deps(repo, 0))).session_id;
    const b = (await clockIn({ working_dir: repo.dir, role: 'b' }, deps(repo, 1))).session_id;
    anchorFor(paths, a, T0);
    const hooks = repo.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).stdout.trim();
    fs.writeFileSync(path.join(hooks, 'pre-commit'), '#!/bin/sh\nexec hestai check pre-commit\n', { mode: 0o755 });
    const status = await sessionStatus({ working_dir: repo.dir }, deps(repo, 25));
    expect(status.current_session).toEqual(null);
    const sa = status.sessions.find((s) => s.session_id === a)!;
    expect(sa).toMatchObject({
      role: 'a',
      focus: 'x',
      state: 'CREATED',
      context_age_hours: 25,
      context_stale: true,
      binding: { valid: true },
    });
    expect(sa.binding.anchor_digest).toBe(anchorDigest(JSON.parse(fs.readFileSync(anchorFile(paths, a), 'utf8'))));
    expect(status.sessions.find((s) => s.session_id === b)).toMatchObject({
      context_age_hours: 24,
      context_stale: false,
      binding: { valid: false, code: 'NO_ANCHOR' },
    });
    expect(status.hooks).toMatchObject({ dir: hooks, pre_commit: true, commit_msg: false });
    expect(status.thresholds).toMatchObject({ max_context_age_hours: 24, stale_session_hours: 72 });
    expect(status.archives).toBe(0);
  });
});

describe('markSessionWorking (a bound session is ACTIVE)', () => {
  it('moves CREATED to ACTIVE without moving last_activity backwards, and leaves closed sessions alone', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const created = seedSession(repo.dir, { state: 'CREATED', last_activity: '2026-11-22T12:00:00.000Z' });
    await markSessionWorking(paths, created.session_id, '2026-11-22T11:00:00.000Z');
    expect(readSession(paths, created.session_id)).toMatchObject({
      state: 'ACTIVE',
      last_activity: '2026-11-22T12:00:00.000Z',
    });
    await markSessionWorking(paths, created.session_id, '2026-11-22T13:00:00.000Z');
    expect(readSession(paths, created.session_id)!.last_activity).toBe('2026-11-22T13:00:00.000Z');
    const stale = seedSession(repo.dir, { state: 'STALE' });
    await markSessionWorking(paths, stale.session_id, '2026-11-22T13:00:00.000Z');
    expect(readSession(paths, stale.session_id)).toEqual(stale);
  });
});
