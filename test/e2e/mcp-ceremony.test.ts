import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installConstitutions } from '../../src/anchor/constitution.js';
import { workspacePaths } from '../../src/paths.js';
import { makeRepo } from '../helpers/git-repo.js';
import { connectStdio, textOf } from '../helpers/mcp.js';

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
  'L2::[MINIMAL_INTERVENTION]<->CTX:README.md[documents the app]->TRIGGER[keep the contract stable]',
  '## COMMIT (Falsifiable Contract)',
  'ARTIFACT::src/app.ts',
  'GATE::npm test',
].join('\n');

describe('the whole ceremony over stdio, as an agent runs it without a shell', () => {
  it('clock_in → anchor identity/context/proof → anchor_status → clock_out', async () => {
    const repo = makeRepo();
    installConstitutions(workspacePaths(repo.dir));
    repo.commit('feat: app', {
      '.hestai/context/PROJECT-CONTEXT.oct.md': '===PROJECT_CONTEXT===\nPHASE::B1\nNAME::"demo"\n===END===\n',
      '.gitignore': '.hestai/sessions/\n.hestai/audit/\n',
      'src/app.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      'test/app.test.ts': "import { add } from '../src/app';\n",
    });
    const mcp = await connectStdio(repo.dir, repo.env);

    const clockIn = await mcp.call('clock_in', { working_dir: repo.dir, role: ROLE, focus: 'implement the app' });
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    const sessionId = clockIn.structuredContent!['session_id'] as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(textOf(clockIn)).toContain(sessionId);

    const locked = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: sessionId });
    expect(locked.structuredContent).toMatchObject({ unlocked: false, code: 'NO_ANCHOR' });
    // Another agent's connection cannot close this session, anchored or not.
    const stranger = await connectStdio(repo.dir, repo.env);
    const refused = await stranger.call('clock_out', { working_dir: repo.dir, session_id: sessionId });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('code: NOT_YOUR_SESSION');
    expect(textOf(refused)).toMatch(/hint: /);

    const identity = await mcp.call('anchor', {
      stage: 'identity',
      working_dir: repo.dir,
      role: ROLE,
      session_id: sessionId,
    });
    expect(identity.isError, textOf(identity)).toBeFalsy();
    expect(identity.structuredContent).toMatchObject({ success: true, token: sessionId, terminal: false });

    const context = await mcp.call('anchor', {
      stage: 'context',
      working_dir: repo.dir,
      session_id: sessionId,
      payload: BIND,
    });
    expect(context.isError, textOf(context)).toBeFalsy();
    expect(context.structuredContent).toMatchObject({ success: true, terminal: false });
    expect(context.structuredContent!['server_arm']).toMatch(/BRANCH::main/);

    const bad = await mcp.call('anchor', {
      stage: 'proof',
      working_dir: repo.dir,
      session_id: sessionId,
      payload: PROOF.replace('GATE::npm test', ''),
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ success: false, terminal: false });
    expect((bad.structuredContent!['errors'] as string[]).join('\n')).toMatch(/GATE/);
    expect(bad.structuredContent!['guidance']).toBeTruthy();

    const proof = await mcp.call('anchor', {
      stage: 'proof',
      working_dir: repo.dir,
      session_id: sessionId,
      payload: PROOF,
    });
    expect(proof.isError, textOf(proof)).toBeFalsy();
    expect(proof.structuredContent).toMatchObject({ success: true, terminal: false });
    expect(proof.structuredContent!['anchor']).toMatch(/===RAPH_VECTOR::v4\.0===/);

    const unlocked = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: sessionId });
    expect(unlocked.structuredContent).toMatchObject({ unlocked: true, code: 'UNLOCKED', anchor: { role: ROLE } });
    expect(await mcp.read('hestai://session/current')).toMatchObject({
      session_id: sessionId,
      anchor: { unlocked: true },
    });

    const clockOut = await mcp.call('clock_out', {
      working_dir: repo.dir,
      session_id: sessionId,
      summary: 'added the app',
    });
    expect(clockOut.isError, textOf(clockOut)).toBeFalsy();
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', sessionId))).toBe(false);
    const after = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: sessionId });
    expect(after.structuredContent).toMatchObject({ unlocked: false });
    const history = (await mcp.read('hestai://session/archive')) as {
      sessions: Array<{ session_id: string | null; content: string | null }>;
    };
    expect(history.sessions.some((s) => s.session_id === sessionId || (s.content ?? '').includes(sessionId))).toBe(
      true,
    );
  });
});
