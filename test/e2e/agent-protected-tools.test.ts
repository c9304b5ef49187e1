import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { pluginCommand } from '../../src/setup/runtime-plugins.js';
import { adoptAgents, anchorSession } from '../helpers/claude-hook.js';
import { makeRepo, sharedFixture, type TempRepo } from '../helpers/git-repo.js';

// A reviewer's attacks on the agent hooks: a shell's input sent by another tool (Copilot CLI's write_bash), a
// tool hestai does not know whose input names a protected path, and the OpenCode/Kilo and `.mcp.json` config
// files that load code. Each is fed to the exact hook command `hestai init --agent <runtime>` wrote.

type Runtime = 'claude-code' | 'copilot' | 'opencode' | 'kilo';

const adopted = sharedFixture(() => {
  const repo = makeRepo();
  adoptAgents(repo, ['claude-code', 'copilot', 'opencode', 'kilo']);
  return repo;
});

let repo: TempRepo;
let commands: Record<Runtime, string>;

beforeEach(() => {
  repo = adopted();
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(repo.dir, file), 'utf8'));
  commands = {
    'claude-code': read('.claude/settings.json').hooks.PreToolUse[0].hooks[0].command,
    copilot: read('.github/hooks/hestai.json').hooks.preToolUse[0].bash,
    opencode: pluginCommand(fs.readFileSync(path.join(repo.dir, '.opencode/plugins/hestai.js'), 'utf8'))!,
    kilo: pluginCommand(fs.readFileSync(path.join(repo.dir, '.kilo/plugins/hestai.js'), 'utf8'))!,
  };
});

function clockIn(): string {
  const run = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout).session_id as string;
}

/** One tool call in the runtime's own payload. */
function payload(runtime: Runtime, tool: string, input: Record<string, unknown>, id: string): object {
  switch (runtime) {
    case 'claude-code':
      return {
        session_id: id,
        transcript_path: '/dev/null',
        cwd: repo.dir,
        hook_event_name: 'PreToolUse',
        permission_mode: 'default',
        tool_use_id: 'toolu_1',
        tool_name: tool,
        tool_input: input,
      };
    case 'copilot':
      return { sessionId: id, timestamp: 1, cwd: repo.dir, toolName: tool, toolArgs: input };
    case 'opencode':
    case 'kilo':
      return {
        hook_event_name: 'tool.execute.before',
        input: { tool, sessionID: id, callID: 'call_1' },
        output: { args: input },
      };
  }
}

/** Runs the hook `init` wrote for `runtime` from the project directory; the decision and its text. */
function hook(runtime: Runtime, body: object, session: string): { allowed: boolean; text: string } {
  const run = spawnSync('sh', ['-c', commands[runtime]], {
    cwd: repo.dir,
    env: {
      ...repo.env,
      ...(runtime === 'claude-code' ? { CLAUDE_PROJECT_DIR: repo.dir } : {}),
      HESTAI_SESSION: session,
    },
    input: JSON.stringify(body),
    encoding: 'utf8',
  });
  if (runtime === 'copilot') {
    const answer = run.stdout.trim() === '' ? {} : JSON.parse(run.stdout.trim());
    return {
      allowed: run.status === 0 && answer.permissionDecision !== 'deny',
      text: answer.permissionDecisionReason ?? '',
    };
  }
  return { allowed: run.status === 0, text: run.stderr };
}

const call = (runtime: Runtime, tool: string, input: Record<string, unknown>, session: string) =>
  hook(runtime, payload(runtime, tool, input, session), session);

