import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../helpers/model-endpoint.js';
import {
  adopt,
  anchorSteps,
  APP,
  boundSession,
  commitCommand,
  expectCommitVerified,
  expectRefusedUnanchored,
  expectSentBackOnce,
  expectStagesPassed,
  expectUnlockedByConnection,
  runAgent,
  runHint,
  sessionInContext,
  withRemote,
} from '../helpers/runtime-agent.js';
import { runtimeBin } from '../helpers/runtimes.js';

// Gemini CLI itself (the pinned @google/gemini-cli, issue 29) runs the hooks `hestai init --agent gemini`
// wrote in .gemini/settings.json: the Gemini API at GOOGLE_GEMINI_BASE_URL is the scripted endpoint on
// 127.0.0.1, and the test reads the functionResponse parts Gemini CLI sent back and what is on disk.
// Gemini CLI names an MCP server's tools `mcp_<server>_<tool>`; the server is registered in the project's
// .gemini/settings.json with the command `hestai init` prints.

const GEMINI = runtimeBin('gemini');

const call = (name: string, input: Record<string, unknown>): Turn => ({ tools: [{ name, input }] });

describe.skipIf(GEMINI === null)(
  'Gemini CLI (the real program) runs the hooks hestai init --agent gemini wrote',
  () => {
    it('refuses an unanchored write_file, replace and writing run_shell_command (the file untouched, the anchor step named); anchored through the MCP server Gemini CLI started, its write_file is allowed and its git commit carries its trailers and passes verify in a fresh clone', async () => {
      const { repo, init } = adopt('gemini');
      const wd = repo.dir;
      const file = path.join(wd, 'src/app.ts');
      let remote = '';
      const { results, endpoint } = await runAgent(
        'gemini',
        repo,
        [
          call('read_file', { file_path: file }),
          call('write_file', { file_path: file, content: 'export const app = 2;\n' }),
          call('replace', { file_path: file, old_string: 'app = 1', new_string: 'app = 3', instruction: 'change it' }),
          call('run_shell_command', { command: 'echo "export const app = 4;" > src/app.ts', description: 'change it' }),
          ...anchorSteps(wd, (tool, input) => call(`mcp_hestai_${tool}`, input)),
          call('write_file', { file_path: path.join(wd, 'test/app.test.ts'), content: 'app is 2\n' }),
          // Gemini CLI has no env file and runs the shell's git with core.hooksPath emptied (no hooks): the
          // model commits as its SessionStart context says (HESTAI_SESSION=<id> git -c core.hooksPath=<dir> commit)
          (request) =>
            call('run_shell_command', {
              command: `git add test/app.test.ts && ${commitCommand(request)} commit -q -m "test(app): app is 2"`,
              description: 'commit the test',
            }),
        ],
        {
          // the MCP server, registered as init's hint says (project settings, committed as a team would)
          before: async (env) => {
            await runHint('gemini', init, /^hint: register the MCP server for Gemini CLI: (.*)$/m, env, wd);
            repo.git(['commit', '-q', '--no-verify', '-am', 'chore: register the hestai MCP server']);
            remote = withRemote(repo);
          },
        },
      );
      const session = boundSession(repo, 'gemini');
      // SessionStart's context reached the model (Gemini CLI prepends it to the prompt)
      expect(sessionInContext(endpoint.turns()[0]!)).toBe(session);
      expect(results, JSON.stringify(results)).toHaveLength(10); // one result per call of the script
      const [read, write, replace, shell, identity, context, proof, status, add, commit] = results;
      expect(read?.isError).toBe(false); // reads are never gated
      expect(
        [write, replace, shell].map((r) => r?.isError),
        JSON.stringify(results),
      ).toEqual([true, true, true]);
      expectRefusedUnanchored(write, 'Write', session);
      expectRefusedUnanchored(replace, 'Edit', session);
      expectRefusedUnanchored(shell, '> src/app.ts', session);
      expect(fs.readFileSync(file, 'utf8')).toBe(APP);
      expect(
        [identity, context, proof, status, add, commit].map((r) => r?.isError),
        JSON.stringify(results),
      ).toEqual([false, false, false, false, false, false]);
      expectStagesPassed([identity, context, proof]);
      expectUnlockedByConnection(status, session); // one session: the server Gemini CLI started took its hook's
      expect(fs.readFileSync(path.join(wd, 'test/app.test.ts'), 'utf8')).toBe('app is 2\n');
      expectCommitVerified(repo, remote, session, 'test(app): app is 2');
      expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    });
  },
);

describe.skipIf(GEMINI === null)('Gemini CLI’s AfterAgent hook', () => {
  it('retries the turn once while a MUST end gate of the enforced protocol is unmet, then lets it stop', async () => {
    await expectSentBackOnce('gemini');
  });
});
