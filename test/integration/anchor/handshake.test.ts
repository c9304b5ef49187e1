import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchor } from '../../../src/anchor/handshake.js';
import { resolveWorkspace } from '../../../src/workspace.js';
import { readHandshake } from '../../../src/records/handshake.js';
import { anchorFile, hasValidAnchor } from '../../../src/records/anchor.js';
import { resetAnchor } from '../../../src/anchor/reset.js';
import { HestaiError } from '../../../src/errors.js';
import { readJsonl } from '../../../src/state/store.js';
import { makeRepo } from '../../helpers/git-repo.js';
import { cleanupSessions } from '../../../src/session/cleanup.js';
import { clockIn } from '../../../src/session/clock-in.js';
import { readSession, writeSession } from '../../../src/records/session.js';
import { workspacePaths } from '../../../src/paths.js';
import { anchorRepo, BIND, clock, clockAt, PROOF, session } from './setup.js';

const ROLE = 'implementation-lead';

describe('anchor: identity stage', () => {
  it('accepts the clock-in session id as token and returns the constitution and the BIND template', async () => {
    const { repo, paths, token } = anchorRepo();
    const result = await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    expect(result).toMatchObject({
      success: true,
      stage: 'identity',
      token,
      mode: 'full',
      strictness: 'default',
      constitution_path: '.hestai-sys/agents/implementation-lead.oct.md',
      errors: [],
      terminal: false,
    });
    expect(result.constitution_excerpt).toContain('MISSION::');
    expect(result.template).toBe(
      '## BIND (Identity Lock)\nROLE::implementation-lead\nCOGNITION::{ETHOS|LOGOS|PATHOS}::{ARCHETYPE[⊕ARCHETYPE]}\nAUTHORITY::RESPONSIBLE[{scope you own}]',
    );
    expect(result.next_step).toContain(`--stage context --token ${token}`);
    const hs = readHandshake(paths, token)!;
    expect(hs).toMatchObject({
      stage: 'IDENTITY',
      role: ROLE,
      mode: 'full',
      strictness: 'default',
      created_at: '2026-11-22T10:00:00.000Z',
      expires_at: '2026-11-22T11:00:00.000Z',
      retries: { context: 0, proof: 0, vector: 0 },
      terminal: false,
    });
  });

  it('refuses an identity stage without a token when no clock_in was given to it (anchor/ never imports session/)', async () => {
    const { repo } = anchorRepo();
    await expect(anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE }, { clock })).rejects.toMatchObject({
      exitCode: 2,
      code: 'TOKEN_REQUIRED',
    });
  });

  it('clocks in first when called without a token', async () => {
    const { repo, paths } = anchorRepo();
    const result = await anchor(
      { stage: 'identity', working_dir: repo.dir, role: ROLE, topic: 'hook speed' },
      { clock, clockIn },
    );
    expect(result.success).toBe(true);
    const session = readSession(paths, result.token!);
    // The real clock_in ran: the session is CREATED with an explicit focus and the FAST layer was written.
    expect(session).toMatchObject({
      role: ROLE,
      focus: 'hook speed',
      focus_source: 'explicit',
      state: 'CREATED',
      branch: 'main',
      started_at: '2026-11-22T10:00:00.000Z',
    });
    expect(fs.readFileSync(paths.currentFocus, 'utf8')).toContain('hook speed');
    expect(readHandshake(paths, result.token!)?.stage).toBe('IDENTITY');
  });

  it('lists the available roles when the role has no constitution', async () => {
    const { repo, token } = anchorRepo();
    const result = await anchor({ stage: 'identity', working_dir: repo.dir, role: 'poet', token }, { clock });
    expect(result.success).toBe(false);
    expect(result.errors).toEqual([
      'NO_CONSTITUTION: role "poet" has no constitution at .hestai-sys/agents/poet.oct.md',
    ]);
    expect(result.available_roles).toEqual([
      'code-review-specialist',
      'holistic-orchestrator',
      'implementation-lead',
      'requirements-steward',
      'system-steward',
      'technical-architect',
    ]);
    expect(result.guidance).toContain('Available roles: code-review-specialist, holistic-orchestrator');
  });

  it('says to run hestai init when no constitutions are installed', async () => {
    const repo = makeRepo();
    // A role with no packaged default (a packaged one is installed instead: constitution-install.test.ts).
    const result = await anchor(
      { stage: 'identity', working_dir: repo.dir, role: 'poet', mode: 'untracked' },
      { clock },
    );
    expect(result.errors[0]).toMatch(/^NO_CONSTITUTION: /);
    expect(result.guidance).toContain('hestai init');
    expect(fs.existsSync(path.join(repo.dir, '.hestai'))).toBe(false);
  });

  it('refuses an unknown token, a session of another role, and malformed input', async () => {
    const { repo, token } = anchorRepo();
    const unknown = await anchor(
      { stage: 'identity', working_dir: repo.dir, role: ROLE, token: '6f1c7a4e-0000-4000-8000-000000000000' },
      { clock },
    );
    expect(unknown.errors).toEqual([
      'UNKNOWN_TOKEN: no active session 6f1c7a4e-0000-4000-8000-000000000000 in this worktree',
    ]);
    const other = await anchor({ stage: 'identity', working_dir: repo.dir, role: 'system-steward', token }, { clock });
    expect(other.errors).toEqual([
      `ROLE_MISMATCH: session ${token} was clocked in as "implementation-lead", not "system-steward"`,
    ]);
    await expect(
      anchor({ stage: 'identity', working_dir: repo.dir, role: '../../etc/passwd' }, { clock }),
    ).rejects.toThrow(HestaiError);
    await expect(
      anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token: 'abc' }, { clock }),
    ).rejects.toThrow(/not a session token/);
    await expect(anchor({ stage: 'banter' as 'identity', working_dir: repo.dir }, { clock })).rejects.toThrow(
      /stage "banter" is not one of identity, context, proof/,
    );
    await expect(
      anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, mode: 'max' as 'full' }, { clock }),
    ).rejects.toThrow(/mode "max"/);
  });
});

