import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { startModelEndpoint, type ModelEndpoint, type Step } from '../helpers/model-endpoint.js';
import { runRuntime, runtimeBin, runtimeEnv, type RuntimeRun } from '../helpers/runtimes.js';

// Claude Code itself (the pinned @anthropic-ai/claude-code, issue 29) runs hestai's hooks: a scripted model
// on 127.0.0.1 (ANTHROPIC_BASE_URL) makes the tool calls, Claude Code runs the hooks `hestai init --agent
// claude-code` wrote, and the test reads what Claude Code sent back to the model and what is on disk.

const CLAUDE = runtimeBin('claude-code');
const APP = 'export const app = 1;\n';

/** A repository adopted as a user would: `hestai init --agent claude-code --mcp`, committed. */
function adopted(): TempRepo {
  const repo = makeRepo();
  const init = repo.hestai(['init', '--no-husky', '--agent', 'claude-code', '--mcp']);
  expect(init.status, init.stderr).toBe(0);
  fs.appendFileSync(
    path.join(repo.dir, '.hestai_workspace.yaml'),
    'github:\n  issue_search: false\n  pr_context: false\n',
  );
  repo.write('src/app.ts', APP);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  return repo;
}

/** `claude -p` in the repository against the endpoint, HOME the repository's temporary home. */
function claude(repo: TempRepo, endpoint: ModelEndpoint, extraArgs: string[] = []): Promise<RuntimeRun> {
  return runRuntime(
    CLAUDE!,
    ['-p', 'change src/app.ts', '--permission-mode', 'acceptEdits', '--model', 'claude-sonnet-4-5', ...extraArgs],
    {
      cwd: repo.dir,
      env: runtimeEnv(repo.env, { ANTHROPIC_BASE_URL: endpoint.url, ANTHROPIC_API_KEY: 'test' }),
    },
  );
}

// Claude Code refuses a Write or Edit of a file the model has not read first (before any hook runs).
const read = (repo: TempRepo): Step => ({
  tools: [{ name: 'Read', input: { file_path: path.join(repo.dir, 'src/app.ts') } }],
});
const write = (repo: TempRepo): Step => ({
  tools: [
    { name: 'Write', input: { file_path: path.join(repo.dir, 'src/app.ts'), content: 'export const app = 2;\n' } },
  ],
});
const edit = (repo: TempRepo): Step => ({
  tools: [
    {
      name: 'Edit',
      input: { file_path: path.join(repo.dir, 'src/app.ts'), old_string: 'app = 1', new_string: 'app = 3' },
    },
  ],
});
const bash = (command: string): Step => ({ tools: [{ name: 'Bash', input: { command, description: 'change it' } }] });

describe.skipIf(CLAUDE === null)('Claude Code (the real program) runs the hooks hestai init wrote', () => {
  it('blocks an unanchored agent’s Write, Edit and writing Bash: the file is untouched and the model reads the one next step', async () => {
    const repo = adopted();
    const endpoint = await startModelEndpoint({
      api: 'anthropic',
      script: [
        read(repo),
        write(repo),
        edit(repo),
        bash('echo "export const app = 4;" > src/app.ts'),
        { text: 'stopping' },
      ],
    });
    const run = await claude(repo, endpoint);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(endpoint.remaining()).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, 'src/app.ts'), 'utf8')).toBe(APP);
    const [readResult, ...results] = endpoint.toolResults();
    expect(readResult?.isError).toBe(false); // reads are never gated
    expect(
      results.map((r) => r.isError),
      JSON.stringify(results),
    ).toEqual([true, true, true]);
    for (const [result, what] of results.map((r, i) => [r, ['Write', 'Edit', '> src/app.ts'][i]] as const)) {
      expect(result.content).toContain(`hestai: ${what} blocked: session `);
      expect(result.content).toContain('has no valid anchor');
      // the one next step: the anchor ceremony, with the session the SessionStart hook clocked in
      expect(result.content).toMatch(/fix: call the MCP tool anchor \(mcp__hestai__anchor\) with \{"stage":"identity"/);
    }
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    // Claude Code's SessionStart ran hestai's hook: it clocked the agent in and bound its session
    const bindings = path.join(repo.dir, '.hestai/sessions/bindings/claude-code');
    const [bound] = fs.readdirSync(bindings);
    const binding = JSON.parse(fs.readFileSync(path.join(bindings, bound!), 'utf8'));
    expect(results[0]!.content).toContain(`"token":"${binding.session_id}"`);
  });
});
