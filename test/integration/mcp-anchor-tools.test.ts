import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { installConstitutions } from '../../src/anchor/constitution.js';
import { workspacePaths } from '../../src/paths.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { connectInProcess, textOf } from '../helpers/mcp.js';
import { seedSession } from '../helpers/session-fixture.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const clock = () => NOW;
const ROLE = 'implementation-lead';

const BIND = [
  '## BIND (Identity Lock)',
  `ROLE::${ROLE}`,
  'COGNITION::LOGOS::ATHENA',
  'AUTHORITY::RESPONSIBLE[the app module]',
].join('\n');
const PROOF = [
  '## TENSION (Cognitive Proof - AGENT GENERATED)',
  'L1::[TDD_MANDATE]<->CTX:src/app.ts:1-3[no failing test yet]->TRIGGER[write the failing test first]',
  'L2::[MINIMAL_INTERVENTION]<->CTX:README.md[a one-line readme]->TRIGGER[keep docs in step]',
  '## COMMIT (Falsifiable Contract)',
  'ARTIFACT::src/app.ts',
  'GATE::npm test',
].join('\n');

/** A repository with PROJECT-CONTEXT (PHASE B1), a source file, the default constitutions, runtime state ignored. */
function anchorRepo(): TempRepo {
  const repo = makeRepo();
  installConstitutions(workspacePaths(repo.dir));
  repo.commit('chore: project files and constitutions', {
    '.hestai/context/PROJECT-CONTEXT.oct.md': '===PROJECT_CONTEXT===\nPHASE::B1\nNAME::"demo"\n===END===\n',
    'src/app.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
    '.gitignore': '.hestai/sessions/\n.hestai/audit/\n.hestai/context/state/\n',
  });
  return repo;
}

async function tool(name: string) {
  const mcp = await connectInProcess();
  return (await mcp.client.listTools()).tools.find((t) => t.name === name)!;
}

describe('MCP tools: annotations are true', () => {
  it.each([
    ['anchor', { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }],
    ['odyssean_anchor', { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }],
  ])('%s', async (name, annotations) => {
    const found = await tool(name);
    expect(found, name).toBeDefined();
    expect(found.annotations).toMatchObject(annotations);
    expect(found.outputSchema).toBeDefined();
  });
});

