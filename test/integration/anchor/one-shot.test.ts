import { describe, expect, it } from 'vitest';
import { anchor } from '../../../src/anchor/handshake.js';
import { readHandshake } from '../../../src/records/handshake.js';
import { odysseanAnchor } from '../../../src/anchor/one-shot.js';
import { hasValidAnchor } from '../../../src/records/anchor.js';
import { resetAnchor } from '../../../src/anchor/reset.js';
import { readSession } from '../../../src/records/session.js';
import { anchorRepo, clock, vector } from './setup.js';

const ROLE = 'implementation-lead';

describe('odysseanAnchor (one-shot RAPH v4.0)', () => {
  it('validates a whole vector, injects the server ARM and writes the same anchor.json as the staged path', async () => {
    const { repo, paths, token } = anchorRepo();
    repo.write('src/new.ts', 'export {};\n');
    const result = await odysseanAnchor(
      {
        working_dir: repo.dir,
        session_id: token,
        role: ROLE,
        vector_candidate: vector({ FILES: '1[src/new.ts]', BRANCH: 'main' }),
        tier: 'deep',
      },
      { clock },
    );
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({
      validated: true,
      guidance: 'Canonical Anchor Accepted.',
      retry_count: 0,
      terminal: false,
    });
    expect(result.canonical_anchor).toMatch(
      /## ARM \(Context Proof - SERVER INJECTED\)\nPHASE::B1\nBRANCH::main\[0↑0↓\]\nFILES::1\[src\/new\.ts\]\nFOCUS::implement clock_in\nCONTEXT_HASH::sha256:[0-9a-f]{16}\n/,
    );
    expect(result.canonical_anchor).toContain(
      'L1::[TDD_MANDATE]⇌CTX:src/clock-in.ts:10-20[no failing test yet]→TRIGGER[write the failing test first]',
    );
    expect(result.enforcement).toMatchObject({
      status: 'UNLOCKED',
      session_id: token,
      anchor_file: `.hestai/sessions/active/${token}/anchor.json`,
    });
    const check = hasValidAnchor(paths, token);
    expect(check.valid && check.anchor).toMatchObject({
      source: 'odyssean_anchor',
      tier: 'deep',
      role: ROLE,
      canonical_anchor: result.canonical_anchor,
    });
    expect(result.enforcement.anchor_digest).toBe(check.valid ? `sha256:${check.anchor.record_digest}` : '');
    expect(readSession(paths, token)?.state).toBe('ACTIVE');
    const twice = await odysseanAnchor(
      { working_dir: repo.dir, session_id: token, role: ROLE, vector_candidate: vector() },
      { clock },
    );
    expect(twice.errors).toEqual([`ALREADY_BOUND: session ${token} is already anchored`]);
  });

  it('names the true value when the agent ARM does not match, and rejects placeholders', async () => {
    const { repo, token } = anchorRepo();
    const phase = await odysseanAnchor(
      { working_dir: repo.dir, session_id: token, role: ROLE, vector_candidate: vector({ PHASE: 'B2' }) },
      { clock },
    );
    expect(phase.errors).toEqual([
      'ARM_PHASE_MISMATCH: line 7: ARM shows PHASE::B2 but PROJECT-CONTEXT.oct.md shows B1',
    ]);
    expect(phase.guidance).toContain('Update PHASE to match context: PHASE::B1.');
    expect(phase).toMatchObject({
      validated: false,
      canonical_anchor: '',
      retry_count: 1,
      terminal: false,
      enforcement: { status: 'LOCKED' },
    });
    repo.write('src/new.ts', 'export {};\n');
    const files = await odysseanAnchor(
      {
        working_dir: repo.dir,
        session_id: token,
        role: ROLE,
        vector_candidate: vector({ BRANCH: 'feat/imagined[0↑0↓]' }),
      },
      { clock },
    );
    expect(files.errors).toEqual([
      'ARM_BRANCH_MISMATCH: line 8: ARM shows BRANCH::feat/imagined but git shows main',
      'ARM_PLACEHOLDER: line 9: FILES::0[] while git shows 1 changed file',
    ]);
    expect(files.retry_count).toBe(2);
  });

  it('shares the server-side retry count and terminal state; reset reopens it', async () => {
    const { repo, paths, token } = anchorRepo();
    const bad = vector({ PHASE: 'TODO' });
    for (const n of [1, 2])
      expect(
        (
          await odysseanAnchor(
            { working_dir: repo.dir, session_id: token, role: ROLE, vector_candidate: bad },
            { clock },
          )
        ).retry_count,
      ).toBe(n);
    const third = await odysseanAnchor(
      { working_dir: repo.dir, session_id: token, role: ROLE, vector_candidate: bad },
      { clock },
    );
    expect(third).toMatchObject({ terminal: true, retry_count: 3 });
    expect(third.guidance).toContain('TERMINAL: 3 failed submissions');
    const good = await odysseanAnchor(
      { working_dir: repo.dir, session_id: token, role: ROLE, vector_candidate: vector() },
      { clock },
    );
    expect(good).toMatchObject({ validated: false, terminal: true });
    expect(good.errors[0]).toMatch(/^TERMINAL: session .* is terminal after 3 failed vector submissions$/);
    const staged = await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    expect(staged.errors[0]).toMatch(/^TERMINAL: /);
    expect(readHandshake(paths, token)).toMatchObject({ terminal: true, terminal_stage: 'vector' });
    await resetAnchor({ working_dir: repo.dir, token, reason: 'reviewed' }, { clock });
    expect(
      (
        await odysseanAnchor(
          { working_dir: repo.dir, session_id: token, role: ROLE, vector_candidate: vector() },
          { clock },
        )
      ).validated,
    ).toBe(true);
    expect(readHandshake(paths, token)).toBeNull();
  });

  it('requires a clocked-in session of that role', async () => {
    const { repo, token } = anchorRepo();
    const unknown = await odysseanAnchor(
      {
        working_dir: repo.dir,
        session_id: '6f1c7a4e-0000-4000-8000-000000000000',
        role: ROLE,
        vector_candidate: vector(),
      },
      { clock },
    );
    expect(unknown.errors).toEqual([
      'UNKNOWN_SESSION: no active session 6f1c7a4e-0000-4000-8000-000000000000 in this worktree',
    ]);
    const role = await odysseanAnchor(
      {
        working_dir: repo.dir,
        session_id: token,
        role: 'system-steward',
        vector_candidate: vector().replace('ROLE::implementation-lead', 'ROLE::system-steward'),
      },
      { clock },
    );
    expect(role.errors[0]).toMatch(/^ROLE_MISMATCH: /);
    await expect(
      odysseanAnchor({ working_dir: repo.dir, session_id: token, role: ROLE, vector_candidate: '' }, { clock }),
    ).rejects.toThrow(/vector_candidate is empty/);
  });
});