describe('anchor: context and proof stages', () => {
  it('binds end to end: server ARM, canonical anchor, work permit, anchor.json promoted and valid', async () => {
    const { repo, paths, token } = anchorRepo();
    repo.write('src/new.ts', 'export {};\n');
    repo.write('README.md', '# temp\nchanged\n');
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token, strictness: 'deep' }, { clock });
    const ctx = await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock });
    expect(ctx.errors).toEqual([]);
    expect(ctx.success).toBe(true);
    expect(ctx.server_arm).toMatch(
      /^## ARM \(Context Proof - SERVER INJECTED\)\nPHASE::B1\nBRANCH::main\[0↑0↓\]\nFILES::2\[README\.md,src\/new\.ts\]\nFOCUS::implement clock_in\nCONTEXT_HASH::sha256:[0-9a-f]{16}$/,
    );
    expect(ctx.template).toContain('L3::[{specific constraint}]');
    expect(readHandshake(paths, token)?.stage).toBe('CONTEXT');

    const proof = await anchor(
      { stage: 'proof', working_dir: repo.dir, token, payload: PROOF },
      { clock: clockAt('2026-11-22T10:05:00.000Z') },
    );
    expect(proof.errors).toEqual([]);
    expect(proof.success).toBe(true);
    expect(proof.anchor).toContain(
      'L1::[TDD_MANDATE]⇌CTX:src/clock-in.ts:10-20[no failing test yet]→TRIGGER[write the failing test first]',
    );
    expect(proof.anchor).toContain('COGNITION::LOGOS::HEPHAESTUS⊕ATHENA');
    expect(proof.anchor).toContain(ctx.server_arm!);
    expect(proof.anchor!.startsWith('===RAPH_VECTOR::v4.0===\n## BIND')).toBe(true);
    expect(proof.work_permit).toMatchObject({
      token,
      role: ROLE,
      tier: 'deep',
      anchor_file: `.hestai/sessions/active/${token}/anchor.json`,
      validated_at: '2026-11-22T10:05:00.000Z',
    });

    const check = hasValidAnchor(paths, token);
    expect(check.valid).toBe(true);
    expect(hasValidAnchor(resolveWorkspace(path.join(repo.dir, 'src')).paths, token).valid).toBe(true);
    if (check.valid) {
      expect(check.anchor).toMatchObject({
        role: ROLE,
        tier: 'deep',
        mode: 'full',
        source: 'anchor',
        validated_at: '2026-11-22T10:05:00.000Z',
        canonical_anchor: proof.anchor,
      });
      expect(check.anchor.arm).toMatchObject({
        phase: 'B1',
        branch: 'main',
        files_count: 2,
        top_files: ['README.md', 'src/new.ts'],
        focus: 'implement clock_in',
      });
      expect(proof.work_permit!.anchor_digest).toBe(`sha256:${check.anchor.record_digest}`);
    }
    expect(fs.existsSync(path.join(paths.pending, token))).toBe(false);
    expect(readHandshake(paths, token)).toBeNull();
    // Seed §7: the bound agent is now working; the session moves CREATED → ACTIVE at the proof's instant.
    expect(readSession(paths, token)).toMatchObject({ state: 'ACTIVE', last_activity: '2026-11-22T10:05:00.000Z' });
  });

  it('reports ahead/behind against the upstream in the ARM', async () => {
    const { repo, token } = anchorRepo();
    const remote = path.join(path.dirname(repo.dir), 'remote.git');
    repo.git(['init', '-q', '--bare', remote]);
    repo.git(['remote', 'add', 'origin', remote]);
    repo.git(['push', '-q', '-u', 'origin', 'main']);
    repo.commit('test: one');
    repo.commit('feat: two');
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    const ctx = await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock });
    expect(ctx.server_arm).toContain('BRANCH::main[2↑0↓]');
  });

  it('refuses stages out of order, unknown tokens and expired handshakes with specific errors', async () => {
    const { repo, token } = anchorRepo();
    const none = await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock });
    expect(none.errors).toEqual([`UNKNOWN_TOKEN: no pending handshake for token ${token}`]);
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    const early = await anchor({ stage: 'proof', working_dir: repo.dir, token, payload: PROOF }, { clock });
    expect(early.errors).toEqual([
      `STAGE_ORDER: the handshake for ${token} is at stage IDENTITY: the proof comes after the context stage`,
    ]);
    expect((await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock })).success).toBe(
      true,
    );
    const twice = await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock });
    expect(twice.errors).toEqual([
      `STAGE_ORDER: the handshake for ${token} is at stage CONTEXT: the context stage already passed`,
    ]);
    const late = await anchor(
      { stage: 'proof', working_dir: repo.dir, token, payload: PROOF },
      { clock: clockAt('2026-11-22T11:00:00.000Z') },
    );
    expect(late.errors).toEqual([`TOKEN_EXPIRED: the handshake for ${token} expired at 2026-11-22T11:00:00.000Z`]);
    expect(late.success).toBe(false);
  });

  it('rejects a BIND whose cognition differs from the constitution, and CTX citations that are not falsifiable', async () => {
    const { repo, token } = anchorRepo();
    fs.symlinkSync('/etc/hostname', path.join(repo.dir, 'escape.txt'));
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    const ethos = await anchor(
      {
        stage: 'context',
        working_dir: repo.dir,
        token,
        payload: BIND.replace('LOGOS::HEPHAESTUS+ATHENA', 'ETHOS::HEPHAESTUS'),
      },
      { clock },
    );
    expect(ethos.errors).toEqual([
      "BIND_COGNITION_CONSTITUTION: line 3: COGNITION type ETHOS differs from the constitution's LOGOS",
    ]);
    await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock });
    const outside = await anchor(
      { stage: 'proof', working_dir: repo.dir, token, payload: PROOF.replace('CTX:README.md:1', 'CTX:escape.txt') },
      { clock },
    );
    expect(outside.errors).toEqual([
      `TENSION_CTX_OUTSIDE: line 4: L3 CTX "escape.txt": escape.txt resolves outside the working directory (symlink)`,
    ]);
    const range = await anchor(
      {
        stage: 'proof',
        working_dir: repo.dir,
        token,
        payload: PROOF.replace('src/clock-in.ts:10-20', 'src/clock-in.ts:30-41'),
      },
      { clock },
    );
    expect(range.errors).toEqual([
      'TENSION_CTX_RANGE: line 2: L1 CTX "src/clock-in.ts:30-41": lines 30-41 are outside src/clock-in.ts, which has 40 lines',
    ]);
    expect(range.retries_left).toBe(1);
    expect(range.guidance).toContain('Attempt 2 of 3 failed; 1 retry left.');
  });
});

