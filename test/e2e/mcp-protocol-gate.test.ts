import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { anchorOverMcp, CEREMONY_FILES, CEREMONY_ROLE, connectStdio, textOf } from '../helpers/mcp.js';

// Issue 15, item 5: with protocol.enforce, MCP tools other than the protocol's own and the ceremony's
// (clock_in, anchor, odyssean_anchor, anchor_status) refuse while a blocking start gate is unmet, naming
// the gate and the tool call that satisfies it. A real SDK client against the built server over stdio.

function setup(enforce: boolean) {
  const repo = makeRepo();
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  repo.write('.hestai_workspace.yaml', `protocol:\n  enforce: ${enforce}\n`);
  repo.commit('chore: app', CEREMONY_FILES);
  repo.git(['switch', '-q', '-c', 'feat/x']);
  return repo;
}

const active = (dir: string, id: string) => fs.existsSync(path.join(dir, '.hestai/sessions/active', id));

describe('MCP tools under protocol.enforce (stdio)', () => {
  it('clock_out refuses until every blocking start gate is met, naming each gate and its tool call; the protocol and ceremony tools stay open', async () => {
    const repo = setup(true);
    const mcp = await connectStdio(repo.dir, repo.env);
    const clockIn = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE, focus: 'gated' });
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    const id = clockIn.structuredContent!['session_id'] as string;
    // Anchored: clock_out is held by the protocol (an unanchored session may always clock out, see below).
    await anchorOverMcp(mcp, repo.dir, id);

    // No protocol run yet: refused, and the remedy is the protocol's own tool.
    const notStarted = await mcp.call('clock_out', { working_dir: repo.dir, summary: 'too early' });
    expect(notStarted.isError).toBe(true);
    expect(textOf(notStarted)).toContain('code: PROTOCOL_GATE');
    expect(textOf(notStarted)).toContain(
      `session_start({"working_dir":${JSON.stringify(fs.realpathSync(repo.dir))},"session_id":"${id}","objective":`,
    );
    expect(active(repo.dir, id)).toBe(true);

    const start = await mcp.call('session_start', { working_dir: repo.dir, objective: 'gated work' });
    expect(start.isError, textOf(start)).toBeFalsy();

    const blocked = await mcp.call('clock_out', { working_dir: repo.dir, summary: 'still too early' });
    expect(blocked.isError).toBe(true);
    const text = textOf(blocked);
    expect(text).toContain('clock_out is refused');
    expect(text).toContain('BINDING/read_context');
    const where = `"working_dir":${JSON.stringify(fs.realpathSync(repo.dir))},"session_id":"${id}"`;
    expect(text).toContain(
      `record_evidence({${where},"phase":"BINDING","step":"read_context","evidence_type":"content_hash"`,
    );
    expect(text).not.toContain('BINDING/anchor');
    expect(active(repo.dir, id)).toBe(true);

    // The tools that satisfy the gates, and the status, are never refused.
    const status = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(status.isError, textOf(status)).toBeFalsy();
    expect(status.structuredContent!['protocol_gate']).toMatchObject({ unlocked: false, code: 'GATE_UNMET' });
    expect(textOf(status)).toContain('BINDING/read_context');
    const why = await mcp.call('get_blocked_reason', { working_dir: repo.dir });
    expect(why.isError, textOf(why)).toBeFalsy();

    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md')))
      .digest('hex');
    const evidence = await mcp.call('record_evidence', {
      working_dir: repo.dir,
      phase: 'BINDING',
      step: 'read_context',
      evidence_type: 'content_hash',
      evidence: hash,
    });
    expect(evidence.isError, textOf(evidence)).toBeFalsy();
    const unlocked = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(unlocked.structuredContent!['protocol_gate']).toMatchObject({ unlocked: true, code: 'UNLOCKED' });

    const out = await mcp.call('clock_out', { working_dir: repo.dir, summary: 'gates met' });
    expect(out.isError, textOf(out)).toBeFalsy();
    expect(active(repo.dir, id)).toBe(false);
  });

  it('an agent can clock_out its own unanchored session under protocol.enforce (nothing it did can be committed)', async () => {
    const repo = setup(true);
    const mcp = await connectStdio(repo.dir, repo.env);
    const clockIn = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE, focus: 'wrong turn' });
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    const id = clockIn.structuredContent!['session_id'] as string;
    expect((await mcp.call('session_start', { working_dir: repo.dir, objective: 'abandoned' })).isError).toBeFalsy();
    const out = await mcp.call('clock_out', { working_dir: repo.dir, summary: 'abandoned before anchoring' });
    expect(out.isError, textOf(out)).toBeFalsy();
    expect(active(repo.dir, id)).toBe(false);
  });

  it('without protocol.enforce nothing waits for the protocol', async () => {
    const repo = setup(false);
    const mcp = await connectStdio(repo.dir, repo.env);
    const clockIn = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE });
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    const status = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(status.structuredContent!['protocol_gate']).toMatchObject({ unlocked: true, code: 'OFF' });
    const out = await mcp.call('clock_out', { working_dir: repo.dir });
    expect(out.isError, textOf(out)).toBeFalsy();
  });

  it('a terminal handshake can still be closed with clock_out (no tool call can meet its anchor gate)', async () => {
    const repo = setup(true);
    const mcp = await connectStdio(repo.dir, repo.env);
    const clockIn = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE });
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    expect((await mcp.call('session_start', { working_dir: repo.dir, objective: 'doomed' })).isError).toBeFalsy();
    let last = await mcp.call('anchor', { stage: 'identity', working_dir: repo.dir, role: CEREMONY_ROLE });
    for (let attempt = 0; attempt < 10 && last.structuredContent?.['terminal'] !== true; attempt++) {
      last = await mcp.call('anchor', {
        stage: 'context',
        working_dir: repo.dir,
        payload: '## BIND (Identity Lock)\nROLE::someone-else',
      });
    }
    expect(last.structuredContent).toMatchObject({ terminal: true });
    const out = await mcp.call('clock_out', { working_dir: repo.dir, summary: 'terminal, handed to a human' });
    expect(out.isError, textOf(out)).toBeFalsy();
  });
});
