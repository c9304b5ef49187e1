import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorSession } from '../helpers/claude-hook.js';
import { makeRepo } from '../helpers/git-repo.js';
import type { Turn } from '../helpers/model-endpoint.js';
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
  runHint,
  sessionInContext,
  withRemote,
} from '../helpers/runtime-agent.js';
import { runtimeBin } from '../helpers/runtimes.js';

// Codex CLI itself (the pinned @openai/codex, issue 29) runs the hooks `hestai init --agent codex` wrote in
// .codex/hooks.json: a model provider whose base_url is the scripted endpoint (OpenAI Responses API on
// 127.0.0.1) makes the calls, and the test reads what Codex sent back and what is on disk.
// Codex offers an MCP server's tools as the namespace `mcp__<server>` (the model calls `anchor` in
// namespace `mcp__hestai`); the server is registered with the command `hestai init` prints.

const CODEX = await runtimeBin('codex');

const shell = (cmd: string): Turn => ({ tools: [{ name: 'exec_command', input: { cmd } }] });
const patch = (...lines: string[]) =>
  ["apply_patch <<'EOF'", '*** Begin Patch', ...lines, '*** End Patch', 'EOF', ''].join('\n');
const UPDATE = patch('*** Update File: src/app.ts', '@@', '-export const app = 1;', '+export const app = 2;');
const ADD_TEST = patch('*** Add File: test/app.test.ts', '+app is 2');

describe.skipIf(CODEX === null)('Codex CLI (the real program) runs the hooks hestai init --agent codex wrote', () => {
  it('refuses an unanchored shell command and apply_patch (the file untouched, the anchor step named); anchored through the MCP server Codex started, its apply_patch is allowed and its git commit carries its trailers and passes verify in a fresh clone', async () => {
    const { repo, init } = adopt('codex');
    expect(init).toContain('/hooks'); // it says the hooks must be trusted in Codex
    const remote = withRemote(repo);
    const wd = repo.dir;
    const { results, endpoint } = await runAgent(
      'codex',
      repo,
      [
        shell('cat src/app.ts'),
        shell('echo "export const app = 3;" > src/app.ts'),
        shell(UPDATE),
        // the anchor tool as the refusals name it: Codex's mcp__<server>__<tool> is namespace mcp__<server>, name <tool>
        ...anchorSteps(wd, (name, input, request) => {
          const [, namespace, tool] = /^(mcp__\w+?)__(\w+)$/.exec(
            name === 'anchor' ? anchorToolInRefusal(request) : `mcp__hestai__${name}`,
          )!;
          return { tools: [{ namespace: namespace!, name: tool!, input }] };
        }),
        shell(ADD_TEST),
        // no env file in Codex: the model commits as its SessionStart context says (HESTAI_SESSION=<id> git commit)
        (request) => shell(`git add test/app.test.ts && ${commitCommand(request)} commit -q -m "test(app): app is 2"`),
      ],
      {
        // its workspace-write sandbox keeps .git read-only and `codex exec` asks no one: no commit there
        args: ['--sandbox', 'danger-full-access'],
        // the MCP server, registered as init's hint says (in CODEX_HOME's config.toml)
        before: (env) => runHint('codex', init, /^hint: register the MCP server for Codex: (.*)$/m, env, wd),
      },
    );
    const session = boundSession(repo, 'codex');
    expect(sessionInContext(endpoint.turns()[0]!)).toBe(session);
    expect(results, JSON.stringify(results)).toHaveLength(9); // one result per call of the script
    const [read, write, update, identity, context, proof, status, add, commit] = results;
    // Codex reads through its shell: no shell command runs before the anchor (issue 37)
    expectRefusedUnanchored(read, 'Bash', session);
    expectRefusedUnanchored(write, 'Bash', session);
    expectRefusedUnanchored(update, 'apply_patch', session);
    expect(fs.readFileSync(path.join(wd, 'src/app.ts'), 'utf8')).toBe(APP);
    expectStagesPassed([identity, context, proof]);
    expectUnlockedByConnection(status, session); // one session: the server Codex started took its hook's
    expect(add?.content).not.toContain('blocked');
    expect(fs.readFileSync(path.join(wd, 'test/app.test.ts'), 'utf8')).toBe('app is 2\n');
    expect(commit?.content).not.toContain('blocked');
    expectCommitVerified(repo, remote, session, 'test(app): app is 2');
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });
});

