import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, verdictOf } from '../helpers/anchored-repo.js';
import { makeRepo, sharedFixture, tempDir } from '../helpers/git-repo.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 7 (part): HESTAI_NOW must be an ISO-8601 instant; anything Date.parse merely tolerates
// ("1", "Tuesday 2026", a date without a time) is exit 2, never a silently shifted clock.

describe('time: HESTAI_NOW', () => {
  for (const value of ['1', 'Tue, 10 Nov 2026', '2026-11-10', 'December 17, 1995 03:24:00']) {
    it(`refuses HESTAI_NOW=${JSON.stringify(value)} with exit 2`, () => {
      const repo = makeRepo();
      const result = hestai(repo, ['status'], { HESTAI_NOW: value });
      noStack(result);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/HESTAI_NOW is not an ISO-8601 instant/);
    });
  }

  it('accepts a full ISO-8601 instant with a zone', () => {
    const repo = makeRepo();
    expect(hestai(repo, ['status'], { HESTAI_NOW: '2026-11-10T12:00:00+01:00' }).status).toBe(0);
  });
});

// Issue 12, item 7 (the rest): an acknowledgment is accepted only for stale context and covers one freshness
// period; the git hooks never honour HESTAI_NOW silently (the commit records it, verify reports it) and the
// agent-runtime hooks ignore it; one clock-in after a long absence does not mark neighbours STALE whose
// anchors are still valid; a clock set backwards does not revive an expired handshake.

const HOUR = 3_600_000;
const ROLE = 'implementation-lead';

function payloadFile(text: string): string {
  const file = path.join(tempDir('hestai-payload-'), 'payload.oct');
  fs.writeFileSync(file, text);
  return file;
}
const BIND = `## BIND (Identity Lock)\nROLE::${ROLE}\nCOGNITION::LOGOS::HEPHAESTUS+ATHENA\nAUTHORITY::RESPONSIBLE[anchored work]\n`;

// An adopted repository anchored on main through the CLI ceremony: built once, each test gets its own copy.
const anchoredOnMain = sharedFixture(() => {
  const repo = anchoredRepo();
  return { repo, token: repo.anchor() };
});

describe('time: acknowledgments', () => {
  it('ack is refused while the context is fresh (nothing to acknowledge), and nothing is recorded', () => {
    const { repo, token } = anchoredOnMain();
    const at = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
    const early = repo.hestai(['ack', '--session', token, '--reason', 'just in case'], { env: { HESTAI_NOW: at(2) } });
    noStack(early);
    expect(early.status).toBe(1);
    expect(early.stderr).toMatch(/not stale/);
    expect(early.stderr).toMatch(/hint: /);
    const session = JSON.parse(
      fs.readFileSync(path.join(repo.dir, '.hestai/sessions/active', token, 'session.json'), 'utf8'),
    ) as { acknowledgments: unknown[] };
    expect(session.acknowledgments).toEqual([]);
    expect(fs.readFileSync(path.join(repo.dir, '.hestai/audit/audit.jsonl'), 'utf8')).not.toContain(
      'stale_context_acknowledged',
    );
  });

  it('an ack covers one freshness period: a day after it the context is stale again, for the hooks and for verify', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/ack']);
    const token = repo.anchor();
    const at = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
    expect(repo.commitHooked('docs: stale', { 'docs/a.md': '0\n' }, { HESTAI_NOW: at(25) }).status).toBe(1);
    const ack = repo.hestai(['ack', '--session', token, '--reason', 'reviewed'], { env: { HESTAI_NOW: at(25) } });
    expect(ack.status, ack.stderr).toBe(0);
    // A second ack while the first still covers the context is refused: it is not stale.
    expect(repo.hestai(['ack', '--session', token, '--reason', 'again'], { env: { HESTAI_NOW: at(30) } }).status).toBe(
      1,
    );
    const inside = { HESTAI_NOW: at(48), GIT_COMMITTER_DATE: at(48) };
    expect(repo.commitHooked('docs: covered', { 'docs/a.md': '1\n' }, inside).status).toBe(0);
    const later = repo.commitHooked('docs: a day after the ack', { 'docs/a.md': '2\n' }, { HESTAI_NOW: at(50) });
    expect(later.status).toBe(1);
    expect(later.stderr).toMatch(/not acknowledged|acknowledg/);

    // CI holds the record to the same rule: a commit whose hook clock lied (49 h) but git dated 51 h fails.
    const lied = { HESTAI_NOW: at(48.5), GIT_COMMITTER_DATE: at(51) };
    expect(repo.commitHooked('docs: dated past the ack', { 'docs/a.md': '3\n' }, lied).status).toBe(0);
    expect(repo.git(['push', '-q', 'origin', 'feat/ack'], { allowFail: true }).status).toBe(0);
    const { report } = repo.verifyJson(repo.freshClone('feat/ack'));
    expect(verdictOf(report, 'docs: covered', 'anchor')?.status).toBe('pass');
    expect(verdictOf(report, 'docs: dated past the ack', 'anchor')?.status).toBe('fail');
  });
});

