import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { connectStdio, textOf } from '../helpers/mcp.js';
import { seedAnchor } from '../helpers/session-fixture.js';

const ROLE = 'implementation-lead';

describe('session tools over stdio (the SDK stdio client against the built server)', () => {
  it("clock_in → anchor_status locked → a stranger's clock_out refused → (anchored) → clock_out archives", async () => {
    const repo = makeRepo();
    repo.commit('feat: app', {
      'src/app.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
    });
    const mcp = await connectStdio(repo.dir, repo.env);

    const clockIn = await mcp.call('clock_in', { working_dir: repo.dir, role: ROLE, focus: 'implement the app' });
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    const sessionId = clockIn.structuredContent!['session_id'] as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(textOf(clockIn)).toContain(sessionId);

    const locked = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(locked.structuredContent).toMatchObject({
      session_id: sessionId,
      selected_by: 'connection',
      unlocked: false,
      code: 'NO_ANCHOR',
    });
    const stranger = await connectStdio(repo.dir, repo.env);
    const refused = await stranger.call('clock_out', { working_dir: repo.dir, session_id: sessionId });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('code: NOT_YOUR_SESSION');
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', sessionId))).toBe(true);

    // Stand-in for the anchor handshake (the anchor tools arrive with the anchor library): a sealed,
    // validated anchor.json written by the real record writer.
    seedAnchor(repo.dir, sessionId);
    const unlocked = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: sessionId });
    expect(unlocked.structuredContent).toMatchObject({ unlocked: true, code: 'UNLOCKED' });
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
    const history = (await mcp.read('hestai://session/archive')) as { sessions: Array<{ session_id: string | null }> };
    expect(history.sessions[0]?.session_id).toBe(sessionId);
  });
});
