import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorSession } from '../helpers/claude-hook.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';
import {
  adopt,
  anchorSteps,
  anchorToolInRefusal,
  APP,
  boundSession,
  commitCommand,
  expectCommitVerified,
  expectRefusedUnanchored,
  expectSentBackOnce,
  expectStagesPassed,
  expectUnlockedByConnection,
  notesServer,
  runAgent,
  sessionInContext,
  withRemote,
  toolCall,
} from '../helpers/runtime-agent.js';
import { runtimeBin } from '../helpers/runtimes.js';

// Gemini CLI itself (the pinned @google/gemini-cli, issue 29) runs the hooks `hestai init --agent gemini`
// wrote in .gemini/settings.json: the Gemini API at GOOGLE_GEMINI_BASE_URL is the scripted endpoint on
// 127.0.0.1, and the test reads the functionResponse parts Gemini CLI sent back and what is on disk.
// Gemini CLI names an MCP server's tools `mcp_<server>_<tool>`; `hestai init --agent gemini` registers the
// server in the project's .gemini/settings.json next to its hooks.

const GEMINI = await runtimeBin('gemini');

describe.skipIf(GEMINI === null)(
  'Gemini CLI (the real program) runs the hooks hestai init --agent gemini wrote',
  () => {
    it('refuses an unanchored write_file, replace and writing run_shell_command (the file untouched, the anchor step named); anchored through the MCP server Gemini CLI started, its write_file is allowed and its git commit carries its trailers and passes verify in a fresh clone', async () => {
      const { repo, init } = adopt('gemini');
      expect(init).not.toContain('gemini mcp add'); // init registered the server itself
      const remote = withRemote(repo);
      const wd = repo.dir;
      const file = path.join(wd, 'src/app.ts');
      const { results, endpoint } = await runAgent('gemini', repo, [
        toolCall('read_file', { file_path: file }),
        toolCall('write_file', { file_path: file, content: 'export const app = 2;\n' }),
        toolCall('replace', {
          file_path: file,
          old_string: 'app = 1',
          new_string: 'app = 3',
          instruction: 'change it',
        }),
        toolCall('run_shell_command', {
          command: 'echo "export const app = 4;" > src/app.ts',
          description: 'change it',
        }),
        // the anchor tool as the refusals name it (Gemini CLI names an MCP tool mcp_<server>_<tool>)
        ...anchorSteps(wd, (tool, input, request) =>
          toolCall(tool === 'anchor' ? anchorToolInRefusal(request) : `mcp_hestai_${tool}`, input),
        ),
        toolCall('write_file', { file_path: path.join(wd, 'test/app.test.ts'), content: 'app is 2\n' }),
        // Gemini CLI has no env file and runs the shell's git with core.hooksPath emptied (no hooks): the
        // model commits as its SessionStart context says (HESTAI_SESSION=<id> git -c core.hooksPath=<dir> commit)
        (request) =>
          toolCall('run_shell_command', {
            command: `git add test/app.test.ts && ${commitCommand(request)} commit -q -m "test(app): app is 2"`,
            description: 'commit the test',
          }),
      ]);
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
      expectRefusedUnanchored(write, 'Write', session, 'mcp_hestai_anchor');
      expectRefusedUnanchored(replace, 'Edit', session, 'mcp_hestai_anchor');
      expectRefusedUnanchored(shell, 'Bash', session, 'mcp_hestai_anchor');
      // SessionStart's next step names it as Gemini CLI does too
      expect(JSON.stringify(endpoint.turns()[0]!.body)).toContain('call the MCP tool anchor (mcp_hestai_anchor) with');
      // and what it refuses is said in no other runtime's tool names (deny by default: every tool that may write)
      const hookContext = /<hook_context>([\s\S]*?)<\/hook_context>/.exec(JSON.stringify(endpoint.turns()[0]!.body));
      expect(hookContext?.[1]).toContain('hestai refuses every tool call that may write');
      expect(hookContext?.[1]).not.toMatch(/MultiEdit|NotebookEdit/);
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

/** The notes server in the project's .gemini/settings.json, next to hestai's. */
function withNotesServer(repo: TempRepo): string {
  const { command, args, notes } = notesServer(repo);
  const settings = path.join(repo.dir, '.gemini/settings.json');
  const doc = JSON.parse(fs.readFileSync(settings, 'utf8'));
  doc.mcpServers.notes = { command, args };
  fs.writeFileSync(settings, JSON.stringify(doc, null, 2));
  return notes;
}

describe.skipIf(GEMINI === null)('Gemini CLI’s BeforeTool hook sees every tool', () => {
  it('attack: an unanchored agent calls another MCP server’s writing tool (mcp_notes_save_note): refused, the file never written; a Gemini CLI read (grep_search) still passes', async () => {
    const { repo } = adopt('gemini');
    const notes = withNotesServer(repo);
    const { results } = await runAgent('gemini', repo, [
      toolCall('grep_search', { pattern: 'app' }),
      toolCall('mcp_notes_save_note', {}),
    ]);
    const session = boundSession(repo, 'gemini');
    expect(results, JSON.stringify(results)).toHaveLength(2);
    const [grep, note] = results;
    expect(grep?.isError, JSON.stringify(grep)).toBe(false);
    expect(note?.isError, JSON.stringify(note)).toBe(true);
    expect(note?.content).toContain('hestai: mcp__notes__save_note (a tool hestai does not know, so a write');
    expect(note?.content).toContain(`blocked: session ${session}`);
    expect(note?.content).toContain('has no valid anchor');
    expect(fs.existsSync(notes)).toBe(false);
  });
});

describe('Gemini CLI’s hook file is the rules’ own', () => {
  it('attack: an anchored agent’s write_file or replace of .gemini/settings.json (dropping the BeforeTool hook) is refused, as .claude/ is', () => {
    const { repo } = adopt('gemini');
    const command = JSON.parse(fs.readFileSync(path.join(repo.dir, '.gemini/settings.json'), 'utf8')).hooks
      .BeforeTool[0].hooks[0].command as string;
    const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
    expect(clockIn.status, clockIn.stderr).toBe(0);
    const session = JSON.parse(clockIn.stdout).session_id as string;
    anchorSession(repo, session);
    const beforeTool = (tool: string, input: Record<string, unknown>) =>
      spawnSync('sh', ['-c', command], {
        cwd: repo.dir,
        env: { ...repo.env, HESTAI_SESSION: session },
        input: JSON.stringify({
          hook_event_name: 'BeforeTool',
          session_id: 'gemini-1',
          cwd: repo.dir,
          tool_name: tool,
          tool_input: input,
        }),
        encoding: 'utf8',
      });
    const settings = path.join(repo.dir, '.gemini/settings.json');
    for (const [tool, input] of [
      ['write_file', { file_path: settings, content: '{}' }],
      ['replace', { file_path: settings, old_string: 'BeforeTool', new_string: 'Nothing', instruction: 'x' }],
      ['run_shell_command', { command: 'echo {} > .gemini/settings.json' }],
    ] as const) {
      const refused = beforeTool(tool, input);
      expect(refused.status, tool).toBe(2);
      expect(refused.stderr, tool).toContain('is under .gemini/, which agents never write');
    }
    expect(beforeTool('write_file', { file_path: path.join(repo.dir, 'src/app.ts'), content: 'x' }).status).toBe(0);
  });
});

describe('hestai init --agent gemini', () => {
  it('registers the MCP server in .gemini/settings.json next to the hooks, keeping the project’s other servers and settings; a second run changes nothing', () => {
    const repo = makeRepo();
    const settings = path.join(repo.dir, '.gemini/settings.json');
    repo.write(
      '.gemini/settings.json',
      JSON.stringify({ mcpServers: { docs: { command: 'docs-server' } }, ui: { theme: 'x' } }),
    );
    expect(repo.hestai(['init', '--no-husky', '--agent', 'gemini']).status).toBe(0);
    const first = fs.readFileSync(settings, 'utf8');
    const doc = JSON.parse(first);
    expect(doc.mcpServers.docs).toEqual({ command: 'docs-server' });
    expect(doc.ui).toEqual({ theme: 'x' });
    expect(doc.mcpServers.hestai).toMatchObject({
      command: 'node',
      args: [path.join(PROJECT_ROOT, 'dist/cli/bin.js'), 'mcp'],
    });
    expect(Object.keys(doc.hooks)).toEqual(['SessionStart', 'BeforeTool', 'AfterAgent']);
    expect(repo.hestai(['init', '--no-husky', '--agent', 'gemini']).status).toBe(0);
    expect(fs.readFileSync(settings, 'utf8')).toBe(first);
  });
});

describe.skipIf(GEMINI === null)('Gemini CLI’s AfterAgent hook', () => {
  it('retries the turn once while a MUST end gate of the enforced protocol is unmet, then lets it stop', async () => {
    await expectSentBackOnce('gemini');
  });
});