describe('time: HESTAI_NOW in the hooks', () => {
  it('a commit made through the git hooks with HESTAI_NOW says so, carries HestAI-Clock, and verify reports it', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/clock']);
    repo.anchor();
    const pinned = new Date(Date.now() + 2 * HOUR).toISOString();
    const made = repo.commitHooked('docs: pinned clock', { 'docs/a.md': '1\n' }, { HESTAI_NOW: pinned });
    expect(made.status, made.stderr).toBe(0);
    expect(made.stderr).toMatch(/HESTAI_NOW/);
    const message = repo.git(['log', '-1', '--format=%B']).stdout;
    expect(message).toContain(`HestAI-Clock: ${pinned}`);
    expect(repo.commitHooked('docs: real clock', { 'docs/b.md': '1\n' }).status).toBe(0);
    expect(repo.git(['log', '-1', '--format=%B']).stdout).not.toContain('HestAI-Clock');
    expect(repo.git(['push', '-q', 'origin', 'feat/clock'], { allowFail: true }).status).toBe(0);
    const { report } = repo.verifyJson(repo.freshClone('feat/clock'));
    expect(verdictOf(report, 'docs: pinned clock', 'clock')).toMatchObject({ status: 'warn' });
    expect(verdictOf(report, 'docs: pinned clock', 'clock')?.message).toContain(pinned);
    expect(verdictOf(report, 'docs: real clock', 'clock')).toBeUndefined();
  });

  it('the agent-runtime hooks ignore HESTAI_NOW: a stale context is not made fresh by pinning the clock back', () => {
    const { repo, token } = anchoredOnMain();
    // The context was generated 30 h ago (a refresh run with the clock pinned back; the CLI honours it).
    const back = (h: number) => new Date(Date.now() - h * HOUR).toISOString();
    expect(repo.hestai(['refresh', '--session', token], { env: { HESTAI_NOW: back(30) } }).status).toBe(0);
    const use = JSON.stringify({ tool: 'Write', paths: ['src/a.ts'], hestai_session: token });
    const pinnedBack = repo.hestai(['check', 'tool-use', '--json'], { env: { HESTAI_NOW: back(29) }, input: use });
    expect(pinnedBack.status, pinnedBack.stdout + pinnedBack.stderr).not.toBe(0);
    expect(pinnedBack.stdout + pinnedBack.stderr).toMatch(/STALE|stale|generated 30 h ago/);
  });
});

/** Clocks in and passes the identity stage at `now` (HESTAI_NOW); returns the session id. */
function clockInAndIdentity(repo: ReturnType<typeof anchoredRepo>, now: string): string {
  const clock = repo.hestai(['--json', 'clock-in', '--role', ROLE], { env: { HESTAI_NOW: now } });
  const token = (JSON.parse(clock.stdout) as { session_id: string }).session_id;
  expect(
    repo.hestai(['anchor', '--stage', 'identity', '--role', ROLE, '--token', token], { env: { HESTAI_NOW: now } })
      .status,
  ).toBe(0);
  return token;
}

