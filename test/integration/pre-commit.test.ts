import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorFile } from '../../src/records/anchor.js';
import { workspacePaths } from '../../src/paths.js';
import { readSession, writeSession } from '../../src/records/session.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeSession, runHook } from '../helpers/session-fixture.js';

const T0 = '2026-03-01T10:00:00.000Z';
const plus = (hours: number) => new Date(Date.parse(T0) + hours * 3_600_000).toISOString();

describe('pre-commit hook', () => {
  it('blocks without a session and says to clock in', () => {
    const repo = makeRepo();
    const result = runHook('pre-commit', repo.dir, repo.env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('no active session');
    expect(result.stderr).toContain('hestai clock-in --role');
  });

  it('blocks a session without an anchor and names the anchor command with its token', () => {
    const repo = makeRepo();
    const { token } = makeSession(repo.dir, { anchored: false });
    const result = runHook('pre-commit', repo.dir, repo.env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(token);
    expect(result.stderr).toContain(`hestai anchor --stage identity --role implementation-lead --token ${token}`);
  });

  it('passes with a valid anchor and names the session it used', () => {
    const repo = makeRepo();
    const { token } = makeSession(repo.dir);
    const result = runHook('pre-commit', repo.dir, repo.env);
    expect(result.stderr).toContain(token);
    expect(result.status).toBe(0);
  });

  it('never picks one of several live sessions (not even the most recently anchored); HESTAI_SESSION names yours', () => {
    const repo = makeRepo();
    const older = makeSession(repo.dir, { generatedAt: T0, validatedAt: plus(1) });
    const newer = makeSession(repo.dir, { generatedAt: T0, validatedAt: plus(2) });
    const unanchored = makeSession(repo.dir, { anchored: false, generatedAt: plus(3) });
    const env = { ...repo.env, HESTAI_NOW: plus(4) };
    const refused = runHook('pre-commit', repo.dir, env);
    expect(refused.status).toBe(1);
    for (const s of [older, newer, unanchored]) expect(refused.stderr).toContain(s.token);
    expect(refused.stderr).toContain('HESTAI_SESSION=');
    const chosen = runHook('pre-commit', repo.dir, { ...env, HESTAI_SESSION: older.token });
    expect(chosen.status).toBe(0);
    expect(chosen.stderr).toContain(older.token);
    expect(chosen.stderr).toContain('HESTAI_SESSION');
  });

  it('never lets a STALE session (taken over or inactive) authorise a commit, even with a valid anchor', () => {
    const repo = makeRepo();
    const old = makeSession(repo.dir, { session: { state: 'STALE' } });
    const onlyStale = runHook('pre-commit', repo.dir, repo.env);
    expect(onlyStale.status).toBe(1);
    expect(onlyStale.stderr).toContain('no active session');

    const fresh = makeSession(repo.dir, { anchored: false });
    const result = runHook('pre-commit', repo.dir, repo.env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`checking session ${fresh.token}`);
    expect(result.stderr).not.toContain(old.token);

    const named = runHook('pre-commit', repo.dir, { ...repo.env, HESTAI_SESSION: old.token });
    expect(named.status).toBe(1);
    expect(named.stderr).toContain(`session ${old.token} is STALE`);
    expect(named.stderr).toContain('hestai clock-in');
  });

  it('blocks when HESTAI_SESSION names no active session', () => {
    const repo = makeRepo();
    makeSession(repo.dir);
    const result = runHook('pre-commit', repo.dir, {
      ...repo.env,
      HESTAI_SESSION: '6f1c2a8e-1b2c-4d3e-8f90-0a1b2c3d4e5f',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('HESTAI_SESSION');
  });

  it('blocks an anchor edited after validation (integrity)', () => {
    const repo = makeRepo();
    const { token } = makeSession(repo.dir);
    const file = anchorFile(workspacePaths(repo.dir), token);
    const anchor = JSON.parse(fs.readFileSync(file, 'utf8'));
    anchor.role = 'someone-else';
    fs.writeFileSync(file, JSON.stringify(anchor));
    const result = runHook('pre-commit', repo.dir, { ...repo.env, HESTAI_SESSION: token });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('integrity');
    expect(result.stderr).toContain('hestai anchor --stage identity');
  });

  it('blocks a session whose handshake is terminal and says a human must reset it', () => {
    const repo = makeRepo();
    const { token } = makeSession(repo.dir);
    const pending = path.join(workspacePaths(repo.dir).pending, token);
    fs.mkdirSync(pending, { recursive: true });
    fs.writeFileSync(path.join(pending, 'handshake.json'), JSON.stringify({ token, stage: 'CONTEXT', terminal: true }));
    const result = runHook('pre-commit', repo.dir, repo.env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('terminal');
    expect(result.stderr).toContain(`hestai anchor reset --token ${token}`);
  });

  it('blocks context older than 24 h until it is acknowledged for that generation', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const { token } = makeSession(repo.dir, { generatedAt: T0 });
    const fresh = runHook('pre-commit', repo.dir, { ...repo.env, HESTAI_NOW: plus(23) });
    expect(fresh.status).toBe(0);
    const stale = runHook('pre-commit', repo.dir, { ...repo.env, HESTAI_NOW: plus(25) });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('25 h');
    expect(stale.stderr).toContain(`hestai refresh --session ${token}`);
    expect(stale.stderr).toContain(`hestai ack --session ${token} --reason`);
    const session = readSession(paths, token)!;
    writeSession(paths, {
      ...session,
      acknowledgments: [{ at: plus(25), context_generated_at: '2026-01-01T00:00:00.000Z', reason: 'old generation' }],
    });
    expect(runHook('pre-commit', repo.dir, { ...repo.env, HESTAI_NOW: plus(25) }).status).toBe(1);
    writeSession(paths, {
      ...session,
      acknowledgments: [{ at: plus(25), context_generated_at: T0, reason: 'reviewed, still valid' }],
    });
    expect(runHook('pre-commit', repo.dir, { ...repo.env, HESTAI_NOW: plus(25) }).status).toBe(0);
  });

  it('honours freshness.max_age_hours from the workspace config, validated on every run (never cached)', () => {
    const repo = makeRepo();
    makeSession(repo.dir, { generatedAt: T0 });
    const text = 'freshness:\n  max_age_hours: 48\n';
    repo.write('.hestai_workspace.yaml', text);
    const env = { ...repo.env, HESTAI_NOW: plus(30) };
    expect(runHook('pre-commit', repo.dir, env).status).toBe(0);
    expect(fs.existsSync(path.join(repo.home, '.cache', 'hestai', 'config'))).toBe(false);
    expect(runHook('pre-commit', repo.dir, env).status).toBe(0);
    repo.write('.hestai_workspace.yaml', 'freshness:\n  max_age_hours: 12\n');
    expect(runHook('pre-commit', repo.dir, env).status).toBe(1);
  });

  it('reports a broken workspace config with exit 2 naming the key', () => {
    const repo = makeRepo();
    repo.write('.hestai_workspace.yaml', 'freshness:\n  max_age_hour: 12\n');
    const result = runHook('pre-commit', repo.dir, repo.env);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('max_age_hour');
  });

  it('passes without a session when anchor.required is false', () => {
    const repo = makeRepo();
    repo.write('.hestai_workspace.yaml', 'anchor:\n  required: false\n');
    expect(runHook('pre-commit', repo.dir, repo.env).status).toBe(0);
  });

  it('lets a bypass through with a warning and an audit line; an empty reason is refused', () => {
    const repo = makeRepo();
    const bypass = runHook('pre-commit', repo.dir, { ...repo.env, HESTAI_BYPASS: 'prod is down' });
    expect(bypass.status).toBe(0);
    expect(bypass.stderr).toContain('HESTAI_BYPASS');
    const audit = fs
      .readFileSync(workspacePaths(repo.dir).auditLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ event: 'bypass', hook: 'pre-commit', reason: 'prod is down' });
    for (const empty of ['', '   ']) {
      const refused = runHook('pre-commit', repo.dir, { ...repo.env, HESTAI_BYPASS: empty });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('HESTAI_BYPASS');
      expect(refused.stderr).toContain('reason');
    }
  });

  it('is also reachable as `hestai check pre-commit`', () => {
    const repo = makeRepo();
    const none = repo.hestai(['check', 'pre-commit']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('hestai clock-in');
    const { token } = makeSession(repo.dir);
    const ok = repo.hestai(['check', 'pre-commit', '--cwd', path.join(repo.dir)]);
    expect(ok.status).toBe(0);
    expect(ok.stderr).toContain(token);
  });
});
