import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TempRepo } from '../helpers/git-repo.js';
import { anchorOverMcp, CEREMONY_ROLE, ceremonyRepo, connectStdio, textOf } from '../helpers/mcp.js';
import { makeSession } from '../helpers/session-fixture.js';

// Several agents, one worktree (issue 14, item 1): nothing picks a session on an agent's behalf unless
// exactly one fits. Real hooks installed by `hestai init`, real `git commit`s, real MCP servers over stdio.

const agentRepo = ceremonyRepo;

/** A real `git commit` through the installed hooks, with `env` added to the repository's environment. */
function commit(repo: TempRepo, message: string, env: NodeJS.ProcessEnv = {}) {
  repo.write(`notes/${Math.random().toString(36).slice(2)}.md`, 'note\n');
  repo.git(['add', '-A']);
  return repo.git(['commit', '-q', '-m', message], { allowFail: true, env });
}
const lastMessage = (repo: TempRepo) => repo.git(['log', '-1', '--format=%B']).stdout;

describe('a commit is made under one session, chosen only when unambiguous', () => {
  it('refuses the commit of an agent that never clocked in while another agent (over MCP) is anchored', async () => {
    const repo = agentRepo();
    const agentA = await connectStdio(repo.dir, repo.env);
    const clockIn = await agentA.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE, focus: 'the app' });
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    const a = clockIn.structuredContent!['session_id'] as string;
    await anchorOverMcp(agentA, repo.dir, a);

    // Agent B never clocked in and names no session: A's anchor must not cover its commit.
    const stranger = commit(repo, 'docs: notes of agent B');
    expect(stranger.status, stranger.stderr).not.toBe(0);
    expect(stranger.stderr).toContain(a);
    expect(stranger.stderr).toContain('HESTAI_SESSION');
    expect(repo.git(['log', '--format=%s']).stdout).not.toContain('agent B');

    // Agent A pins its session (as its runtime does) and commits with its own trailers.
    const own = commit(repo, 'docs: notes of agent A', { HESTAI_SESSION: a });
    expect(own.status, own.stderr).toBe(0);
    expect(lastMessage(repo)).toContain(`HestAI-Session: ${a}`);
  });

  it('refuses an implicit choice between two live sessions, listing both and how to choose; a pinned commit carries only its own trailers', () => {
    const repo = agentRepo();
    const one = makeSession(repo.dir);
    const two = makeSession(repo.dir);
    const refused = commit(repo, 'docs: whose session?');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(one.token);
    expect(refused.stderr).toContain(two.token);
    expect(refused.stderr).toMatch(/HESTAI_SESSION=/);

    const chosen = commit(repo, 'docs: mine', { HESTAI_SESSION: two.token });
    expect(chosen.status, chosen.stderr).toBe(0);
    const message = lastMessage(repo);
    expect(message).toContain(`HestAI-Session: ${two.token}`);
    expect(message).not.toContain(one.token);
    expect(message.match(/HestAI-Session:/g)).toHaveLength(1);
  });

  it('uses the only live session of the worktree when nobody pinned it (one human, one session)', () => {
    const repo = agentRepo();
    const only = makeSession(repo.dir);
    const result = commit(repo, 'docs: alone');
    expect(result.status, result.stderr).toBe(0);
    expect(lastMessage(repo)).toContain(`HestAI-Session: ${only.token}`);
  });

  it('hestai clock-in --print-env prints the line an agent runtime needs, and that session is only used where it is named', () => {
    const repo = agentRepo();
    const printed = repo.hestai(['clock-in', '--role', CEREMONY_ROLE, '--print-env']);
    expect(printed.status, printed.stderr).toBe(0);
    const match = /^export HESTAI_SESSION=([0-9a-f-]{36})\n$/.exec(printed.stdout);
    expect(match, printed.stdout).not.toBeNull();
    const id = match![1]!;
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', id, 'session.json'))).toBe(true);

    // Pinned: a command that names no session does not pick it.
    const refresh = repo.hestai(['refresh']);
    expect(refresh.status).toBe(2);
    expect(refresh.stderr).toContain(id);
    expect(refresh.stderr).toMatch(/--session|HESTAI_SESSION/);
    const named = repo.hestai(['refresh'], { env: { HESTAI_SESSION: id } });
    expect(named.status, named.stderr).toBe(0);
  });

  it('CLI commands refuse to guess between two live sessions and name the candidates', () => {
    const repo = agentRepo();
    const one = makeSession(repo.dir);
    const two = makeSession(repo.dir);
    for (const args of [['refresh'], ['ack', '--reason', 'still right'], ['clock-out']]) {
      const result = repo.hestai(args);
      expect(result.status, `${args[0]}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(one.token);
      expect(result.stderr).toContain(two.token);
      expect(result.stderr).toContain('--session');
    }
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', one.token))).toBe(true);
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', two.token))).toBe(true);
  });

  it('anchor_status on a connection with no session of its own refuses to guess between two live sessions', async () => {
    const repo = agentRepo();
    const one = makeSession(repo.dir);
    const two = makeSession(repo.dir);
    const mcp = await connectStdio(repo.dir, repo.env);
    const status = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(status.isError).toBe(true);
    expect(textOf(status)).toContain(one.token);
    expect(textOf(status)).toContain(two.token);
    expect(textOf(status)).toContain('session_id');
    expect(textOf(status)).not.toMatch(/--session/);
  });
});
