import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../helpers/model-endpoint.js';
import {
  adopt,
  anchorSteps,
  anchorToolInRefusal,
  APP,
  boundSession,
  expectCommitVerified,
  expectRefusedUnanchored,
  expectStagesPassed,
  expectUnlockedByConnection,
  runAgent,
  sessionInContext,
  withRemote,
} from '../helpers/runtime-agent.js';
import { runtimeBin } from '../helpers/runtimes.js';

// Kilo Code itself (the pinned @kilocode/cli, OpenCode's fork; issue 42) loads the plugin `hestai init --agent
// kilo` wrote in .kilo/plugins/: its provider is the scripted endpoint on 127.0.0.1 (OpenAI's chat API), and
// the test reads the tool results Kilo sent back and what is on disk. Kilo names an MCP tool `<server>_<tool>`;
// init registers hestai's server in the project's kilo.json.

const KILO = await runtimeBin('kilo');

const call = (name: string, input: Record<string, unknown>): Turn => ({ tools: [{ name, input }] });

describe.skipIf(KILO === null)('Kilo Code (the real program) runs the plugin hestai init --agent kilo wrote', () => {
  it('refuses an unanchored write and bash (the file untouched, the anchor step named); anchored through the MCP server Kilo started, its write is allowed and its git commit carries the session and passes verify in a fresh clone', async () => {
    const { repo } = adopt('kilo');
    const remote = withRemote(repo);
    const wd = repo.dir;
    const { results, endpoint } = await runAgent('kilo', repo, [
      call('write', { filePath: 'src/app.ts', content: 'export const app = 2;\n' }),
      call('bash', { command: 'echo "export const app = 4;" > src/app.ts', description: 'change it' }),
      ...anchorSteps(wd, (tool, input, request) =>
        call(tool === 'anchor' ? anchorToolInRefusal(request) : `hestai_${tool}`, input),
      ),
      call('write', { filePath: path.join(wd, 'test/app.test.ts'), content: 'app is 2\n' }),
      call('bash', {
        command: 'git add test/app.test.ts && git commit -q -m "test(app): app is 2"',
        description: 'commit the test',
      }),
    ]);
    const session = boundSession(repo, 'kilo');
    // SessionStart's context reached the model (the plugin puts it in the system prompt)
    expect(sessionInContext(endpoint.turns()[0]!)).toBe(session);
    expect(results, JSON.stringify(results)).toHaveLength(8); // one result per call of the script
    const [write, shell, identity, context, proof, status, test, commit] = results;
    expectRefusedUnanchored(write, 'Write', session, 'hestai_anchor');
    expectRefusedUnanchored(shell, 'Bash', session, 'hestai_anchor');
    expect(fs.readFileSync(path.join(wd, 'src/app.ts'), 'utf8')).toBe(APP);
    expectStagesPassed([identity, context, proof]);
    expectUnlockedByConnection(status, session); // one session: the server Kilo started took its hook's
    expect([test, commit].map((r) => r?.content).join('\n')).not.toContain('blocked');
    expect(fs.readFileSync(path.join(wd, 'test/app.test.ts'), 'utf8')).toBe('app is 2\n');
    expectCommitVerified(repo, remote, session, 'test(app): app is 2', 'kilo');
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });
});
