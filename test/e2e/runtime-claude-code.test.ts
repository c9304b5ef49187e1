import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { startModelEndpoint, type ModelEndpoint, type ModelRequest, type Step } from '../helpers/model-endpoint.js';
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
    expect(results[0]!.content).toContain(`"session_id":"${binding.session_id}"`);
  });
});

const BIND = [
  '## BIND (Identity Lock)',
  'ROLE::implementation-lead',
  'COGNITION::LOGOS::ATHENA',
  'AUTHORITY::RESPONSIBLE[edit-time hooks]',
  '',
].join('\n');
const PROOF = [
  '## TENSION (Cognitive Proof - AGENT GENERATED)',
  'L1::[TDD_MANDATE]<->CTX:src/app.ts:1-1[no test yet]->TRIGGER[commit the failing test first]',
  'L2::[MINIMAL_INTERVENTION]<->CTX:README.md[documents the app]->TRIGGER[keep the contract stable]',
  '## COMMIT (Falsifiable Contract)',
  'ARTIFACT::src/app.ts',
  'GATE::npm test',
  '',
].join('\n');

/** The hestai session Claude Code's SessionStart hook bound, as the model reads it in its context. */
function boundSession(request: ModelRequest): string {
  const match = /bound to hestai session ([0-9a-f-]{36})/.exec(JSON.stringify(request.body.messages));
  if (match === null) throw new Error('the SessionStart context with the bound session is not in the request');
  return match[1]!;
}

const mcp =
  (tool: string, input: (request: ModelRequest) => Record<string, unknown>): Step =>
  (request) => ({
    tools: [{ name: `mcp__hestai__${tool}`, input: input(request) }],
  });

describe.skipIf(CLAUDE === null)('Claude Code anchors through the MCP server it started and then works', () => {
  it('anchors its SessionStart session over MCP (.mcp.json), then its Write is allowed and its git commit through Bash carries its trailers and passes verify in a fresh clone', async () => {
    const repo = adopted();
    const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
    repo.git(['init', '-q', '--bare', remote]);
    repo.git(['remote', 'add', 'origin', remote]);
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', '-b', 'agent-work']);
    const wd = repo.dir;
    const endpoint = await startModelEndpoint({
      api: 'anthropic',
      script: [
        mcp('anchor', (r) => ({
          working_dir: wd,
          stage: 'identity',
          role: 'implementation-lead',
          session_id: boundSession(r),
        })),
        mcp('anchor', (r) => ({ working_dir: wd, stage: 'context', session_id: boundSession(r), payload: BIND })),
        mcp('anchor', (r) => ({ working_dir: wd, stage: 'proof', session_id: boundSession(r), payload: PROOF })),
        mcp('anchor_status', () => ({ working_dir: wd })),
        { tools: [{ name: 'Write', input: { file_path: path.join(wd, 'test/app.test.ts'), content: 'app is 2\n' } }] },
        bash('git add test/app.test.ts && git commit -q -m "test(app): app is 2"'),
      ],
    });
    const run = await claude(repo, endpoint, ['--allowedTools', 'mcp__hestai', 'Bash']);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(endpoint.remaining()).toBe(0);
    const results = endpoint.toolResults();
    expect(
      results.map((r) => r.isError),
      JSON.stringify(results),
    ).toEqual([false, false, false, false, false, false]);
    const session = boundSession(endpoint.requests.find((r) => r.body?.messages)!);
    // one session: the MCP server Claude Code started, the edit hook and the commit hooks agree
    expect(results[3]!.content).toContain(`{"session_id":"${session}","unlocked":true,"code":"UNLOCKED"`);
    expect(fs.readFileSync(path.join(wd, 'test/app.test.ts'), 'utf8')).toBe('app is 2\n');
    const message = repo.git(['log', '-1', '--format=%B']).stdout;
    expect(message).toMatch(
      new RegExp(`^test\\(app\\): app is 2\n\nHestAI-Session: ${session}\nHestAI-Anchor: sha256:[0-9a-f]{64}\n`),
    );
    repo.git(['push', '-q', 'origin', 'agent-work']); // the pre-push hook publishes the anchor's proof record
    const clone = path.join(tempDir('hestai-ci-'), 'clone');
    repo.git(['clone', '-q', '--branch', 'agent-work', `file://${remote}`, clone]);
    const verify = repo.hestai(['verify'], { cwd: clone });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toContain('test(app): app is 2');
  });
});

describe.skipIf(CLAUDE === null)('Claude Code’s Stop hook', () => {
  it('sends the agent back once while a MUST end gate of the enforced protocol is unmet, then lets it stop', async () => {
    const repo = adopted();
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'protocol:\n  enforce: true\n');
    repo.git(['commit', '-q', '--no-verify', '-am', 'chore: enforce the protocol']);
    const endpoint = await startModelEndpoint({
      api: 'anthropic',
      script: [{ text: 'all done' }, { text: 'still done' }],
    });
    const run = await claude(repo, endpoint);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const turns = endpoint.requests.filter((r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0);
    expect(turns).toHaveLength(2);
    expect(endpoint.remaining()).toBe(0);
    const sentBack = JSON.stringify(turns[1]!.body.messages.at(-1));
    expect(sentBack).toContain('hestai: not done yet');
    expect(sentBack).toContain('fix: ');
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
    const endpoint = await startModelEndpoint({ api: 'anthropic', script: [read(repo), write(repo)] });
    const run = await claude(repo, endpoint);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(endpoint.remaining()).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, 'src/app.ts'), 'utf8')).toBe(APP);
    const [, result] = endpoint.toolResults();
    expect(result?.isError, JSON.stringify(result)).toBe(true);
  });
});
