import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { connectInProcess } from '../helpers/mcp.js';
import { seedAnchor } from '../helpers/session-fixture.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

// The session-protocol tools and the session:// resources of seed 004, through an in-process MCP client.

function setup() {
  const repo = makeRepo();
  const env = { PATH: pathWithoutGh() };
  expect(repo.hestai(['init', '--no-husky'], { env }).status).toBe(0);
  repo.commit('chore: hestai init');
  repo.git(['switch', '-q', '-c', 'feat/mcp']);
  const clock = repo.hestai(['clock-in', '--role', 'implementation-lead', '--focus', 'mcp', '--json'], { env });
  expect(clock.status, clock.stderr).toBe(0);
  const token = (JSON.parse(clock.stdout) as { session_id: string }).session_id;
  return { repo, token, env: { ...repo.env, ...env, HESTAI_SESSION: token } };
}

describe('MCP session-protocol tools', () => {
  it('start → blocked reason as tool calls → evidence → validate → advance → end, with the seed resources', async () => {
    const { repo, token, env } = setup();
    const mcp = await connectInProcess({ cwd: repo.dir, env });
    const w = { working_dir: repo.dir };

    expect(await mcp.read('session://state')).toMatchObject({
      session_id: token,
      current_phase: null,
      hint: expect.stringContaining('session_start'),
    });
    const pending = (await mcp.read('session://checklist')) as { start: Array<{ status: string; result: string }> };
    expect(pending.start.map((i) => i.result)).toEqual(['PENDING', 'PENDING', 'PENDING']);

    const start = await mcp.call('session_start', { ...w, objective: 'serve the protocol' });
    expect(start.isError).toBeFalsy();
    expect(start.structuredContent).toMatchObject({ session_id: token, phase: 'BINDING', blocked_until: ['BINDING'] });
    const again = await mcp.call('session_start', { ...w, objective: 'twice' });
    expect(again.isError).toBe(true);
    expect(again.content[0]!.text).toContain('already has a protocol run');

    const blocked = await mcp.call('get_blocked_reason', w);
    expect(blocked.structuredContent).toMatchObject({ is_blocked: true, current_phase: 'BINDING' });
    const actions = blocked.structuredContent!['suggested_actions'] as string[];
    const where = `"working_dir":${JSON.stringify(fs.realpathSync(repo.dir))},"session_id":"${token}"`;
    expect(actions[0]).toContain(
      `record_evidence({${where},"phase":"BINDING","step":"read_context","evidence_type":"content_hash"`,
    );
    expect(actions[1]).toContain(`anchor({"stage":"identity",${where},"role":"implementation-lead"})`);

    const refused = await mcp.call('advance_phase', w);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      success: false,
      blocked_by: ['BINDING/read_context', 'BINDING/anchor'],
    });

    const todo = await mcp.call('record_evidence', {
      ...w,
      phase: 'BINDING',
      step: 'read_context',
      evidence_type: 'manual',
      evidence: 'TODO',
    });
    expect(todo.structuredContent).toMatchObject({ evidence_recorded: true, gate_status: 'FAIL' });
    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md')))
      .digest('hex');
    const ev = await mcp.call('record_evidence', {
      ...w,
      phase: 'BINDING',
      evidence_type: 'content_hash',
      evidence: `sha256:${hash}`,
    });
    expect(ev.structuredContent).toMatchObject({ step: 'read_context', auto_validated: true, gate_status: 'PASS' });
    seedAnchor(repo.dir, token, {}, { role: 'implementation-lead' });

    const gate = await mcp.call('validate_gate', { ...w, phase: 'BINDING' });
    expect(gate.structuredContent).toMatchObject({
      phase: 'BINDING',
      requirement_level: 'MUST',
      status: 'PASS',
      blocking: true,
    });
    expect(gate.structuredContent!['gates']).toHaveLength(3);
    expect((await mcp.call('get_blocked_reason', w)).structuredContent).toMatchObject({
      is_blocked: false,
      blocked_phases: [],
      suggested_actions: [],
    });

    const adv = await mcp.call('advance_phase', { ...w, target_phase: 'END' });
    expect(adv.structuredContent).toMatchObject({ success: true, previous_phase: 'BINDING', current_phase: 'END' });

    const state = (await mcp.read('session://state')) as Record<string, unknown>;
    expect(state).toMatchObject({
      session_id: token,
      objective: 'serve the protocol',
      branch: 'feat/mcp',
      current_phase: 'END',
      phases_completed: ['BINDING', 'WORK'],
      violations: [],
    });
    expect(state['evidence']).toMatchObject({ BINDING: { 'read_context:content_hash': `sha256:${hash}` } });
    const checklist = (await mcp.read('session://checklist')) as {
      start: Array<{ req: string; step: string; status: string }>;
      end: unknown[];
    };
    expect(checklist.start[0]).toMatchObject({ req: 'MUST', status: 'x' });
    expect(checklist.end).toHaveLength(5);

    const incomplete = await mcp.call('session_end', { ...w, summary: 'not yet' });
    expect(incomplete.isError).toBe(true);
    expect(incomplete.structuredContent).toMatchObject({ status: 'INCOMPLETE', handoff_updated: false });
    expect(await mcp.read('session://history')).toEqual({ working_dir: repo.dir, sessions: [] });

    repo.write(
      '.hestai/context/PROJECT-CONTEXT.oct.md',
      `${fs.readFileSync(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md'), 'utf8')}DONE::"mcp"\n`,
    );
    repo.commit('test(mcp): tools', { 'test/mcp.test.ts': 'x\n' });
    repo.commit('feat(mcp): tools', { 'src/mcp.ts': 'x\n' });
    const end = await mcp.call('session_end', {
      ...w,
      summary: 'served',
      next_session_notes: 'gate the tools',
      key_decisions: ['local files only'],
    });
    expect(end.isError, end.content[0]!.text).toBeFalsy();
    expect(end.structuredContent).toMatchObject({ status: 'COMPLETE', handoff_updated: true });
    expect(await mcp.read('session://history')).toEqual({
      working_dir: repo.dir,
      sessions: [
        expect.objectContaining({
          session_id: token,
          objective: 'serve the protocol',
          outcome: 'COMPLETE',
          key_decisions: ['local files only'],
          next_session_notes: 'gate the tools',
        }),
      ],
    });
  });

  it('session://violations lists forced skips with session, time, phase, requirement, severity and recovery', async () => {
    const { repo, token, env } = setup();
    const mcp = await connectInProcess({ cwd: repo.dir, env });
    await mcp.call('session_start', { working_dir: repo.dir, objective: 'force it' });
    const forced = await mcp.call('advance_phase', { working_dir: repo.dir, force: true });
    expect(forced.structuredContent).toMatchObject({ success: true, current_phase: 'WORK' });
    expect(forced.structuredContent!['violations']).toHaveLength(2);
    const { violations } = (await mcp.read('session://violations')) as { violations: Array<Record<string, unknown>> };
    expect(violations).toHaveLength(2);
    expect(violations[0]).toMatchObject({
      session_id: token,
      phase: 'BINDING',
      severity: 'CRITICAL',
      requirement: expect.stringContaining('BINDING/read_context'),
      recovery: expect.stringMatching(/^(?:hestai|node \S+\/bin\.js) session evidence /),
    });
    expect(typeof violations[0]!['timestamp']).toBe('string');
  });
});
