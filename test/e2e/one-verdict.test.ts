import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import {
  adoptClaudeCode,
  newAgent,
  preToolUse,
  runClaudeHook,
  sessionStartCall,
  shellSession,
  type Agent,
} from '../helpers/claude-hook.js';
import { connectStdio, textOf, type OverStdio } from '../helpers/mcp.js';
import { eachSituation, setEnforce, SITUATIONS } from '../helpers/verdict-situations.js';

// Issue 37, item 4: one verdict. Whether a session may act is one decision, asked by the git hook (a real
// `git commit`), the agent hook (the command `hestai init --agent claude-code` wrote, fed Claude Code's
// payload), `hestai status --json` and MCP `anchor_status` (a real client over stdio). Each of the eight
// situations must get the same verdict and the same reason code from all four. State is aged without a fake
// clock: the CLI's own commands run with HESTAI_NOW set in the past (refresh, anchor), the surfaces judge at
// the system clock.

interface Verdicts {
  git: string;
  agent: string;
  status: string;
  mcp: string;
}

let notes = 0;

/** The code each surface reports for `session` (null: no session), or UNLOCKED where it lets the act through. */
async function verdicts(
  repo: TempRepo,
  command: string,
  agent: Agent,
  mcp: OverStdio,
  session: string | null,
): Promise<Verdicts> {
  const env = session === null ? {} : { HESTAI_SESSION: session };
  const code = (out: string) => /^verdict: ([A-Z_]+)$/m.exec(out)?.[1] ?? `(no verdict line in: ${out})`;

  const file = `notes/n${++notes}.md`;
  repo.write(file, `note ${notes}\n`);
  repo.git(['add', file]);
  const commit = repo.git(['commit', '-q', '-m', `docs: note ${notes}`], { allowFail: true, env });
  const git = commit.status === 0 ? 'UNLOCKED' : code(commit.stderr + commit.stdout);
  if (commit.status !== 0) repo.git(['reset', '-q', '--', file]);

  const edit = runClaudeHook(
    repo,
    command,
    agent,
    preToolUse('Edit', { file_path: path.join(repo.dir, 'src/app.ts'), old_string: '1', new_string: '2' }),
  );
  expect([0, 2], edit.stderr).toContain(edit.status);
  const agentCode = edit.status === 0 ? 'UNLOCKED' : code(edit.stderr);

  const status = repo.hestai(['--json', 'status'], { env });
  expect(status.status, status.stderr).toBe(0);
  const statusCode = (JSON.parse(status.stdout) as { verdict?: { code: string } }).verdict?.code ?? '(no verdict)';

  const answer = await mcp.call('anchor_status', {
    working_dir: repo.dir,
    ...(session === null ? {} : { session_id: session }),
  });
  expect(answer.isError, textOf(answer)).toBeFalsy();
  const mcpCode = answer.structuredContent!['code'] as string;
  expect(answer.structuredContent!['unlocked']).toBe(mcpCode === 'UNLOCKED');
  return { git, agent: agentCode, status: statusCode, mcp: mcpCode };
}

const all = (code: string): Verdicts => ({ git: code, agent: code, status: code, mcp: code });

/** A new agent started by Claude Code (SessionStart clocks it in and binds it); its hestai session. */
function startAgent(repo: TempRepo, command: string, name: string): { agent: Agent; token: string } {
  const agent = newAgent(name);
  const start = runClaudeHook(repo, command, agent, sessionStartCall());
  expect(start.status, start.stderr).toBe(0);
  return { agent, token: shellSession(agent) };
}

describe('one verdict: git hook, agent hook, hestai status and MCP anchor_status agree', () => {
  it('gives the same verdict and reason code in each of the eight situations', async () => {
    const repo = makeRepo();
    const { command } = adoptClaudeCode(repo);
    setEnforce(repo, false);
    const mcp = await connectStdio(repo.dir, repo.env);
    const seen: Record<string, Verdicts> = {};
    const agents = new Map<string, Agent>();
    await eachSituation(
      repo,
      (name) => {
        const { agent, token } = startAgent(repo, command, name);
        agents.set(token, agent);
        return token;
      },
      async (situation, session) => {
        const agent = session === null ? newAgent('nobody') : agents.get(session)!;
        seen[situation] = await verdicts(repo, command, agent, mcp, session);
      },
    );
    expect(seen).toEqual(Object.fromEntries(Object.entries(SITUATIONS).map(([name, code]) => [name, all(code)])));
  });
});
