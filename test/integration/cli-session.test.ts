import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

const T0 = '2026-01-10T12:00:00.000Z';

function run(repo: TempRepo, args: string[], now = T0, extra: NodeJS.ProcessEnv = {}) {
  return repo.hestai(args, { env: { HESTAI_NOW: now, PATH: pathWithoutGh(), ...extra } });
}

function json<T = Record<string, unknown>>(stdout: string): T {
  return JSON.parse(stdout) as T;
}

describe('hestai clock-in / status / ack / refresh / clock-out / cleanup', () => {
  it('runs the whole lifecycle through the built CLI', () => {
    const repo = makeRepo();
    const inRes = run(repo, ['clock-in', '--role', 'implementation-lead', '--focus', 'ship it', '--json']);
    expect(inRes.status).toBe(0);
    const clock = json<{
      session_id: string;
      context_generated_at: string;
      focus_resolved: { value: string };
      selection: { method: string };
    }>(inRes.stdout);
    expect(clock).toMatchObject({
      context_generated_at: T0,
      focus_resolved: { value: 'ship it' },
      selection: { method: 'deterministic' },
    });

    const status = run(repo, ['status', '--json'], '2026-01-11T13:00:00.000Z');
    expect(status.status).toBe(0);
    expect(json(status.stdout)).toMatchObject({
      current_session: { session_id: clock.session_id, source: 'only' },
      sessions: [
        {
          session_id: clock.session_id,
          context_age_hours: 25,
          context_stale: true,
          binding: { valid: false, code: 'NO_ANCHOR' },
        },
      ],
    });
    const statusText = run(repo, ['status'], '2026-01-11T13:00:00.000Z');
    expect(statusText.stdout).toContain(clock.session_id);
    expect(statusText.stdout).toMatch(/stale/i);
    expect(statusText.stdout).toMatch(/hooks:/);

    const noReason = run(repo, ['ack', '--reason', '   ']);
    expect(noReason.status).toBe(2);
    expect(noReason.stderr).toContain('reason');
    const ack = run(repo, ['ack', '--reason', 'reviewed, still valid', '--json'], '2026-01-11T13:00:00.000Z');
    expect(ack.status).toBe(0);
    expect(json(ack.stdout)).toMatchObject({ session_id: clock.session_id, was_stale: true });

    const refresh = run(repo, ['refresh', '--session', clock.session_id, '--json'], '2026-01-11T14:00:00.000Z');
    expect(refresh.status).toBe(0);
    expect(json(refresh.stdout)).toMatchObject({
      context_generated_at: '2026-01-11T14:00:00.000Z',
      previous_context_generated_at: T0,
    });

    const out = run(repo, ['clock-out', '--summary', 'shipped', '--json'], '2026-01-11T15:00:00.000Z');
    expect(out.status).toBe(0);
    const archive = json<{ archive_path: string; duration: string }>(out.stdout);
    expect(archive.duration).toBe('27h 0m 0s');
    expect(fs.existsSync(path.join(repo.dir, archive.archive_path))).toBe(true);

    const cleanup = run(repo, ['cleanup', '--json'], '2026-03-01T00:00:00.000Z');
    expect(cleanup.status).toBe(0);
    expect(json<{ deleted_archives: string[] }>(cleanup.stdout).deleted_archives).toEqual([archive.archive_path]);
  });

  it('prints a readable clock-in in text mode', () => {
    const repo = makeRepo();
    const res = run(repo, ['clock-in', '--role', 'tester']);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/session [0-9a-f-]{36}/);
    expect(res.stdout).toContain('focus: general (default)');
    expect(res.stdout).toContain('Read context_paths');
  });

  it('exits 2 on an invalid role, an unknown conflict mode or a malformed session id', () => {
    const repo = makeRepo();
    const badRole = run(repo, ['clock-in', '--role', 'Not Valid']);
    expect(badRole.status).toBe(2);
    expect(badRole.stderr).toContain('invalid role');
    expect(badRole.stderr).toContain('hint:');
    expect(run(repo, ['clock-in', '--role', 'x', '--on-conflict', 'later']).status).toBe(2);
    expect(run(repo, ['clock-in']).status).toBe(2);
    expect(run(repo, ['refresh', '--session', 'nope']).status).toBe(2);
    expect(run(repo, ['clock-out']).status).toBe(2);
  });

  it('exits 1 when aborting on a conflict, and prints one JSON error document', () => {
    const repo = makeRepo();
    expect(run(repo, ['clock-in', '--role', 'a']).status).toBe(0);
    const res = run(repo, ['clock-in', '--role', 'b', '--on-conflict', 'abort', '--json']);
    expect(res.status).toBe(1);
    expect(json(res.stdout)).toMatchObject({ ok: false, error: { code: 'SESSION_CONFLICT' } });
    expect(
      fs.readdirSync(path.join(repo.dir, '.hestai/sessions/active')).filter((n) => !n.startsWith('.')),
    ).toHaveLength(1);
  });

  it('honours --cwd, --model and HESTAI_SESSION', () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'sub'));
    const a = json<{ session_id: string }>(
      run(repo, ['--cwd', path.join(repo.dir, 'sub'), 'clock-in', '--role', 'a', '--model', 'm-1', '--json']).stdout,
    );
    run(repo, ['clock-in', '--role', 'b'], '2026-01-10T13:00:00.000Z');
    const record = JSON.parse(
      fs.readFileSync(path.join(repo.dir, '.hestai/sessions/active', a.session_id, 'session.json'), 'utf8'),
    ) as { model: string };
    expect(record.model).toBe('m-1');
    const out = run(repo, ['clock-out', '--json'], '2026-01-10T14:00:00.000Z', { HESTAI_SESSION: a.session_id });
    expect(json(out.stdout)).toMatchObject({ session_id: a.session_id });
  });
});