describe("a shell's input and unknown tools' input are judged like a shell command", () => {
  it('Copilot CLI: write_bash (input to a running shell) waits for the anchor like bash; anchored, input naming .hestai/ or .github/hooks/ is refused and plain input passes', () => {
    const session = clockIn();
    const before = call('copilot', 'write_bash', { shellId: '1', input: 'ls\n', delay: 1 }, session);
    expect(before.allowed).toBe(false);
    expect(before.text).toContain('no shell command runs before the anchor');
    anchorSession(repo, session);
    const attack = call(
      'copilot',
      'write_bash',
      { shellId: '1', input: 'rm -r .hestai; >.github/hooks/hestai.json\n', delay: 1 },
      session,
    );
    expect(attack.allowed).toBe(false);
    expect(attack.text).toMatch(/is under (\.hestai\/|\.github\/hooks\/), which agents never write/);
    expect(call('copilot', 'write_bash', { shellId: '1', input: 'ls src\n', delay: 1 }, session).allowed).toBe(true);
  });

  it.each(['claude-code', 'copilot', 'opencode'] as const)(
    '%s: anchored, a tool hestai does not know is refused when any string of its input names a protected path, nested too; otherwise allowed',
    (runtime) => {
      const session = clockIn();
      anchorSession(repo, session);
      const tool = runtime === 'claude-code' ? 'mcp__other__run' : 'other_run';
      const nested = { options: { steps: ['echo ok', "fs.writeFileSync('.hestai_workspace.yaml', '')"] } };
      const refused = call(runtime, tool, nested, session);
      expect(refused.allowed, runtime).toBe(false);
      expect(refused.text).toContain('is under .hestai_workspace.yaml, which agents never write');
      const hooks = call(runtime, tool, { script: 'cp x .git/hooks/pre-commit' }, session);
      expect(hooks.allowed).toBe(false);
      expect(hooks.text).toContain('is under .git/');
      const plain = call(runtime, tool, { script: 'echo src/app.ts', n: 3 }, session);
      expect(plain.allowed, plain.text).toBe(true);
    },
  );
});

describe('OpenCode/Kilo config and .mcp.json at any depth, and Copilot’s .github/mcp.json, are protected', () => {
  const files = [
    'opencode.jsonc',
    'kilo.jsonc',
    'sub/opencode.json',
    'sub/dir/kilo.json',
    'opencode.json',
    '.mcp.json',
    'sub/.mcp.json',
    'packages/app/.mcp.json',
    '.github/mcp.json',
  ];
  it.each(['claude-code', 'opencode', 'kilo'] as const)(
    '%s: anchored, a write of each is refused, by edit tool and by shell; src/ stays writable',
    (runtime) => {
      const session = clockIn();
      anchorSession(repo, session);
      for (const file of files) {
        const edit =
          runtime === 'claude-code'
            ? call(runtime, 'Write', { file_path: path.join(repo.dir, file), content: '{}' }, session)
            : call(runtime, 'write', { filePath: path.join(repo.dir, file), content: '{}' }, session);
        expect(edit.allowed, `${runtime} write ${file}`).toBe(false);
        expect(edit.text).toContain('which agents never write');
        const shell =
          runtime === 'claude-code'
            ? call(runtime, 'Bash', { command: `echo '{"plugin":["x"]}' > ${file}` }, session)
            : call(runtime, 'bash', { command: `echo '{"plugin":["x"]}' > ${file}` }, session);
        expect(shell.allowed, `${runtime} shell ${file}`).toBe(false);
        // a directory the hook cannot know (a variable): judged by the file's name
        const unknownDir = `d=$(mktemp -d); echo '{}' > "$d/${file}"`;
        const named =
          runtime === 'claude-code'
            ? call(runtime, 'Bash', { command: unknownDir }, session)
            : call(runtime, 'bash', { command: unknownDir }, session);
        expect(named.allowed, `${runtime} shell $d/${file}`).toBe(false);
      }
      const app =
        runtime === 'claude-code'
          ? call(runtime, 'Write', { file_path: path.join(repo.dir, 'src/app.ts'), content: 'x' }, session)
          : call(runtime, 'write', { filePath: path.join(repo.dir, 'src/app.ts'), content: 'x' }, session);
      expect(app.allowed, app.text).toBe(true);
    },
  );

  it('a person still writes .mcp.json: `hestai init --mcp` and `--agent` recreate it', () => {
    fs.rmSync(path.join(repo.dir, '.mcp.json'));
    const mcp = repo.hestai(['init', '--no-husky', '--mcp']);
    expect(mcp.status, mcp.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(repo.dir, '.mcp.json'), 'utf8')).mcpServers.hestai).toBeDefined();
    fs.rmSync(path.join(repo.dir, '.mcp.json'));
    const agent = repo.hestai(['init', '--no-husky', '--agent', 'copilot']);
    expect(agent.status, agent.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo.dir, '.mcp.json'))).toBe(true);
  });
});