describe('anchor: retries, terminal and reset', () => {
  it('counts failures on the server: the third is terminal, later submissions are refused until a reset', async () => {
    const { repo, paths, token } = anchorRepo();
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    const bad = BIND.replace('AUTHORITY::RESPONSIBLE[clock_in implementation]', 'AUTHORITY::RESPONSIBLE');
    const first = await anchor({ stage: 'context', working_dir: repo.dir, token, payload: bad }, { clock });
    expect(first).toMatchObject({ success: false, terminal: false, retries_left: 2 });
    expect(first.guidance).toMatch(
      /^VALIDATION FAILED: \[BIND_AUTHORITY_FORMAT: line 4: AUTHORITY "RESPONSIBLE" is not RESPONSIBLE\[\.\.\.\] or DELEGATED\[\.\.\.\]\]\. RETRY: \[/,
    );
    expect(first.template).toBe(
      '## BIND (Identity Lock)\nROLE::implementation-lead\nCOGNITION::LOGOS::HEPHAESTUS⊕ATHENA\nAUTHORITY::RESPONSIBLE[{scope you own}]',
    );
    // A caller-supplied count is ignored: the server's count is the only one.
    const second = await anchor({ stage: 'context', working_dir: repo.dir, token, payload: bad, retries: 0 } as never, {
      clock,
    });
    expect(second).toMatchObject({ terminal: false, retries_left: 1 });
    const third = await anchor({ stage: 'context', working_dir: repo.dir, token, payload: bad }, { clock });
    expect(third).toMatchObject({ success: false, terminal: true, retries_left: 0 });
    expect(third.guidance).toContain('TERMINAL: 3 failed submissions');
    expect(readHandshake(paths, token)).toMatchObject({
      terminal: true,
      terminal_stage: 'context',
      retries: { context: 3 },
    });

    const good = await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock });
    expect(good).toMatchObject({ success: false, terminal: true });
    expect(good.errors).toEqual([
      `TERMINAL: the handshake for ${token} is terminal after 3 failed context submissions`,
    ]);
    const again = await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    expect(again.errors[0]).toMatch(/^TERMINAL: /);

    const reset = await resetAnchor(
      { working_dir: repo.dir, token, reason: 'agent confused by a renamed file' },
      { clock },
    );
    expect(reset.previous).toMatchObject({ terminal: true, retries: { context: 3, proof: 0, vector: 0 } });
    const audit = readJsonl(paths.auditLog) as Record<string, unknown>[];
    expect(audit.map((a) => a['event'])).toEqual(['anchor_terminal', 'anchor_reset']);
    expect(audit[1]).toMatchObject({
      session_id: token,
      reason: 'agent confused by a renamed file',
      at: '2026-11-22T10:00:00.000Z',
    });
    expect((await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock })).success).toBe(
      true,
    );
  });

  it('keeps the retry count when identity is run again', async () => {
    const { repo, paths, token } = anchorRepo();
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    await anchor({ stage: 'context', working_dir: repo.dir, token, payload: 'ROLE::x' }, { clock });
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    expect(readHandshake(paths, token)?.retries.context).toBe(1);
  });

  it('refuses to reset a token without a pending handshake (exit 1)', async () => {
    const { repo, token } = anchorRepo();
    await expect(resetAnchor({ working_dir: repo.dir, token }, { clock })).rejects.toMatchObject({
      exitCode: 1,
      code: 'NO_HANDSHAKE',
    });
  });
});