describe.skipIf(CODEX === null)('Codex CLI’s PreToolUse hook sees every tool', () => {
  it('attack: an unanchored agent calls another MCP server’s tool (save_note in namespace mcp__notes): refused, the file never written', async () => {
    const { repo } = adopt('codex');
    const { command, args, notes } = notesServer(repo);
    const { results } = await runAgent(
      'codex',
      repo,
      [shell('cat src/app.ts'), { tools: [{ namespace: 'mcp__notes', name: 'save_note', input: {} }] }],
      {
        // the notes server in CODEX_HOME's config.toml, as `codex mcp add` writes it
        before: (env) =>
          fs.appendFileSync(
            path.join(env['CODEX_HOME']!, 'config.toml'),
            `[mcp_servers.notes]\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\n`,
          ),
      },
    );
    const session = boundSession(repo, 'codex');
    expect(results, JSON.stringify(results)).toHaveLength(2);
    const [read, note] = results;
    expectRefusedUnanchored(read, 'Bash', session);
    expect(note?.content).toContain('hestai: mcp__notes__save_note (a tool hestai does not know, so a write');
    expect(note?.content).toContain(`blocked: session ${session}`);
    expect(fs.existsSync(notes)).toBe(false);
  });
});

describe.skipIf(CODEX === null)(
  'Codex CLI: the worktree is where Codex started, not the shell call’s workdir (issue 37)',
  () => {
    it('attack: an unanchored agent’s shell call whose workdir is a sibling repository writes the worktree by absolute path: refused before the anchor, the file untouched', async () => {
      const { repo } = adopt('codex');
      const sibling = makeRepo();
      const { results } = await runAgent(
        'codex',
        repo,
        [
          {
            tools: [{ name: 'exec_command', input: { cmd: `echo 3 > ${repo.dir}/src/app.ts`, workdir: sibling.dir } }],
          },
        ],
        { args: ['--sandbox', 'danger-full-access'] },
      );
      const session = boundSession(repo, 'codex');
      expect(results, JSON.stringify(results)).toHaveLength(1);
      expect(results[0]?.content).toContain(
        `blocked: session ${session} (role implementation-lead) has no valid anchor`,
      );
      expect(results[0]?.content).toContain('no shell command runs before the anchor');
      expect(fs.readFileSync(path.join(repo.dir, 'src/app.ts'), 'utf8')).toBe(APP);
    });
  },
);

describe.skipIf(CODEX === null)('Codex CLI’s Stop hook', () => {
  it('sends the agent back once while a MUST end gate of the enforced protocol is unmet, then lets it stop', async () => {
    await expectSentBackOnce('codex');
  });
});

