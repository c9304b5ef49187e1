import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adoptClaudeCode,
  anchorSession,
  newAgent,
  runClaudeHook,
  sessionStartCall,
  shellSession,
  type Agent,
} from '../helpers/claude-hook.js';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { anchorOverMcp, ceremonyRepo, CEREMONY_ROLE, connectStdio } from '../helpers/mcp.js';
import { withRemote } from '../helpers/runtime-agent.js';

// Issue 42 item 3: a commit made in a session an agent runtime started carries `Assisted-by: <runtime>:<model>`
// (the commit-msg hook adds it beside the HestAI trailers, once), and `hestai verify` judges it by the base's
// `commit.attribution` from the anchor's proof record, after a real push, in a fresh clone.

/** Claude Code adopted, `config` appended to the policy; an agent started with `model`, anchored. */
function startAgent(config: string, payload: Record<string, unknown>): { repo: TempRepo; agent: Agent } {
  const repo = makeRepo();
  const { command } = adoptClaudeCode(repo);
  if (config !== '') {
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), config);
    repo.git(['commit', '-q', '--no-verify', '-am', 'chore: attribution policy']);
  }
  const agent = newAgent('attr');
  const start = runClaudeHook(repo, command, agent, { ...sessionStartCall(), ...payload });
  expect(start.status, start.stderr).toBe(0);
  anchorSession(repo, shellSession(agent));
  return { repo, agent };
}

/** A command in the agent's shell, which sources the runtime's env file first. */
function shell(repo: TempRepo, agent: Agent, script: string) {
  return spawnSync('sh', ['-c', `. "$CLAUDE_ENV_FILE" && ${script}`], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_ENV_FILE: agent.envFile },
    encoding: 'utf8',
  });
}

const lastMessage = (repo: TempRepo) => repo.git(['log', '-1', '--format=%B']).stdout;
const count = (text: string, line: RegExp) => text.split('\n').filter((l) => line.test(l)).length;

function verifyInClone(repo: TempRepo, remote: string) {
  repo.git(['push', '-q', 'origin', 'agent-work']);
  const clone = path.join(tempDir('hestai-ci-'), 'clone');
  repo.git(['clone', '-q', '--branch', 'agent-work', `file://${remote}`, clone]);
  const result = repo.hestai(['verify', '--format', 'json'], { cwd: clone });
  const report = JSON.parse(result.stdout) as {
    commits: { header: string; verdicts: { rule: string; status: string; message: string }[] }[];
  };
  const verdict = (header: string) =>
    report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'attribution');
  return { status: result.status, verdict, output: result.stdout + result.stderr };
}