describe('anchor: modes', () => {
  it('untracked writes nothing and unlocks nothing', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const { installConstitutions } = await import('../../../src/anchor/constitution.js');
    installConstitutions(paths);
    const id = await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, mode: 'untracked' }, { clock });
    expect(id).toMatchObject({ success: true, token: null, mode: 'untracked' });
    expect(id.next_step).toContain('nothing will be unlocked');
    const ctx = await anchor(
      { stage: 'context', working_dir: repo.dir, role: ROLE, mode: 'untracked', payload: BIND },
      { clock },
    );
    expect(ctx).toMatchObject({ success: true, token: null });
    expect(ctx.server_arm).toContain('PHASE::UNKNOWN');
    repo.write('src/clock-in.ts', 'x\n'.repeat(40));
    repo.write('src/git/exec.ts', 'x\n'.repeat(10));
    const proof = await anchor(
      { stage: 'proof', working_dir: repo.dir, role: ROLE, mode: 'untracked', strictness: 'default', payload: PROOF },
      { clock },
    );
    expect(proof).toMatchObject({ success: true, anchor: null, work_permit: null });
    expect(fs.existsSync(paths.hestai)).toBe(false);
    const badProof = await anchor(
      {
        stage: 'proof',
        working_dir: repo.dir,
        role: ROLE,
        mode: 'untracked',
        payload: PROOF.replace('ARTIFACT::src/clock-in.ts', 'ARTIFACT::response'),
      },
      { clock },
    );
    expect(badProof).toMatchObject({ success: false, retries_left: null, terminal: false });
    expect(fs.existsSync(paths.hestai)).toBe(false);
  });

  it('lite persists, omits the excerpt and binds with mode lite', async () => {
    const { repo, paths, token } = anchorRepo();
    const id = await anchor(
      { stage: 'identity', working_dir: repo.dir, role: ROLE, token, mode: 'lite', strictness: 'quick' },
      { clock },
    );
    expect(id).toMatchObject({ success: true, constitution_excerpt: null, mode: 'lite' });
    await anchor({ stage: 'context', working_dir: repo.dir, token, payload: BIND }, { clock });
    const proof = await anchor({ stage: 'proof', working_dir: repo.dir, token, payload: PROOF }, { clock });
    expect(proof.success).toBe(true);
    const check = hasValidAnchor(paths, token);
    expect(check.valid && check.anchor.mode).toBe('lite');
    expect(fs.existsSync(anchorFile(paths, token))).toBe(true);
  });
});

describe('cleanup of pending handshakes', () => {
  it('removes the handshake of a session that is gone, keeps the one of a live session (even expired), and audits it', async () => {
    const { repo, paths, token } = anchorRepo();
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    const live = randomUUID();
    writeSession(paths, session(live, repo.dir, ROLE, 'still working', { last_activity: '2026-11-25T09:00:00.000Z' }));
    await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token: live }, { clock });
    // 73 h later: the first session is past the 72 h threshold (archived), the second is not; both handshakes expired.
    const later = { clock: clockAt('2026-11-25T11:00:00.000Z'), env: repo.env };
    const res = await cleanupSessions({ working_dir: repo.dir }, later);
    expect(res.archived.map((a) => a.session_id)).toEqual([token]);
    expect(res.removed_handshakes).toEqual([token]);
    expect(fs.existsSync(path.join(paths.pending, token))).toBe(false);
    expect(readHandshake(paths, live)?.stage).toBe('IDENTITY');
    expect(readJsonl(paths.auditLog)).toContainEqual(
      expect.objectContaining({ event: 'handshake_removed', session_id: token, stage: 'IDENTITY' }),
    );
    expect((await cleanupSessions({ working_dir: repo.dir }, later)).removed_handshakes).toEqual([]);
  });
});