// A session clocked in and past its identity stage at T0 (HESTAI_NOW): built once, copied per test.
const T0 = '2026-11-20T10:00:00.000Z';
const identityAtT0 = sharedFixture(() => {
  const repo = anchoredRepo();
  return { repo, token: clockInAndIdentity(repo, T0) };
});

describe('time: neighbours and clocks', () => {
  it('one clock-in after a long absence does not mark STALE a neighbour whose anchor is still within its validity', () => {
    const repo = anchoredRepo('freshness:\n  max_age_hours: 200\n');
    const anchored = repo.anchor();
    const idle = repo.hestai(['--json', 'clock-in', '--role', 'system-steward', '--focus', 'idle work']);
    expect(idle.status, idle.stderr).toBe(0);
    const idleId = (JSON.parse(idle.stdout) as { session_id: string }).session_id;
    const later = new Date(Date.now() + 100 * HOUR).toISOString();
    const back = repo.hestai(
      ['--json', 'clock-in', '--role', 'implementation-lead', '--focus', 'back again', '--on-stale', 'cleanup'],
      {
        env: { HESTAI_NOW: later },
      },
    );
    expect(back.status, back.stderr).toBe(0);
    const marked = (JSON.parse(back.stdout) as { stale_sessions: { session_id: string }[] }).stale_sessions.map(
      (s) => s.session_id,
    );
    expect(marked).toContain(idleId);
    expect(marked).not.toContain(anchored);
    const state = (id: string) =>
      (
        JSON.parse(fs.readFileSync(path.join(repo.dir, '.hestai/sessions/active', id, 'session.json'), 'utf8')) as {
          state: string;
        }
      ).state;
    expect(state(anchored)).toBe('ACTIVE');
    // The idle one was marked STALE and, as the caller chose cleanup, archived.
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', idleId))).toBe(false);
  });

  it('an idle neighbour whose anchor is still within its validity is not stale: no offer, nothing archived', () => {
    const repo = anchoredRepo('freshness:\n  max_age_hours: 200\n');
    const anchored = repo.anchor();
    const later = new Date(Date.now() + 100 * HOUR).toISOString();
    const back = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead', '--focus', 'back again'], {
      env: { HESTAI_NOW: later },
    });
    expect(back.status, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ stale_sessions: [], stale_decision: null });
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', anchored))).toBe(true);
  });

  it('a clock set back after an expiry was seen does not revive the handshake', () => {
    const { repo, token } = identityAtT0();
    const at = (m: number) => new Date(Date.parse(T0) + m * 60_000).toISOString();
    const bind = payloadFile(BIND);
    const context = (now: string) =>
      repo.hestai(['--json', 'anchor', '--stage', 'context', '--token', token, '--payload-file', bind], {
        env: { HESTAI_NOW: now },
      });
    const expired = context(at(120));
    expect(expired.status).toBe(1);
    expect(expired.stdout).toContain('TOKEN_EXPIRED');
    const revived = context(at(30));
    expect(revived.status, revived.stdout).toBe(1);
    expect(revived.stdout).toContain('TOKEN_EXPIRED');
  });

  it('a clock set earlier than a time the session recorded does not revive the handshake', () => {
    const { repo, token } = identityAtT0();
    const at = (m: number) => new Date(Date.parse(T0) + m * 60_000).toISOString();
    // Two hours later the session refreshes its context: a recorded time past the handshake's expiry.
    expect(repo.hestai(['refresh', '--session', token], { env: { HESTAI_NOW: at(120) } }).status).toBe(0);
    const bind = payloadFile(BIND);
    const revived = repo.hestai(['--json', 'anchor', '--stage', 'context', '--token', token, '--payload-file', bind], {
      env: { HESTAI_NOW: at(30) },
    });
    expect(revived.status, revived.stdout).toBe(1);
    expect(revived.stdout).toContain('TOKEN_EXPIRED');
  });
});
