import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import {
  adoptClaudeCode,
  anchorSession,
  newAgent,
  preToolUse,
  runClaudeHook,
  sessionStartCall,
  shellSession,
  type Agent,
} from '../helpers/claude-hook.js';
import { CEREMONY_ROLE, connectStdio, textOf, type OverStdio } from '../helpers/mcp.js';

// Issue 37, item 4: one verdict. Whether a session may act is one decision, asked by the git hook (a real
// `git commit`), the agent hook (the command `hestai init --agent claude-code` wrote, fed Claude Code's
// payload), `hestai status --json` and MCP `anchor_status` (a real client over stdio). Each of the eight
// situations must get the same verdict and the same reason code from all four. State is aged without a fake
// clock: the CLI's own commands run with HESTAI_NOW set in the past (refresh, anchor), the surfaces judge at
// the system clock.

const HOUR = 3_600_000;
const ago = (hours: number) => ({ HESTAI_NOW: new Date(Date.now() - hours * HOUR).toISOString() });

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

function setEnforce(repo: TempRepo, on: boolean): void {
  const file = path.join(repo.dir, '.hestai_workspace.yaml');
  const text = fs.readFileSync(file, 'utf8').replace(/\nprotocol:\n {2}enforce: (true|false)\n/, '\n');
  fs.writeFileSync(file, `${text}\nprotocol:\n  enforce: ${on}\n`);
}

describe('one verdict: git hook, agent hook, hestai status and MCP anchor_status agree', () => {
  it('gives the same verdict and reason code in each of the eight situations', async () => {
    const repo = makeRepo();
    const { command } = adoptClaudeCode(repo);
    setEnforce(repo, false);
    const mcp = await connectStdio(repo.dir, repo.env);
    const seen: Record<string, Verdicts> = {};

    // 1. No session at all.
    seen['no session'] = await verdicts(repo, command, newAgent('nobody'), mcp, null);

    // 2. Clocked in, not anchored.
    const clocked = startAgent(repo, command, 'clocked');
    seen['clocked in'] = await verdicts(repo, command, clocked.agent, mcp, clocked.token);

    // 3. Anchored, context fresh.
    anchorSession(repo, clocked.token);
    seen['anchored'] = await verdicts(repo, command, clocked.agent, mcp, clocked.token);

    // 4. Anchored, context regenerated 25 h ago (freshness.max_age_hours is 24), not acknowledged.
    expect(repo.hestai(['refresh', '--session', clocked.token], { env: ago(25) }).status).toBe(0);
    seen['stale'] = await verdicts(repo, command, clocked.agent, mcp, clocked.token);

    // 5. The same stale context, acknowledged by a person.
    const ack = repo.hestai(['ack', '--session', clocked.token, '--reason', 'reviewed: still right']);
    expect(ack.status, ack.stderr).toBe(0);
    seen['acknowledged'] = await verdicts(repo, command, clocked.agent, mcp, clocked.token);

    // 6. Anchored 73 h ago (anchor.valid_hours is 72), context fresh: the anchor has expired.
    const old = startAgent(repo, command, 'expired');
    expect(repo.hestai(['refresh', '--session', old.token], { env: ago(73) }).status).toBe(0);
    anchorAt(repo, old.token, ago(73));
    expect(repo.hestai(['refresh', '--session', old.token]).status).toBe(0);
    seen['expired'] = await verdicts(repo, command, old.agent, mcp, old.token);

    // 7. Protocol enforced, anchored and fresh, the session protocol not started.
    const fresh = startAgent(repo, command, 'protocol');
    anchorSession(repo, fresh.token);
    setEnforce(repo, true);
    seen['protocol not started'] = await verdicts(repo, command, fresh.agent, mcp, fresh.token);
    setEnforce(repo, false);

    // 8. A handshake gone terminal (three failed context stages): its role is locked until a person resets it.
    const locked = startAgent(repo, command, 'terminal');
    expect(
      repo.hestai(['anchor', '--stage', 'identity', '--role', CEREMONY_ROLE, '--token', locked.token]).status,
    ).toBe(0);
    repo.write('../bad.oct', '## BIND (Identity Lock)\nROLE::\nCOGNITION::LOGOS::ATHENA\nAUTHORITY::RESPONSIBLE[x]\n');
    for (let attempt = 0; attempt < 3; attempt++)
      repo.hestai(['anchor', '--stage', 'context', '--token', locked.token, '--payload-file', '../bad.oct']);
    seen['terminal'] = await verdicts(repo, command, locked.agent, mcp, locked.token);

    expect(seen).toEqual({
      'no session': all('NO_SESSION'),
      'clocked in': all('NO_ANCHOR'),
      anchored: all('UNLOCKED'),
      stale: all('STALE'),
      acknowledged: all('UNLOCKED'),
      expired: all('EXPIRED'),
      'protocol not started': all('NOT_STARTED'),
      terminal: all('TERMINAL'),
    });
  });
});

/** The whole ceremony through the CLI with the CLI's clock pinned (`HESTAI_NOW`). */
function anchorAt(repo: TempRepo, token: string, env: NodeJS.ProcessEnv): void {
  const run = repo.hestai;
  repo.hestai = (args, options = {}) => run(args, { ...options, env: { ...env, ...options.env } });
  try {
    anchorSession(repo, token);
  } finally {
    repo.hestai = run;
  }
}
