import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { connectInProcess, textOf } from '../helpers/mcp.js';
import { seedSession } from '../helpers/session-fixture.js';

// Resources follow the repository the agent works in (issue 14, item 7): a server started in one
// repository whose agent works in another must never show the first one's sessions silently.

describe('MCP resources follow the repository the agent works in', () => {
  it('read the worktree of the connection’s session, not the directory the server was started in', async () => {
    const started = makeRepo();
    const elsewhere = seedSession(started.dir);
    const work = makeRepo();
    const mcp = await connectInProcess({ cwd: started.dir, env: work.env });
    const before = (await mcp.read('hestai://session/current')) as Record<string, unknown>;
    expect(before).toMatchObject({ working_dir: started.dir, session_id: elsewhere.session_id });

    const clockIn = await mcp.call('clock_in', {
      working_dir: work.dir,
      role: 'implementation-lead',
      focus: 'the other repo',
    });
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    const id = clockIn.structuredContent!['session_id'] as string;
    for (const uri of [
      'session://state',
      'session://checklist',
      'session://history',
      'session://violations',
      'hestai://session/current',
      'hestai://context/checklist',
      'hestai://session/archive',
      'hestai://audit',
    ]) {
      expect(await mcp.read(uri), uri).toMatchObject({ working_dir: work.dir });
    }
    expect(await mcp.read('hestai://session/current')).toMatchObject({ session_id: id, selected_by: 'connection' });
    expect(await mcp.read('session://state')).toMatchObject({ session_id: id, current_phase: null });
  });

  it('without a session, read the repository of the last working_dir a tool was given', async () => {
    const started = makeRepo();
    const work = makeRepo();
    const only = seedSession(work.dir);
    const mcp = await connectInProcess({ cwd: started.dir, env: work.env });
    await mcp.call('anchor_status', { working_dir: work.dir });
    expect(await mcp.read('hestai://session/current')).toMatchObject({
      working_dir: work.dir,
      session_id: only.session_id,
      selected_by: 'only',
    });
  });
});
