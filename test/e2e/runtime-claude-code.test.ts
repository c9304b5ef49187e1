import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';
import type { Step } from '../helpers/model-endpoint.js';
import {
  adopt,
  anchorSteps,
  APP,
  boundSession,
  expectCommitVerified,
  expectRefusedUnanchored,
  expectSentBackOnce,
  expectStagesPassed,
  expectUnlockedByConnection,
  runAgent,
  sessionInContext,
  withRemote,
} from '../helpers/runtime-agent.js';
import { runtimeBin } from '../helpers/runtimes.js';

// Claude Code itself (the pinned @anthropic-ai/claude-code, issue 29) runs hestai's hooks: a scripted model
// on 127.0.0.1 (ANTHROPIC_BASE_URL) makes the tool calls, Claude Code runs the hooks `hestai init --agent
// claude-code` wrote, and the test reads what Claude Code sent back to the model and what is on disk.

const CLAUDE = await runtimeBin('claude-code');

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
  it('blocks an unanchored agent’s Write, Edit and writing Bash (the file untouched, the model reads the one next step); anchored through the MCP server Claude Code started from .mcp.json, its Write is allowed and its git commit through Bash carries its trailers and passes verify in a fresh clone', async () => {
    const { repo } = adopt('claude-code');
    const remote = withRemote(repo);
    const wd = repo.dir;
    const { results, endpoint } = await runAgent(
      'claude-code',
      repo,
      [
        read(repo),
        write(repo),
        edit(repo),
        bash('echo "export const app = 4;" > src/app.ts'),
        ...anchorSteps(wd, (tool, input) => ({ tools: [{ name: `mcp__hestai__${tool}`, input }] })),
        { tools: [{ name: 'Write', input: { file_path: path.join(wd, 'test/app.test.ts'), content: 'app is 2\n' } }] },
        // CLAUDE_ENV_FILE: the agent's shell has HESTAI_SESSION already
        bash('git add test/app.test.ts && git commit -q -m "test(app): app is 2"'),
      ],
      { args: ['--allowedTools', 'mcp__hestai', 'Bash'] },
    );
    // Claude Code's SessionStart ran hestai's hook: it clocked the agent in and bound its session
    const session = boundSession(repo, 'claude-code');
    expect(sessionInContext(endpoint.turns()[0]!)).toBe(session);
    expect(results, JSON.stringify(results)).toHaveLength(10); // one result per call of the script
    const [readResult, blockedWrite, blockedEdit, blockedBash, identity, context, proof, status, ...work] = results;
    expect(readResult?.isError).toBe(false); // reads are never gated
    expect(
      [blockedWrite, blockedEdit, blockedBash].map((r) => r?.isError),
      JSON.stringify(results),
    ).toEqual([true, true, true]);
    expectRefusedUnanchored(blockedWrite, 'Write', session);
    expectRefusedUnanchored(blockedEdit, 'Edit', session);
    expectRefusedUnanchored(blockedBash, 'Bash', session);
    expect(fs.readFileSync(path.join(wd, 'src/app.ts'), 'utf8')).toBe(APP);
    expect(
      [identity, context, proof, status, ...work].map((r) => r?.isError),
      JSON.stringify(results),
    ).toEqual([false, false, false, false, false, false]);
    expectStagesPassed([identity, context, proof]);
    // one session: the MCP server Claude Code started, the edit hook and the commit hooks agree
    expectUnlockedByConnection(status, session);
    expect(fs.readFileSync(path.join(wd, 'test/app.test.ts'), 'utf8')).toBe('app is 2\n');
    expectCommitVerified(repo, remote, session, 'test(app): app is 2');
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });
});

describe.skipIf(CLAUDE === null)('Claude Code’s Stop hook', () => {
  it('sends the agent back once while a MUST end gate of the enforced protocol is unmet, then lets it stop', async () => {
    await expectSentBackOnce('claude-code');
  });
});

describe.skipIf(CLAUDE === null)('Claude Code with a hook that cannot start', () => {
  it('does not let the write through when the hook command cannot start (hestai-hooks not installed in a fresh clone)', async () => {
    const repo = makeRepo();
    // hestai-hooks as the project's dependency: init writes the portable "$CLAUDE_PROJECT_DIR"/node_modules/... command
    fs.mkdirSync(path.join(repo.dir, 'node_modules'));
    fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
    const init = repo.hestai(['init', '--no-husky', '--agent', 'claude-code']);
    expect(init.status, init.stderr).toBe(0);
    const settings = fs.readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8');
    expect(settings).toContain('$CLAUDE_PROJECT_DIR');
    // the clone before `npm install`: the settings are committed, the package is not there
    fs.rmSync(path.join(repo.dir, 'node_modules'), { recursive: true });
    repo.write('src/app.ts', APP);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    const { results } = await runAgent('claude-code', repo, [read(repo), write(repo)]);
    expect(fs.readFileSync(path.join(repo.dir, 'src/app.ts'), 'utf8')).toBe(APP);
    const [, result] = results;
    expect(result?.isError, JSON.stringify(result)).toBe(true);
  });
});
