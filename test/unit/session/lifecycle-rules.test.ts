import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../src/records/session.js';
import {
  anchoredAndFresh,
  contextAgeHours,
  isArchiveExpired,
  isContextOld,
  isContextStale,
  isInactive,
  sessionsToMarkStale,
} from '../../../src/records/freshness.js';
import { conflictError, conflictsOf, detectConflicts, focusRelation } from '../../../src/session/rules/conflict.js';
import { sessionRecord } from '../../helpers/records.js';

const T0 = Date.parse('2026-01-10T12:00:00.000Z');
const H = 3_600_000;

const session = (id: string, overrides: Partial<SessionRecord> = {}) =>
  sessionRecord({ session_id: id, ...overrides }, new Date(T0).toISOString());

describe('72 h inactivity', () => {
  it('is inactive strictly after the threshold', () => {
    const s = session('a');
    expect(isInactive(s, new Date(T0 + 72 * H), 72)).toBe(false);
    expect(isInactive(s, new Date(T0 + 72 * H + 1), 72)).toBe(true);
    expect(isInactive(s, new Date(T0 + 5 * H + 1), 5)).toBe(true);
  });

  it('a session whose last activity cannot be read is never inactive', () => {
    expect(isInactive(session('a', { last_activity: 'garbage' }), new Date(T0 + 1000 * H), 72)).toBe(false);
  });

  it('selects live sessions to mark STALE, never ones already closed', () => {
    const now = new Date(T0 + 100 * H);
    const list = [
      session('old'),
      session('fresh', { last_activity: new Date(T0 + 99 * H).toISOString() }),
      session('already', { state: 'STALE' }),
      session('created', { state: 'CREATED' }),
    ];
    expect(sessionsToMarkStale(list, now, 72).map((s) => s.session_id)).toEqual(['old', 'created']);
  });

  it('never marks STALE a neighbour still within its own validity (anchored, context fresh or acknowledged)', () => {
    const now = new Date(T0 + 100 * H);
    const list = [session('anchored'), session('unanchored'), session('anchored-but-old')];
    const anchored = new Set(['anchored', 'anchored-but-old']);
    const within = anchoredAndFresh((id) => anchored.has(id), now, 200);
    expect(sessionsToMarkStale(list, now, 72, within).map((s) => s.session_id)).toEqual(['unanchored']);
    const tight = anchoredAndFresh((id) => anchored.has(id), now, 24);
    expect(sessionsToMarkStale(list, now, 72, tight).map((s) => s.session_id)).toEqual([
      'anchored',
      'unanchored',
      'anchored-but-old',
    ]);
  });
});

describe('30-day archive retention', () => {
  it('expires strictly after the retention', () => {
    const ended = new Date(T0).toISOString();
    expect(isArchiveExpired(ended, new Date(T0 + 30 * 24 * H), 30)).toBe(false);
    expect(isArchiveExpired(ended, new Date(T0 + 30 * 24 * H + 1), 30)).toBe(true);
    expect(isArchiveExpired(ended, new Date(T0 + 2 * 24 * H + 1), 2)).toBe(true);
  });

  it('never expires an archive whose date cannot be read', () => {
    expect(isArchiveExpired('not a date', new Date(T0), 30)).toBe(false);
  });
});

describe('24 h context freshness', () => {
  it('measures the age of the context generation, not the session start', () => {
    const s = session('a', { started_at: new Date(T0 - 100 * H).toISOString() });
    expect(contextAgeHours(s, new Date(T0 + 6 * H))).toBe(6);
    expect(isContextStale(s, new Date(T0 + 24 * H), 24)).toBe(false);
    expect(isContextStale(s, new Date(T0 + 24 * H + 1), 24)).toBe(true);
  });

  it('is not stale once the current generation is acknowledged, for one freshness period from the acknowledgment', () => {
    const at = new Date(T0).toISOString();
    const ackAt = new Date(T0 + 25 * H).toISOString();
    const acked = session('a', { acknowledgments: [{ at: ackAt, context_generated_at: at, reason: 'long review' }] });
    expect(isContextStale(acked, new Date(T0 + 48 * H), 24)).toBe(false);
    expect(isContextStale(acked, new Date(T0 + 49 * H), 24)).toBe(false);
    expect(isContextStale(acked, new Date(T0 + 49 * H + 1000), 24)).toBe(true);
    const oldAck = session('a', {
      acknowledgments: [{ at, context_generated_at: new Date(T0 - H).toISOString(), reason: 'earlier generation' }],
    });
    expect(isContextStale(oldAck, new Date(T0 + 48 * H), 24)).toBe(true);
  });

  it('is old strictly after the threshold whether or not it was acknowledged', () => {
    const at = new Date(T0).toISOString();
    const acked = session('a', { acknowledgments: [{ at, context_generated_at: at, reason: 'long review' }] });
    expect(isContextOld(acked, new Date(T0 + 24 * H), 24)).toBe(false);
    expect(isContextOld(acked, new Date(T0 + 24 * H + 1), 24)).toBe(true);
    expect(isContextOld(session('b'), new Date(T0 + 2 * H + 1), 2)).toBe(true);
  });
});

