import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorFile, hasValidAnchor } from '../../../src/records/anchor.js';
import { readJsonl } from '../../../src/state/store.js';
import { CLI, tempDir } from '../../helpers/git-repo.js';
import { anchorRepo, BIND, PROOF, vector } from './setup.js';

const ROLE = 'implementation-lead';
const ENV = { HESTAI_NOW: '2026-11-22T10:00:00.000Z' };

function json(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('hestai anchor (CLI)', () => {
  it('runs each stage in its own process (restart-safe) and prints AnchorHandshakeResult with --json', () => {
    const { repo, paths, token } = anchorRepo();
    const id = repo.hestai(['anchor', '--stage', 'identity', '--role', ROLE, '--token', token, '--json'], { env: ENV });
    expect(id.status).toBe(0);
    const identity = json(id.stdout);
    expect(Object.keys(identity)).toEqual(
      expect.arrayContaining([
        'success',
        'stage',
        'token',
        'constitution_path',
        'constitution_excerpt',
        'server_arm',
        'anchor',
        'next_step',
        'template',
        'errors',
        'guidance',
        'terminal',
      ]),
    );
    expect(identity).toMatchObject({ success: true, token, stage: 'identity' });

    repo.write('bind.oct', BIND);
    const ctx = repo.hestai(
      ['--json', 'anchor', '--stage', 'context', '--token', token, '--payload-file', 'bind.oct'],
      { env: ENV },
    );
    expect(ctx.status).toBe(0);
    expect(json(ctx.stdout)['server_arm']).toContain('PHASE::B1');

    const proof = repo.hestai(['anchor', '--stage', 'proof', '--token', token, '--payload-file', '-', '--json'], {
      env: ENV,
      input: PROOF,
    });
    expect(proof.status).toBe(0);
    expect(json(proof.stdout)).toMatchObject({ success: true, work_permit: { token, role: ROLE } });
    expect(hasValidAnchor(paths, token).valid).toBe(true);
  });

  it('exits 1 with the JSON result on a validation failure or a refusal, 2 on usage errors', () => {
    const { repo, token } = anchorRepo();
    const unknown = repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '-', '--json'], {
      env: ENV,
      input: BIND,
    });
    expect(unknown.status).toBe(1);
    expect(json(unknown.stdout)['errors']).toEqual([`UNKNOWN_TOKEN: no pending handshake for token ${token}`]);

    repo.hestai(['anchor', '--stage', 'identity', '--role', ROLE, '--token', token], { env: ENV });
    const bad = repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '-'], {
      env: ENV,
      input: BIND.replace('ROLE::implementation-lead', 'ROLE::'),
    });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('FAILED anchor context');
    expect(bad.stdout).toContain(
      'VALIDATION FAILED: [BIND_ROLE_MISSING: line 2: ROLE is empty]. RETRY: [Add "ROLE::implementation-lead".]',
    );
    expect(bad.stdout).toContain('Attempt 1 of 3 failed; 2 retries left.');

    for (const args of [
      ['anchor', '--role', ROLE],
      ['anchor', '--stage', 'identity', '--role', ROLE, '--mode', 'max'],
      ['anchor', '--stage', 'identity'],
      ['anchor', '--stage', 'context', '--payload-file', '-'],
      ['anchor', '--stage', 'context', '--token', token, '--payload-file', 'missing.oct'],
      ['anchor', '--stage', 'proof', '--token', 'not-a-uuid', '--payload-file', '-'],
      ['anchor', 'reset'],
      ['odyssean-anchor', '--role', ROLE, '--vector-file', '-'],
    ]) {
      const result = repo.hestai([...args, '--json'], { env: ENV, input: PROOF });
      expect({ args, status: result.status }).toEqual({ args, status: 2 });
      expect(json(result.stdout)['ok']).toBe(false);
      expect(result.stderr).toContain('hint:');
    }
  });

  it('reset reopens a terminal handshake and appends an audit line', () => {
    const { repo, paths, token } = anchorRepo();
    repo.hestai(['anchor', '--stage', 'identity', '--role', ROLE, '--token', token], { env: ENV });
    let last: ReturnType<typeof repo.hestai> | undefined;
    for (let i = 0; i < 3; i++)
      last = repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '-', '--json'], {
        env: ENV,
        input: 'ROLE::x',
      });
    expect(json(last!.stdout)).toMatchObject({ terminal: true, retries_left: 0 });
    const reset = repo.hestai(['anchor', 'reset', '--token', token, '--reason', 'human review', '--yes', '--json'], {
      env: ENV,
    });
    expect(reset.status).toBe(0);
    expect(json(reset.stdout)).toMatchObject({
      token,
      reset: true,
      previous: { terminal: true, terminal_stage: 'context' },
    });
    expect(readJsonl(paths.auditLog).at(-1)).toMatchObject({
      event: 'anchor_reset',
      session_id: token,
      reason: 'human review',
      at: '2026-11-22T10:00:00.000Z',
    });
    const ok = repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '-'], {
      env: ENV,
      input: BIND,
    });
    expect(ok.status).toBe(0);
  });

  it('identity without a token clocks in and the whole ceremony works from the CLI', () => {
    const { repo, paths } = anchorRepo();
    const id = json(
      repo.hestai(
        [
          'anchor',
          '--stage',
          'identity',
          '--role',
          ROLE,
          '--strictness',
          'quick',
          '--topic',
          'implement clock_in',
          '--json',
        ],
        { env: ENV },
      ).stdout,
    );
    const token = id['token'] as string;
    expect(fs.existsSync(path.join(paths.active, token, 'session.json'))).toBe(true);
    expect(
      repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '-'], { env: ENV, input: BIND })
        .status,
    ).toBe(0);
    expect(
      repo.hestai(['anchor', '--stage', 'proof', '--token', token, '--payload-file', '-'], { env: ENV, input: PROOF })
        .status,
    ).toBe(0);
    expect(hasValidAnchor(paths, token).valid).toBe(true);
  });
});