// Codex's own apply_patch tool (offered to OpenAI's models; not to the scripted provider above, whose model
// edits through an `apply_patch <<'EOF'` shell command, sent as Bash) reaches PreToolUse as tool_name
// apply_patch with the raw patch as tool_input.command (Codex's hook input schema): run the hook init wrote with it.
describe('Codex’s apply_patch tool, as Codex 0.169 sends it to PreToolUse (tool_name apply_patch, the raw patch as tool_input.command)', () => {
  it('attack: an anchored agent’s apply_patch of .hestai_workspace.yaml is refused as a protected path; a patch of src/ passes', () => {
    const { repo } = adopt('codex');
    const command = JSON.parse(fs.readFileSync(path.join(repo.dir, '.codex/hooks.json'), 'utf8')).hooks.PreToolUse[0]
      .hooks[0].command as string;
    const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
    expect(clockIn.status, clockIn.stderr).toBe(0);
    const session = JSON.parse(clockIn.stdout).session_id as string;
    anchorSession(repo, session);
    const applyPatch = (...lines: string[]) =>
      spawnSync('sh', ['-c', command], {
        cwd: repo.dir,
        env: { ...repo.env, HESTAI_SESSION: session },
        input: JSON.stringify({
          hook_event_name: 'PreToolUse',
          session_id: 'codex-thread-1',
          turn_id: 't-1',
          cwd: repo.dir,
          tool_name: 'apply_patch',
          tool_input: { command: ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n') },
        }),
        encoding: 'utf8',
      });
    const config = applyPatch('*** Update File: .hestai_workspace.yaml', '@@', '-tdd:', '+commit:');
    expect(config.status, config.stderr).toBe(2);
    expect(config.stderr).toContain('.hestai_workspace.yaml is under .hestai_workspace.yaml, which agents never write');
    const hooks = applyPatch('*** Add File: .git/hooks/pre-commit', '+exit 0');
    expect(hooks.status, hooks.stderr).toBe(2);
    expect(hooks.stderr).toContain('which agents never write');
    const app = applyPatch('*** Update File: src/app.ts', '@@', '-export const app = 1;', '+export const app = 2;');
    expect(app.status, app.stderr).toBe(0);
  });

  // Codex's parser trims every line before it reads a hunk header (codex-rs apply-patch parse_one_hunk), and it
  // runs the shell form `cd <dir> && apply_patch <<'EOF'` too (invocation.rs extract_apply_patch_from_bash).
  it('attack: an anchored agent’s apply_patch with indented hunk headers, one whose headers hestai cannot read, or in the shell form `cd <dir> && apply_patch <<EOF` is refused as a protected path', () => {
    const { repo } = adopt('codex');
    const command = JSON.parse(fs.readFileSync(path.join(repo.dir, '.codex/hooks.json'), 'utf8')).hooks.PreToolUse[0]
      .hooks[0].command as string;
    const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
    expect(clockIn.status, clockIn.stderr).toBe(0);
    const session = JSON.parse(clockIn.stdout).session_id as string;
    anchorSession(repo, session);
    const hook = (toolName: string, cmd: string) =>
      spawnSync('sh', ['-c', command], {
        cwd: repo.dir,
        env: { ...repo.env, HESTAI_SESSION: session },
        input: JSON.stringify({
          hook_event_name: 'PreToolUse',
          session_id: 'codex-thread-1',
          turn_id: 't-1',
          cwd: repo.dir,
          tool_name: toolName,
          tool_input: { command: cmd },
        }),
        encoding: 'utf8',
      });
    const body = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
    const indented = hook('apply_patch', body('  *** Add File: .git/hooks/pre-commit', '+exit 0'));
    expect(indented.status, indented.stderr).toBe(2);
    expect(indented.stderr).toContain('.git/hooks/pre-commit is under .git/, which agents never write');
    const tab = hook('apply_patch', body('\t*** Update File: .hestai_workspace.yaml', '@@', '-tdd:', '+commit:'));
    expect(tab.status, tab.stderr).toBe(2);
    expect(tab.stderr).toContain('.hestai_workspace.yaml is under .hestai_workspace.yaml, which agents never write');
    // U+0085 is whitespace to Codex's trim (Rust's char::is_whitespace), not to a JavaScript \s
    const nel = hook('apply_patch', body('\u0085*** Add File: .git/hooks/pre-commit', '+exit 0'));
    expect(nel.status, nel.stderr).toBe(2);
    expect(nel.stderr).toContain('.git/hooks/pre-commit is under .git/');
    // fail closed: a patch that names no file hestai can read is refused, saying so
    const unread = hook('apply_patch', body('+exit 0'));
    expect(unread.status, unread.stderr).toBe(2);
    expect(unread.stderr).toContain('names no file hestai can read');
    const cdShell = hook(
      'Bash',
      [
        "cd . && apply_patch <<'EOF'",
        '*** Begin Patch',
        '*** Add File: .git/hooks/pre-commit',
        '+exit 0',
        '*** End Patch',
        'EOF',
      ].join('\n'),
    );
    expect(cdShell.status, cdShell.stderr).toBe(2);
    expect(cdShell.stderr).toContain('which agents never write');
    const cdDir = hook(
      'Bash',
      [
        "cd .git && apply_patch <<'EOF'",
        '*** Begin Patch',
        '*** Add File: hooks/pre-commit',
        '+exit 0',
        '*** End Patch',
        'EOF',
      ].join('\n'),
    );
    expect(cdDir.status, cdDir.stderr).toBe(2);
    expect(cdDir.stderr).toContain('.git/hooks/pre-commit is under .git/');
    const app = hook(
      'apply_patch',
      body('  *** Update File: src/app.ts', '@@', '-export const app = 1;', '+export const app = 2;'),
    );
    expect(app.status, app.stderr).toBe(0);
  });
});