describe('focusRelation (CI-I5: a conflict is a conflicting focus)', () => {
  it('is "same" for the same focus, whatever the case and spacing', () => {
    expect(focusRelation('  Fix Login ', 'fix   login\t')).toBe('same');
    expect(focusRelation('general', 'general')).toBe('same');
  });

  it('is "related" when the foci share a significant word or an issue number', () => {
    expect(focusRelation('login page', 'login api')).toBe('related');
    expect(focusRelation('feat: session cleanup', 'document the sessions')).toBe('related');
    expect(focusRelation('#42: parser crash', 'GitHub issue #42')).toBe('related');
    expect(focusRelation('issue-42 docs', '#42: parser crash')).toBe('related');
    expect(focusRelation('the anchor handshake', 'anchor')).toBe('related');
  });

  it('is "unrelated" otherwise: generic verbs, commit types and short words do not relate two foci', () => {
    expect(focusRelation('fix login', 'fix logout')).toBe('unrelated');
    expect(focusRelation('general', 'login page')).toBe('unrelated');
    expect(focusRelation('implement the parser', 'implement a cache')).toBe('unrelated');
    expect(focusRelation('feat: ui for db', 'feat: ui for api')).toBe('unrelated');
    expect(focusRelation('#42: parser', '#43: parser')).toBe('related');
    expect(focusRelation('#42: lexer', '#43: parser')).toBe('unrelated');
  });
});

describe('detectConflicts (CI-I5)', () => {
  it('lists every live neighbour, most recent first, with how its focus relates to ours', () => {
    const list = [
      session('a', { started_at: new Date(T0 - 2 * H).toISOString(), focus: 'login' }),
      session('b', { started_at: new Date(T0 - H).toISOString(), focus: 'other', role: 'tester' }),
      session('c', { state: 'STALE' }),
      session('d', { state: 'COMPLETED' }),
      session('e', { started_at: new Date(T0 - 3 * H).toISOString(), focus: 'login form' }),
    ];
    const neighbours = detectConflicts(list, 'login');
    expect(neighbours.map((c) => c.existing_session_id)).toEqual(['b', 'a', 'e']);
    expect(neighbours[0]).toMatchObject({ existing_role: 'tester', existing_focus: 'other', relation: 'unrelated' });
    expect(neighbours[1]).toMatchObject({ relation: 'same', started_at: new Date(T0 - 2 * H).toISOString() });
    expect(neighbours[2]).toMatchObject({ relation: 'related' });
  });

  it('is empty without live neighbours', () => {
    expect(detectConflicts([session('x', { state: 'STALE' })], 'general')).toEqual([]);
  });
});

describe('conflictsOf (CI-I5)', () => {
  it('keeps the neighbours whose focus conflicts: the same focus first, then related ones, most recent first', () => {
    const list = [
      session('a', { started_at: new Date(T0 - 3 * H).toISOString(), focus: 'login' }),
      session('b', { started_at: new Date(T0 - H).toISOString(), focus: 'login form' }),
      session('c', { started_at: new Date(T0 - 2 * H).toISOString(), focus: 'billing' }),
      session('d', { started_at: new Date(T0 - 4 * H).toISOString(), focus: 'Login' }),
    ];
    expect(conflictsOf(detectConflicts(list, 'login')).map((c) => c.existing_session_id)).toEqual(['a', 'd', 'b']);
    expect(conflictsOf(detectConflicts(list, 'payroll'))).toEqual([]);
  });
});

describe('conflictError (on_conflict: abort)', () => {
  it('blocks (exit 1) naming the most recent neighbour, listing every one, and saying how to proceed', () => {
    const list = [
      session('a', { started_at: new Date(T0 - 2 * H).toISOString(), focus: 'login', role: 'dev' }),
      session('b', { started_at: new Date(T0 - H).toISOString(), focus: 'login page', role: 'tester' }),
      session('c', { started_at: new Date(T0 - H).toISOString(), focus: 'billing', role: 'tester' }),
    ];
    const error = conflictError(conflictsOf(detectConflicts(list, 'login')));
    expect(error.exitCode).toBe(1);
    expect(error.code).toBe('SESSION_CONFLICT');
    expect(error.message).toBe(
      `another session works on the same focus in this worktree: a (dev, focus "login", started ${new Date(T0 - 2 * H).toISOString()}); no session was created`,
    );
    expect(error.details).toEqual([
      `a: dev, "login" (same focus), started ${new Date(T0 - 2 * H).toISOString()}`,
      `b: tester, "login page" (related focus), started ${new Date(T0 - H).toISOString()}`,
    ]);
    expect(error.remedy).toBe(
      'Clock in with --on-conflict continue to work alongside it (and decide later with "hestai conflict takeover" or "hestai conflict abort"), or with --on-conflict takeover to mark it STALE and take over.',
    );
  });
});
