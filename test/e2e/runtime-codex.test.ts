import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { startModelEndpoint, type ModelEndpoint, type Step } from '../helpers/model-endpoint.js';
import { runRuntime, runtimeBin, runtimeEnv, type RuntimeRun } from '../helpers/runtimes.js';

// Codex CLI itself (the pinned @openai/codex, issue 29) runs the hooks `hestai init --agent codex` wrote in
// .codex/hooks.json: a model provider whose base_url is the scripted endpoint (OpenAI Responses API on
// 127.0.0.1) makes the shell calls, and the test reads what Codex sent back and what is on disk.
// `codex exec` runs only hooks a person has trusted (the TUI's /hooks review writes a per-hook hash into
// the user's config.toml) and has no review of its own: the test passes --dangerously-bypass-hook-trust,
// which stands for that review (docs/agents.md).

const CODEX = runtimeBin('codex');
const APP = 'export const app = 1;\n';

function adopted(): TempRepo {
  const repo = makeRepo();
  const init = repo.hestai(['init', '--no-husky', '--agent', 'codex']);
  expect(init.status, init.stderr).toBe(0);
  expect(init.stdout + init.stderr).toContain('/hooks'); // it says the hooks must be trusted in Codex
  fs.appendFileSync(
    path.join(repo.dir, '.hestai_workspace.yaml'),
    'github:\n  issue_search: false\n  pr_context: false\n',
  );
  repo.write('src/app.ts', APP);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  return repo;
}

/** `codex exec` in the repository with a CODEX_HOME whose model provider is the endpoint. */
function codex(repo: TempRepo, endpoint: ModelEndpoint): Promise<RuntimeRun> {
  const home = path.join(repo.home, '.codex');
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(
    path.join(home, 'config.toml'),
    [
      'model = "gpt-5"',
      'model_provider = "scripted"',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${endpoint.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_API_KEY"',
      `[projects."${repo.dir}"]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  return runRuntime(CODEX!, ['exec', '--dangerously-bypass-hook-trust', 'change src/app.ts'], {
    cwd: repo.dir,
    env: runtimeEnv(repo.env, { CODEX_HOME: home, SCRIPTED_API_KEY: 'test' }),
  });
}

const shell = (cmd: string): Step => ({ tools: [{ name: 'exec_command', input: { cmd } }] });
const PATCH = [
  "apply_patch <<'EOF'",
  '*** Begin Patch',
  '*** Update File: src/app.ts',
  '@@',
  '-export const app = 1;',
  '+export const app = 2;',
  '*** End Patch',
  'EOF',
  '',
].join('\n');

describe.skipIf(CODEX === null)('Codex CLI (the real program) runs the hooks hestai init --agent codex wrote', () => {
  it('binds its session at SessionStart and refuses an unanchored shell write and apply_patch: the file is untouched and the model reads the anchor step', async () => {
    const repo = adopted();
    const endpoint = await startModelEndpoint({
      api: 'openai-responses',
      script: [shell('cat src/app.ts'), shell('echo "export const app = 3;" > src/app.ts'), shell(PATCH)],
    });
    const run = await codex(repo, endpoint);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(endpoint.remaining()).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, 'src/app.ts'), 'utf8')).toBe(APP);
    const [read, ...writes] = endpoint.toolResults();
    expect(read?.content).toContain('export const app = 1;'); // reads are never gated
    const bindings = path.join(repo.dir, '.hestai/sessions/bindings/codex');
    const [bound] = fs.readdirSync(bindings);
    const session = JSON.parse(fs.readFileSync(path.join(bindings, bound!), 'utf8')).session_id;
    expect(writes).toHaveLength(2);
    for (const [result, what] of [
      [writes[0], '> src/app.ts'],
      [writes[1], 'apply_patch'],
    ] as const) {
      expect(result?.content).toContain(`hestai: ${what} blocked: session ${session}`);
      expect(result?.content).toContain(`fix: call the MCP tool anchor (mcp__hestai__anchor) with {"stage":"identity"`);
    }
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });
});

describe.skipIf(CODEX === null)('Codex CLI’s Stop hook', () => {
  it('sends the agent back once while a MUST end gate of the enforced protocol is unmet, then lets it stop', async () => {
    const repo = adopted();
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'protocol:\n  enforce: true\n');
    repo.git(['commit', '-q', '--no-verify', '-am', 'chore: enforce the protocol']);
    const endpoint = await startModelEndpoint({
      api: 'openai-responses',
      script: [{ text: 'all done' }, { text: 'still done' }],
    });
    const run = await codex(repo, endpoint);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const turns = endpoint.requests.filter((r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0);
    expect(turns).toHaveLength(2);
    expect(JSON.stringify(turns[1]!.body.input.at(-1))).toContain('hestai: not done yet');
  });
});
