import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adoptClaudeCode,
  newAgent,
  preToolUse,
  runClaudeHook,
  sessionStartCall,
  shellSession,
} from '../helpers/claude-hook.js';
import { makeRepo } from '../helpers/git-repo.js';
import { anchorOverMcp, CEREMONY_FILES, connectStdio, textOf } from '../helpers/mcp.js';

// Issue 26, item 5: one agent, one session. This test process plays Claude Code: it runs the hook command of
// .claude/settings.json (through sh -c, as Claude Code does) and starts the MCP server of .mcp.json as its
// own child over stdio, so the hook and the server share their runtime process, as they do under Claude Code.

const activeIds = (dir: string) =>
  fs.readdirSync(path.join(dir, '.hestai/sessions/active')).filter((n) => /^[0-9a-f-]{36}$/.test(n));

describe('one agent, one session across the hooks and the MCP server', () => {
  it('the MCP server started by the same runtime uses the hook-bound session: anchor_status, the ceremony and the edit hook agree', async () => {
    const repo = makeRepo();
    const { command } = adoptClaudeCode(repo);
    repo.commit('chore: the files the ceremony cites', CEREMONY_FILES);
    const agent = newAgent('one');
    expect(runClaudeHook(repo, command, agent, sessionStartCall()).status).toBe(0);
    const token = shellSession(agent);

    const mcp = await connectStdio(repo.dir, repo.env);
    const status = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(status.structuredContent).toMatchObject({ session_id: token, unlocked: false });
    // "Start with clock_in" creates no second session: the runtime's session is already bound, and the
    // answer says which and what comes next.
    const clockIn = await mcp.call('clock_in', { working_dir: repo.dir, role: 'implementation-lead', focus: 'x' });
    expect(clockIn.isError).toBe(true);
    expect(textOf(clockIn)).toContain('SESSION_BOUND');
    expect(textOf(clockIn)).toContain(token);
    expect(await anchorOverMcp(mcp, repo.dir)).toBe(token);
    expect(activeIds(repo.dir)).toEqual([token]);
    const unlocked = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(unlocked.structuredContent).toMatchObject({ session_id: token, unlocked: true });
    const edit = runClaudeHook(
      repo,
      command,
      agent,
      preToolUse('Edit', { file_path: path.join(repo.dir, 'src/app.ts'), old_string: 'a', new_string: 'b' }),
    );
    expect(edit.status, edit.stderr).toBe(0);
  });

  it('/clear with a new runtime session id binds a new session, and the server follows it', async () => {
    const repo = makeRepo();
    const { command } = adoptClaudeCode(repo);
    const agent = newAgent('clear');
    expect(runClaudeHook(repo, command, agent, sessionStartCall()).status).toBe(0);
    const first = shellSession(agent);
    const mcp = await connectStdio(repo.dir, repo.env);
    expect((await mcp.call('anchor_status', { working_dir: repo.dir })).structuredContent).toMatchObject({
      session_id: first,
    });
    const cleared = { ...agent, runtimeId: `${agent.runtimeId}-cleared` };
    const start = runClaudeHook(repo, command, cleared, sessionStartCall('clear'));
    expect(start.status, start.stderr).toBe(0);
    const second = shellSession(cleared);
    expect(second).not.toBe(first);
    expect((await mcp.call('anchor_status', { working_dir: repo.dir })).structuredContent).toMatchObject({
      session_id: second,
    });
  });

  it("a person's plain git commit in the same worktree is not stamped with the agent's session", () => {
    const repo = makeRepo();
    const { command } = adoptClaudeCode(repo);
    const agent = newAgent('person');
    expect(runClaudeHook(repo, command, agent, sessionStartCall()).status).toBe(0);
    const token = shellSession(agent);
    repo.write('notes.md', 'a person writes\n');
    repo.git(['add', 'notes.md']);
    const commit = repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
    const log = repo.git(['log', '-1', '--format=%B']).stdout;
    expect(log).not.toContain(token);
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain('pinned');
  });
});
