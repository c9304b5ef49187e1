import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../helpers/model-endpoint.js';
import {
  adopt,
  anchorSteps,
  APP,
  boundSession,
  commitCommand,
  expectCommitVerified,
  expectRefusedUnanchored,
  expectStagesPassed,
  expectUnlockedByConnection,
  runAgent,
  sessionInContext,
  withRemote,
  toolCall,
} from '../helpers/runtime-agent.js';
import { runtimeBin } from '../helpers/runtimes.js';

// Qwen Code itself (the pinned @qwen-code/qwen-code, issue 42) runs the hooks `hestai init --agent qwen` wrote
// in .qwen/settings.json, its model the scripted endpoint on 127.0.0.1 (OPENAI_BASE_URL, Chat Completions).
// Headless (`qwen -p`) it fires no SessionStart: its first call is refused as bound to no session, and the
// refusal's bind step, a plain command the hook lets through, binds and clocks in. It starts the MCP server of
// its settings and names its tools `mcp__<server>__<tool>`.

const QWEN = await runtimeBin('qwen');

/** The bind step the last refusal the model read names (`Bind one now by running that step: <command>`). */
function bindStep(request: ModelRequest): string {
  const steps = [...JSON.stringify(request.body).matchAll(/Bind one now by running that step: (.+?)(?:\\n|")/g)];
  if (steps.length === 0) throw new Error('no refusal the model read names the bind step');
  return JSON.parse(`"${steps.at(-1)![1]!}"`);
}

describe.skipIf(QWEN === null)('Qwen Code (the real program) runs the hooks hestai init --agent qwen wrote', () => {
  it('with no SessionStart headless, refuses the first write with the bind step; bound by it, refuses an unanchored writing shell (its edit tool: runtime-verdicts); anchored through the MCP server Qwen started, its write_file is allowed and its commit passes verify in a fresh clone', async () => {
    const { repo, init } = adopt('qwen');
    expect(init).toContain('Qwen Code fires no SessionStart hook headless');
    const remote = withRemote(repo);
    const wd = repo.dir;
    const file = path.join(wd, 'src/app.ts');
    const { results } = await runAgent('qwen', repo, [
      toolCall('read_file', { file_path: file }),
      toolCall('write_file', { file_path: file, content: 'export const app = 2;\n' }),
      (request) => toolCall('run_shell_command', { command: bindStep(request), description: 'bind a session' }),
      toolCall('run_shell_command', { command: 'echo "export const app = 4;" > src/app.ts', description: 'change it' }),
      ...anchorSteps(wd, (tool, input) => toolCall(`mcp__hestai__${tool}`, input)),
      toolCall('write_file', { file_path: path.join(wd, 'test/app.test.ts'), content: 'app is 2\n' }),
      (request) =>
        toolCall('run_shell_command', {
          command: `git add test/app.test.ts && ${commitCommand(request)} commit -q -m "test(app): app is 2"`,
          description: 'commit the test',
        }),
    ]);
    const session = boundSession(repo, 'qwen');
    expect(results, JSON.stringify(results)).toHaveLength(10);
    const [read, unbound, bind, shell, identity, context, proof, status, created, commit] = results;
    expect(read?.content).toContain('export const app = 1;'); // reads are never gated
    expect(unbound?.content).toContain('hestai: Write blocked: this agent has no hestai session');
    // the bind step's output is the SessionStart context: the model learns its session and how to commit
    expect(sessionInContext({ method: 'POST', url: '', body: bind })).toBe(session);
    expectRefusedUnanchored(shell, 'Bash', session);
    expect(fs.readFileSync(file, 'utf8')).toBe(APP);
    expectStagesPassed([identity, context, proof]);
    expectUnlockedByConnection(status, session); // one session: the server Qwen started took the bound one
    expect(created?.content, JSON.stringify(created)).toContain('Successfully created');
    expect(commit?.content, JSON.stringify(commit)).toContain('Exit Code: 0');
    expect(fs.readFileSync(path.join(wd, 'test/app.test.ts'), 'utf8')).toBe('app is 2\n');
    expectCommitVerified(repo, remote, session, 'test(app): app is 2', 'qwen');
    // init wrote the settings version Qwen Code expects, so it never rewrites the file (nor leaves a .orig)
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });
});