describe('hestai odyssean-anchor (CLI)', () => {
  it('validates a whole vector from a file and prints OdysseanAnchorResult', () => {
    const { repo, paths, token } = anchorRepo();
    const bad = repo.hestai(['odyssean-anchor', '--session', token, '--role', ROLE, '--vector-file', '-', '--json'], {
      env: ENV,
      input: vector({ PHASE: 'B9' }),
    });
    expect(bad.status).toBe(1);
    expect(json(bad.stdout)).toMatchObject({
      validated: false,
      retry_count: 1,
      terminal: false,
      errors: ['ARM_PHASE_MISMATCH: line 7: ARM shows PHASE::B9 but PROJECT-CONTEXT.oct.md shows B1'],
    });
    // A file outside the worktree (inside, it would itself be a change that FILES counts).
    const file = path.join(tempDir(), 'vector.oct');
    fs.writeFileSync(file, vector());
    const good = repo.hestai(
      ['odyssean-anchor', '--session', token, '--role', ROLE, '--tier', 'deep', '--vector-file', file, '--json'],
      { env: ENV },
    );
    expect(good.status).toBe(0);
    const result = json(good.stdout);
    expect(Object.keys(result)).toEqual(
      expect.arrayContaining([
        'validated',
        'canonical_anchor',
        'errors',
        'guidance',
        'enforcement',
        'retry_count',
        'terminal',
      ]),
    );
    expect(result).toMatchObject({ validated: true, enforcement: { status: 'UNLOCKED' } });
    expect(hasValidAnchor(paths, token).valid).toBe(true);
  });
});

function run(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  input: string,
): Promise<{ status: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? -1, stdout }));
    child.stdin.end(input);
  });
}

describe('promotion', () => {
  it('lets exactly one of many concurrent proofs win, and never shows a partial anchor.json', async () => {
    const { repo, paths, token } = anchorRepo();
    expect(repo.hestai(['anchor', '--stage', 'identity', '--role', ROLE, '--token', token], { env: ENV }).status).toBe(
      0,
    );
    expect(
      repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '-'], { env: ENV, input: BIND })
        .status,
    ).toBe(0);

    const file = anchorFile(paths, token);
    const seen = { reads: 0, bad: [] as string[] };
    let done = false;
    const watcher = (async () => {
      while (!done) {
        if (fs.existsSync(file)) {
          const check = hasValidAnchor(paths, token);
          seen.reads++;
          if (!check.valid) seen.bad.push(check.reason);
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    const env = { ...repo.env, ...ENV };
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        run(['anchor', '--stage', 'proof', '--token', token, '--payload-file', '-', '--json'], repo.dir, env, PROOF),
      ),
    );
    done = true;
    await watcher;

    const winners = results.filter((r) => r.status === 0);
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 0)) {
      expect(loser.status).toBe(1);
      expect((JSON.parse(loser.stdout) as { errors: string[] }).errors[0]).toMatch(
        /^ALREADY_BOUND: token .* is already bound/,
      );
    }
    expect(seen.bad).toEqual([]);
    expect(seen.reads).toBeGreaterThan(0);
    expect(hasValidAnchor(paths, token).valid).toBe(true);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['anchor.json', 'session.json']);
    expect(fs.existsSync(path.join(paths.pending, token))).toBe(false);
  });
});
