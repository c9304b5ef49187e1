import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { startModelEndpoint, type ModelEndpoint, type Step } from '../helpers/model-endpoint.js';
import { runRuntime, runtimeBin, runtimeEnv, type RuntimeRun } from '../helpers/runtimes.js';

// Gemini CLI itself (the pinned @google/gemini-cli, issue 29) runs the hooks `hestai init --agent gemini`
// wrote in .gemini/settings.json: the Gemini API at GOOGLE_GEMINI_BASE_URL is the scripted endpoint on
// 127.0.0.1, and the test reads the functionResponse parts Gemini CLI sent back and what is on disk.
// Headless Gemini CLI needs the folder trusted (GEMINI_CLI_TRUST_WORKSPACE) and an auth type in the user's
// settings; `-m` names a model so no routing call is made; usage statistics are off (no traffic but ours).

const GEMINI = runtimeBin('gemini');
const APP = 'export const app = 1;\n';

function adopted(): TempRepo {
  const repo = makeRepo();
  const init = repo.hestai(['init', '--no-husky', '--agent', 'gemini']);
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

function gemini(repo: TempRepo, endpoint: ModelEndpoint): Promise<RuntimeRun> {
  fs.mkdirSync(path.join(repo.home, '.gemini'), { recursive: true });
  fs.writeFileSync(
    path.join(repo.home, '.gemini/settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
    }),
  );
  return runRuntime(GEMINI!, ['-p', 'change src/app.ts', '--approval-mode', 'yolo', '-m', 'gemini-2.5-flash'], {
    cwd: repo.dir,
    env: runtimeEnv(repo.env, {
      GOOGLE_GEMINI_BASE_URL: endpoint.url,
      GEMINI_API_KEY: 'test',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    }),
  });
}

const call = (name: string, input: Record<string, unknown>): Step => ({ tools: [{ name, input }] });

describe.skipIf(GEMINI === null)(
  'Gemini CLI (the real program) runs the hooks hestai init --agent gemini wrote',
  () => {
    it('binds its session at SessionStart and refuses an unanchored write_file, replace and writing run_shell_command: the file is untouched and the model reads the anchor step', async () => {
      const repo = adopted();
      const file = path.join(repo.dir, 'src/app.ts');
      const endpoint = await startModelEndpoint({
        api: 'gemini',
        script: [
          call('read_file', { file_path: file }),
          call('write_file', { file_path: file, content: 'export const app = 2;\n' }),
          call('replace', { file_path: file, old_string: 'app = 1', new_string: 'app = 3', instruction: 'change it' }),
          call('run_shell_command', { command: 'echo "export const app = 4;" > src/app.ts', description: 'change it' }),
        ],
      });
      const run = await gemini(repo, endpoint);
      expect(run.status, run.stderr + run.stdout).toBe(0);
      expect(endpoint.remaining()).toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toBe(APP);
      const [read, ...writes] = endpoint.toolResults();
      expect(read?.isError).toBe(false); // reads are never gated
      const bindings = path.join(repo.dir, '.hestai/sessions/bindings/gemini');
      const [bound] = fs.readdirSync(bindings);
      const session = JSON.parse(fs.readFileSync(path.join(bindings, bound!), 'utf8')).session_id;
      expect(
        writes.map((w) => w.isError),
        JSON.stringify(writes),
      ).toEqual([true, true, true]);
      for (const [result, what] of [
        [writes[0], 'Write'],
        [writes[1], 'Edit'],
        [writes[2], '> src/app.ts'],
      ] as const) {
        expect(result?.content).toContain(`hestai: ${what} blocked: session ${session}`);
        expect(result?.content).toContain('fix: call the MCP tool anchor');
      }
      // SessionStart's context reached the model (Gemini CLI prepends it to the prompt)
      expect(JSON.stringify(endpoint.requests.find((r) => r.body?.contents)?.body.contents)).toContain(
        `bound to hestai session ${session}`,
      );
      expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    });
  },
);

describe.skipIf(GEMINI === null)('Gemini CLI’s AfterAgent hook', () => {
  it('retries the turn once while a MUST end gate of the enforced protocol is unmet, then lets it stop', async () => {
    const repo = adopted();
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'protocol:\n  enforce: true\n');
    repo.git(['commit', '-q', '--no-verify', '-am', 'chore: enforce the protocol']);
    const endpoint = await startModelEndpoint({
      api: 'gemini',
      script: [{ text: 'all done' }, { text: 'still done' }],
    });
    const run = await gemini(repo, endpoint);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const turns = endpoint.requests.filter((r) => r.body?.tools?.some((t: any) => t.functionDeclarations?.length > 0));
    expect(turns).toHaveLength(2);
    expect(JSON.stringify(turns[1]!.body.contents.at(-1))).toContain('hestai: not done yet');
  });
});