describe('attribution trailers (issue 42)', () => {
  it('the commit-msg hook adds Assisted-by: runtime:model once, beside the HestAI trailers, also on a revert', () => {
    const { repo, agent } = startAgent('', { model: 'claude-opus-4-1' });
    const token = shellSession(agent);
    repo.write('notes/a.md', 'a\n');
    const first = shell(repo, agent, 'git add notes && git commit -q -m "docs: notes"');
    expect(first.status, first.stderr).toBe(0);
    const message = lastMessage(repo);
    expect(message).toContain(`HestAI-Session: ${token}\n`);
    expect(message).toMatch(/HestAI-Anchor: sha256:[0-9a-f]{64}\nAssisted-by: claude-code:claude-opus-4-1\n/);

    // A message that already carries the trailer (the agent wrote it) keeps exactly one.
    repo.write('notes/b.md', 'b\n');
    const again = shell(
      repo,
      agent,
      'git add notes && git commit -q -m "docs: more notes" -m "Assisted-by: claude-code:claude-opus-4-1"',
    );
    expect(again.status, again.stderr).toBe(0);
    expect(count(lastMessage(repo), /^Assisted-by:/)).toBe(1);

    // git revert runs prepare-commit-msg (its trailer writer) and no commit-msg: one Assisted-by still.
    const revert = shell(repo, agent, 'git revert --no-edit HEAD');
    expect(revert.status, revert.stderr).toBe(0);
    expect(count(lastMessage(repo), /^Assisted-by: claude-code:claude-opus-4-1$/)).toBe(1);
    expect(count(lastMessage(repo), /^HestAI-Session:/)).toBe(1);
  });

  it('names the runtime alone when it gives no model, and refuses a model that would forge trailers', () => {
    const { repo, agent } = startAgent('', { model: 'opus\nSigned-off-by: Someone <s@example.com>' });
    repo.write('notes/a.md', 'a\n');
    const made = shell(repo, agent, 'git add notes && git commit -q -m "docs: notes"');
    expect(made.status, made.stderr).toBe(0);
    const message = lastMessage(repo);
    expect(message).toMatch(/\nAssisted-by: claude-code\n/);
    expect(message).not.toContain('Signed-off-by');
  });

  it('commit.attribution: off stops the hook adding the trailer', () => {
    const { repo, agent } = startAgent('commit:\n  attribution: off\n', { model: 'claude-opus-4-1' });
    repo.write('notes/a.md', 'a\n');
    const made = shell(repo, agent, 'git add notes && git commit -q -m "docs: notes"');
    expect(made.status, made.stderr).toBe(0);
    expect(lastMessage(repo)).not.toContain('Assisted-by');
    expect(lastMessage(repo)).toContain('HestAI-Session:');
  });

  it('under required, verify fails an agent commit without Assisted-by, and warns on its Signed-off-by', () => {
    const { repo, agent } = startAgent('commit:\n  attribution: required\n', { model: 'claude-opus-4-1' });
    const remote = withRemote(repo);
    repo.write('notes/a.md', 'a\n');
    expect(shell(repo, agent, 'git add notes && git commit -q -m "docs: attributed"').status).toBe(0);
    repo.write('notes/b.md', 'b\n');
    expect(shell(repo, agent, 'git add notes && git commit -q -s -m "docs: signed off"').status).toBe(0);
    repo.write('notes/c.md', 'c\n');
    expect(shell(repo, agent, 'git add notes && git commit -q -m "docs: stripped"').status).toBe(0);
    // The agent strips the trailer past the hooks, keeping the HestAI ones.
    const stripped = lastMessage(repo)
      .split('\n')
      .filter((l) => !l.startsWith('Assisted-by:'))
      .join('\n');
    expect(shell(repo, agent, `git -c core.hooksPath=/dev/null commit -q --amend -m '${stripped}'`).status).toBe(0);
    // Another commit's trailer is rewritten past the hooks to name another runtime than the anchor record.
    repo.write('notes/d.md', 'd\n');
    expect(shell(repo, agent, 'git add notes && git commit -q -m "docs: misattributed"').status).toBe(0);
    const forged = lastMessage(repo).replace(/^Assisted-by: .*$/m, 'Assisted-by: codex:gpt-5');
    expect(shell(repo, agent, `git -c core.hooksPath=/dev/null commit -q --amend -m '${forged}'`).status).toBe(0);

    const { status, verdict, output } = verifyInClone(repo, remote);
    expect(status, output).toBe(1);
    expect(verdict('docs: misattributed')).toMatchObject({ status: 'fail' });
    expect(verdict('docs: misattributed')?.message).toContain('Assisted-by: codex:gpt-5');
    expect(verdict('docs: attributed')?.status).toBe('pass');
    expect(verdict('docs: stripped')).toMatchObject({ status: 'fail' });
    expect(verdict('docs: stripped')?.message).toContain('Assisted-by');
    expect(verdict('docs: signed off')).toMatchObject({ status: 'warn' });
    expect(verdict('docs: signed off')?.message).toContain('must not add Signed-off-by');
  });

  it('under the default (warn), a missing Assisted-by is a warning and verify passes', () => {
    const { repo, agent } = startAgent('', {});
    const remote = withRemote(repo);
    repo.write('notes/c.md', 'c\n');
    expect(shell(repo, agent, 'git add notes && git commit -q -m "docs: stripped"').status).toBe(0);
    const stripped = lastMessage(repo)
      .split('\n')
      .filter((l) => !l.startsWith('Assisted-by:'))
      .join('\n');
    expect(shell(repo, agent, `git -c core.hooksPath=/dev/null commit -q --amend -m '${stripped}'`).status).toBe(0);
    const { status, verdict, output } = verifyInClone(repo, remote);
    expect(status, output).toBe(0);
    expect(verdict('docs: stripped')).toMatchObject({ status: 'warn' });
  });

  it('a session clocked in over MCP (clock_in, or anchor identity without a session) names the client it came from', async () => {
    const repo = ceremonyRepo();
    const commitAs = (session: string, file: string) => {
      repo.write(file, 'x\n');
      repo.git(['add', file]);
      repo.git(['commit', '-q', '-m', `docs: ${file}`], { env: { HESTAI_SESSION: session } });
      return lastMessage(repo);
    };
    const qwen = await connectStdio(repo.dir, repo.env, { clientName: 'qwen-cli-mcp-client' });
    const clocked = await qwen.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE });
    const session = clocked.structuredContent!['session_id'] as string;
    await anchorOverMcp(qwen, repo.dir, session);
    expect(commitAs(session, 'notes/a.md')).toMatch(/\nAssisted-by: qwen-cli-mcp-client\n/);
    const opencode = await connectStdio(repo.dir, repo.env, { clientName: 'opencode' });
    expect(commitAs(await anchorOverMcp(opencode, repo.dir), 'notes/b.md')).toMatch(/\nAssisted-by: opencode\n/);
    // a colon would read as runtime:model, and the session's own trailer would not name it
    const colon = await connectStdio(repo.dir, repo.env, { clientName: 'my:client' });
    expect(commitAs(await anchorOverMcp(colon, repo.dir), 'notes/d.md')).toMatch(/\nAssisted-by: my-client\n/);
    // a name that is not one safe word is not recorded (no forged trailers)
    const forged = await connectStdio(repo.dir, repo.env, { clientName: 'x\nSigned-off-by: Someone <s@example.com>' });
    const message = commitAs(await anchorOverMcp(forged, repo.dir), 'notes/c.md');
    expect(message).not.toContain('Assisted-by');
    expect(message).not.toContain('Signed-off-by');
  });

  it('hestai report shows the runtime and model of the session', () => {
    const { repo, agent } = startAgent('', { model: 'claude-opus-4-1' });
    withRemote(repo);
    repo.write('notes/a.md', 'a\n');
    expect(shell(repo, agent, 'git add notes && git commit -q -m "docs: notes"').status).toBe(0);
    const report = repo.hestai(['report', '--from', 'main', '--out', '-']);
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toContain('claude-code:claude-opus-4-1');
  });
});
