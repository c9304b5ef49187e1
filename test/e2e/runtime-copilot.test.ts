import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT } from '../helpers/git-repo.js';
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

// GitHub Copilot CLI itself (the pinned @github/copilot, issue 42) runs the hooks `hestai init --agent copilot`
// wrote in .github/hooks/hestai.json, offline, its model provider the scripted endpoint on 127.0.0.1 (Chat
// Completions), in a folder trusted with --trust-folder. Its preToolUse payload does not say the event (the
// command names it); a refusal is JSON whose permissionDecisionReason the model reads. It starts the MCP
// server of .mcp.json and names its tools `<server>-<tool>` (`hestai-anchor`).

const COPILOT = await runtimeBin('copilot');

describe.skipIf(COPILOT === null)(
  'GitHub Copilot CLI (the real program) runs the hooks hestai init --agent copilot wrote',
  () => {
    it('refuses an unanchored create, edit and writing bash (the file untouched, the reason and the anchor step read by the model); anchored through the MCP server Copilot started, its create is allowed and its git commit carries its session and passes verify in a fresh clone', async () => {
      const { repo } = adopt('copilot');
      const remote = withRemote(repo);
      const wd = repo.dir;
      const file = path.join(wd, 'src/app.ts');
      const { results, endpoint } = await runAgent('copilot', repo, [
        toolCall('view', { path: file }),
        toolCall('create', { path: file, file_text: 'export const app = 2;\n' }),
        toolCall('edit', { path: file, old_str: 'app = 1', new_str: 'app = 3' }),
        toolCall('bash', { command: 'echo "export const app = 4;" > src/app.ts', description: 'change it' }),
        ...anchorSteps(wd, (tool, input) => toolCall(`hestai-${tool}`, input)),
        toolCall('create', { path: path.join(wd, 'src/app.test.ts'), file_text: 'app is 2\n' }),
        // no env file: the model commits as its sessionStart context says (HESTAI_SESSION=<id> git commit ...)
        (request) =>
          toolCall('bash', {
            command: `git add src/app.test.ts && ${commitCommand(request)} commit -q -m "test(app): app is 2"`,
            description: 'commit the test',
          }),
      ]);
      const session = boundSession(repo, 'copilot');
      // sessionStart's additionalContext reached the model
      expect(sessionInContext(endpoint.turns()[0]!)).toBe(session);
      expect(results, JSON.stringify(results)).toHaveLength(10);
      const [read, write, edit, shell, identity, context, proof, status, created, commit] = results;
      expect(read?.content).toContain('export const app = 1;'); // reads are never gated
      // the reason reaches the model in Copilot's own words around hestai's
      for (const [result, what] of [
        [write, 'Write'],
        [edit, 'Edit'],
        [shell, 'Bash'],
      ] as const) {
        expect(result?.content).toContain('Denied by preToolUse hook');
        expectRefusedUnanchored(result, what, session, 'hestai-anchor');
      }
      expect(fs.readFileSync(file, 'utf8')).toBe(APP);
      expectStagesPassed([identity, context, proof]);
      expectUnlockedByConnection(status, session); // one session: the server Copilot started took its hook's
      expect(created?.content, JSON.stringify(created)).toContain('Created file');
      expect(commit?.content, JSON.stringify(commit)).toContain('exit code 0');
      expect(fs.readFileSync(path.join(wd, 'src/app.test.ts'), 'utf8')).toBe('app is 2\n');
      expectCommitVerified(repo, remote, session, 'test(app): app is 2', 'copilot');
      expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    });
  },
);

describe.skipIf(COPILOT === null)('Copilot CLI with a hook that cannot start', () => {
  it('does not let the write through when the portable hook command cannot start (hestai-hooks not installed in a fresh clone)', async () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'node_modules'));
    fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
    const init = repo.hestai(['init', '--no-husky', '--agent', 'copilot']);
    expect(init.status, init.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.github/hooks/hestai.json'), 'utf8')).not.toContain(PROJECT_ROOT);
    // the clone before `npm install`: the hook file is committed, the package is not there
    fs.rmSync(path.join(repo.dir, 'node_modules'), { recursive: true });
    repo.write('src/app.ts', APP);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    const file = path.join(repo.dir, 'src/app.ts');
    const { results } = await runAgent('copilot', repo, [toolCall('create', { path: file, file_text: 'x\n' })]);
    expect(fs.readFileSync(file, 'utf8')).toBe(APP);
    expect(results[0]?.content, JSON.stringify(results)).toContain('Denied by preToolUse hook');
  });
});