describe('MCP tools: anchor (staged) and gating', () => {
  it('runs identity → context → proof; a failed proof is an isError result with errors, guidance and a template', async () => {
    const repo = anchorRepo();
    const mcp = await connectInProcess({ clock, env: repo.env });
    const id = (await mcp.call('clock_in', { working_dir: repo.dir, role: ROLE, focus: 'app' })).structuredContent![
      'session_id'
    ] as string;
    const identity = await mcp.call('anchor', { stage: 'identity', working_dir: repo.dir, role: ROLE, session_id: id });
    expect(identity.structuredContent).toMatchObject({
      success: true,
      stage: 'identity',
      token: id,
      constitution_path: '.hestai-sys/agents/implementation-lead.oct.md',
    });
    expect(textOf(identity)).toMatch(/ROLE::implementation-lead/);
    const context = await mcp.call('anchor', {
      stage: 'context',
      working_dir: repo.dir,
      session_id: id,
      payload: BIND,
    });
    expect(context.structuredContent).toMatchObject({ success: true, stage: 'context' });
    expect(context.structuredContent!['server_arm']).toMatch(/PHASE::B1/);
    const bad = await mcp.call('anchor', {
      stage: 'proof',
      working_dir: repo.dir,
      session_id: id,
      payload: PROOF.replace('ARTIFACT::src/app.ts', 'ARTIFACT::response'),
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ success: false, terminal: false, retries_left: 2 });
    expect((bad.structuredContent!['errors'] as string[]).join('\n')).toMatch(/ARTIFACT/);
    expect(textOf(bad)).toMatch(/guidance: /);
    expect(
      (await mcp.call('anchor_status', { working_dir: repo.dir, session_id: id })).structuredContent,
    ).toMatchObject({ unlocked: false });
    const proof = await mcp.call('anchor', { stage: 'proof', working_dir: repo.dir, session_id: id, payload: PROOF });
    expect(proof.isError, textOf(proof)).toBeFalsy();
    expect(proof.structuredContent).toMatchObject({ success: true, work_permit: { token: id, role: ROLE } });
    expect(
      (await mcp.call('anchor_status', { working_dir: repo.dir, session_id: id })).structuredContent,
    ).toMatchObject({ unlocked: true });
  });

  it('untracked mode passes the handshake but writes nothing and never unlocks clock_out', async () => {
    const repo = anchorRepo();
    const mcp = await connectInProcess({ clock, env: repo.env });
    const identity = await mcp.call('anchor', {
      stage: 'identity',
      working_dir: repo.dir,
      role: ROLE,
      mode: 'untracked',
    });
    expect(identity.structuredContent).toMatchObject({ success: true, mode: 'untracked', token: null });
    const context = await mcp.call('anchor', {
      stage: 'context',
      working_dir: repo.dir,
      role: ROLE,
      mode: 'untracked',
      payload: BIND,
    });
    expect(context.structuredContent).toMatchObject({ success: true });
    const proof = await mcp.call('anchor', {
      stage: 'proof',
      working_dir: repo.dir,
      role: ROLE,
      mode: 'untracked',
      payload: PROOF,
    });
    expect(proof.structuredContent).toMatchObject({ success: true, work_permit: null });
    expect(fs.existsSync(workspacePaths(repo.dir).sessions)).toBe(false);
    expect((await mcp.call('anchor_status', { working_dir: repo.dir })).structuredContent).toMatchObject({
      unlocked: false,
      code: 'NO_SESSION',
    });
    const refused = await mcp.call('clock_out', { working_dir: repo.dir });
    expect(refused.isError).toBe(true);
  });

  it('reports a library user error (unknown token) as an isError result', async () => {
    const repo = anchorRepo();
    const mcp = await connectInProcess({ clock, env: repo.env });
    const result = await mcp.call('anchor', {
      stage: 'context',
      working_dir: repo.dir,
      session_id: 'not-a-token',
      payload: BIND,
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/session_id|session id/i);
  });
});

describe('MCP tools: odyssean_anchor (one-shot)', () => {
  function vector(arm: { PHASE?: string; BRANCH?: string; FILES?: string; FOCUS?: string } = {}): string {
    const a = { PHASE: 'B1', BRANCH: 'main[0↑0↓]', FILES: '0[]', FOCUS: 'general', ...arm };
    return [
      '===RAPH_VECTOR::v4.0===',
      BIND,
      '## ARM (Context Proof - SERVER INJECTED)',
      `PHASE::${a.PHASE}`,
      `BRANCH::${a.BRANCH}`,
      `FILES::${a.FILES}`,
      `FOCUS::${a.FOCUS}`,
      PROOF,
      '===END_RAPH_VECTOR===',
    ].join('\n');
  }

  it('validates a whole vector, writes the anchor and unlocks; a wrong ARM is an isError result naming the true value', async () => {
    const repo = anchorRepo();
    const session = seedSession(repo.dir, { focus: 'general' });
    // A session this connection did not clock in is its own only when its runtime pins it (issue 26).
    const mcp = await connectInProcess({ clock, env: { ...repo.env, HESTAI_SESSION: session.session_id } });
    const wrong = await mcp.call('odyssean_anchor', {
      working_dir: repo.dir,
      session_id: session.session_id,
      role: ROLE,
      vector_candidate: vector({ PHASE: 'B9' }),
    });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toMatchObject({ validated: false, enforcement: { status: 'LOCKED' } });
    expect((wrong.structuredContent!['errors'] as string[]).join('\n')).toMatch(/B1/);
    const good = await mcp.call('odyssean_anchor', {
      working_dir: repo.dir,
      session_id: session.session_id,
      role: ROLE,
      vector_candidate: vector(),
    });
    expect(good.isError, textOf(good)).toBeFalsy();
    expect(good.structuredContent).toMatchObject({
      validated: true,
      enforcement: { status: 'UNLOCKED', session_id: session.session_id },
    });
    expect(
      (await mcp.call('anchor_status', { working_dir: repo.dir, session_id: session.session_id })).structuredContent,
    ).toMatchObject({ unlocked: true });
  });

  // Seed 003 Amendment 01: `vector_candidate` is "the agent's BIND+TENSION+COMMIT (not ARM)"; the server injects ARM.
  it('accepts the Amendment-01 vector without ARM: the canonical anchor carries the ARM the server computed', async () => {
    const repo = anchorRepo();
    const session = seedSession(repo.dir, { focus: 'general' });
    const mcp = await connectInProcess({ clock, env: { ...repo.env, HESTAI_SESSION: session.session_id } });
    const amended = ['===RAPH_VECTOR::v4.0===', BIND, PROOF, '===END_RAPH_VECTOR==='].join('\n');
    const res = await mcp.call('odyssean_anchor', {
      working_dir: repo.dir,
      session_id: session.session_id,
      role: ROLE,
      vector_candidate: amended,
    });
    expect(res.isError, textOf(res)).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ validated: true, enforcement: { status: 'UNLOCKED' } });
    const canonical = res.structuredContent!['canonical_anchor'] as string;
    expect(canonical).toMatch(/## ARM[^\n]*\nPHASE::B1\nBRANCH::main\[0↑0↓\]\nFILES::\d+\[/);
    expect(canonical).toContain('FOCUS::general');
    expect(
      (await mcp.call('anchor_status', { working_dir: repo.dir, session_id: session.session_id })).structuredContent,
    ).toMatchObject({ unlocked: true });
  });

  it('an ARM-less vector still needs its other sections and markers', async () => {
    const repo = anchorRepo();
    const session = seedSession(repo.dir, { focus: 'general' });
    const mcp = await connectInProcess({ clock, env: { ...repo.env, HESTAI_SESSION: session.session_id } });
    const call = (vector_candidate: string) =>
      mcp.call('odyssean_anchor', {
        working_dir: repo.dir,
        session_id: session.session_id,
        role: ROLE,
        vector_candidate,
      });
    const noCommit = await call(
      ['===RAPH_VECTOR::v4.0===', BIND, PROOF.split('\n## COMMIT')[0], '===END_RAPH_VECTOR==='].join('\n'),
    );
    expect(noCommit.isError).toBe(true);
    expect((noCommit.structuredContent!['errors'] as string[]).join('\n')).toMatch(/## COMMIT is missing/);
    const noMarkers = await call([BIND, PROOF].join('\n'));
    expect(noMarkers.isError).toBe(true);
    expect((noMarkers.structuredContent!['errors'] as string[]).join('\n')).toMatch(/STRUCTURE_MARKERS/);
  });
});
