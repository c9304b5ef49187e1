import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { CEREMONY_FILES, CEREMONY_ROLE, connectStdio, textOf } from '../helpers/mcp.js';

// Truthful gating (issue 14, item 4): after the last allowed retry the handshake is terminal; the agent
// is told so (with the human remedy), not asked to start the ceremony again, and can still clock out.

describe('a terminal handshake over MCP', () => {
  it('anchor_status reports TERMINAL with the human remedy, and the connection can still close its session', async () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: app', CEREMONY_FILES);
    const mcp = await connectStdio(repo.dir, repo.env);
    const clockIn = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE });
    const id = clockIn.structuredContent!['session_id'] as string;
    const identity = await mcp.call('anchor', { stage: 'identity', working_dir: repo.dir, role: CEREMONY_ROLE });
    expect(identity.isError, textOf(identity)).toBeFalsy();

    let last = identity;
    for (let attempt = 0; attempt < 10 && last.structuredContent?.['terminal'] !== true; attempt++) {
      last = await mcp.call('anchor', {
        stage: 'context',
        working_dir: repo.dir,
        payload: '## BIND (Identity Lock)\nROLE::someone-else',
      });
      expect(last.isError).toBe(true);
    }
    expect(last.structuredContent).toMatchObject({ terminal: true, retries_left: 0 });

    const status = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ session_id: id, unlocked: false, code: 'TERMINAL' });
    const remedy = status.structuredContent!['remedy'] as string;
    expect(remedy).toMatch(/human/);
    expect(remedy).toContain(`hestai anchor reset --token ${id}`);
    expect(remedy).not.toMatch(/stage identity → context → proof/);
    expect(textOf(status)).toContain('TERMINAL');

    const out = await mcp.call('clock_out', { working_dir: repo.dir, summary: 'terminal, handed to a human' });
    expect(out.isError, textOf(out)).toBeFalsy();
    const archive = fs.readFileSync(path.join(repo.dir, out.structuredContent!['archive_path'] as string), 'utf8');
    expect(archive).toContain('BINDING::unanchored');
  });
});
