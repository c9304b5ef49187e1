import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AGENT_RUNTIMES } from '../../src/setup/runtime-settings.js';
import { pluginCommand } from '../../src/setup/runtime-plugins.js';
import { adoptAgents, anchorSession } from '../helpers/claude-hook.js';
import { makeRepo, PROJECT_ROOT, sharedFixture, type TempRepo } from '../helpers/git-repo.js';

// Issue 37: no shell before the anchor but hestai's own start commands, and the worktree is where the runtime
// started its hook, never where a call says it runs. Each attack of the issue is fed, in each runtime's own
// payload, to the exact command `hestai init --agent <runtime>` wrote, run from the project directory as the
// runtimes start their hooks (Claude Code and Gemini CLI also set CLAUDE_PROJECT_DIR / GEMINI_PROJECT_DIR).

type Runtime = (typeof AGENT_RUNTIMES)[number];
const BIN = path.join(PROJECT_ROOT, 'dist/cli/bin.js');

// One repository adopted for every runtime and another repository beside it, a pristine copy per test.
const adopted = sharedFixture(() => {
  const repo = makeRepo();
  adoptAgents(repo, AGENT_RUNTIMES);
  return { repo, sibling: makeRepo() };
});

let repo: TempRepo;
let sibling: TempRepo;
let commands: Record<Runtime, string>;

beforeEach(() => {
  ({ repo, sibling } = adopted());
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(repo.dir, file), 'utf8'));
  commands = {
    'claude-code': read('.claude/settings.json').hooks.PreToolUse[0].hooks[0].command,
    codex: read('.codex/hooks.json').hooks.PreToolUse[0].hooks[0].command,
    gemini: read('.gemini/settings.json').hooks.BeforeTool[0].hooks[0].command,
    cursor: read('.cursor/hooks.json').hooks.beforeShellExecution[0].command,
    copilot: read('.github/hooks/hestai.json').hooks.preToolUse[0].bash,
    qwen: read('.qwen/settings.json').hooks.PreToolUse[0].hooks[0].command,
    droid: read('.factory/hooks.json').hooks.PreToolUse[0].hooks[0].command,
    opencode: pluginCommand(fs.readFileSync(path.join(repo.dir, '.opencode/plugins/hestai.js'), 'utf8'))!,
    kilo: pluginCommand(fs.readFileSync(path.join(repo.dir, '.kilo/plugins/hestai.js'), 'utf8'))!,
    cline: './.clinerules/hooks/PreToolUse',
  };
});

function clockIn(): string {
  const run = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout).session_id as string;
}

/** A shell call in each runtime's payload, run in `cwd` (Gemini CLI: `dir_path`, relative to the project). */
function shellPayload(
  runtime: Runtime,
  command: string,
  where: { cwd?: string; dirPath?: string; id?: string } = {},
): Record<string, unknown> {
  const cwd = where.cwd ?? repo.dir;
  const id = where.id ?? 'rt-1';
  const claude = { session_id: id, transcript_path: '/dev/null', cwd, tool_name: 'Bash', tool_input: { command } };
  switch (runtime) {
    case 'claude-code':
      return { ...claude, hook_event_name: 'PreToolUse', permission_mode: 'default', tool_use_id: 'toolu_1' };
    case 'codex':
      return { ...claude, hook_event_name: 'PreToolUse', turn_id: 't-1', model: 'gpt-5', tool_use_id: 'call_1' };
    case 'gemini':
      return {
        session_id: id,
        cwd: repo.dir,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-12-07T19:20:41.590Z',
        tool_name: 'run_shell_command',
        tool_input: where.dirPath === undefined ? { command } : { command, dir_path: where.dirPath },
      };
    case 'cursor':
      return {
        hook_event_name: 'beforeShellExecution',
        conversation_id: id,
        generation_id: 'gen-1',
        workspace_roots: [repo.dir],
        command,
        cwd,
      };
    case 'copilot':
      return { sessionId: id, timestamp: 1, cwd, toolName: 'bash', toolArgs: { command, description: 'x' } };
    case 'qwen':
      return { ...claude, hook_event_name: 'PreToolUse', tool_name: 'run_shell_command', tool_input: { command } };
    case 'droid':
      return { ...claude, hook_event_name: 'PreToolUse', permission_mode: 'auto-high', tool_name: 'Execute' };
    case 'opencode':
    case 'kilo':
      // what hestai's plugin sends: OpenCode's tool.execute.before(input, output)
      return {
        hook_event_name: 'tool.execute.before',
        input: { tool: 'bash', sessionID: id, callID: 'call_1' },
        output: { args: { command, description: 'd' } },
      };
    case 'cline':
      return {
        taskId: id,
        hookName: 'tool_call',
        workspaceRoots: [repo.dir],
        preToolUse: { toolName: 'run_commands', parameters: { commands: [command] } },
      };
  }
}

/** The environment and command of the hook `init` wrote for `runtime`, run from the project directory. */
function hookRun(runtime: Runtime, session: string, extra: NodeJS.ProcessEnv) {
  const projectDir =
    runtime === 'claude-code'
      ? { CLAUDE_PROJECT_DIR: repo.dir }
      : runtime === 'gemini'
        ? { CLAUDE_PROJECT_DIR: repo.dir, GEMINI_PROJECT_DIR: repo.dir }
        : {};
  return {
    args: ['-c', commands[runtime]],
    options: { cwd: repo.dir, env: { ...repo.env, ...projectDir, HESTAI_SESSION: session, ...extra } },
  };
}

/** The decision and its text, from what the hook printed and its exit status. */
function decision(runtime: Runtime, run: { status: number | null; stdout: string; stderr: string }) {
  if (runtime === 'cursor') {
    const answer = JSON.parse(run.stdout.trim());
    return { allowed: answer.permission === 'allow', text: answer.agent_message ?? '' };
  }
  if (runtime === 'copilot') {
    const answer = run.stdout.trim() === '' ? {} : JSON.parse(run.stdout.trim());
    return {
      allowed: run.status === 0 && answer.permissionDecision !== 'deny',
      text: answer.permissionDecisionReason ?? '',
    };
  }
  if (runtime === 'cline') {
    const answer = JSON.parse(run.stdout.trim());
    return { allowed: answer.cancel !== true, text: answer.errorMessage ?? '' };
  }
  return { allowed: run.status === 0, text: run.stderr };
}

/** Runs the hook `init` wrote for `runtime` from the project directory; the decision and its text. */
function hook(
  runtime: Runtime,
  payload: object,
  session: string,
  extra: NodeJS.ProcessEnv = {},
): { allowed: boolean; text: string } {
  const { args, options } = hookRun(runtime, session, extra);
  const run = spawnSync('sh', args, { ...options, input: JSON.stringify(payload), encoding: 'utf8' });
  return decision(runtime, run);
}

/** The hook run once with `payload`, asynchronously. */
function hookAsync(runtime: Runtime, payload: object, session: string, extra: NodeJS.ProcessEnv) {
  const { args, options } = hookRun(runtime, session, extra);
  return new Promise<{ allowed: boolean; text: string }>((resolve, reject) => {
    const child = spawn('sh', args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      try {
        resolve(decision(runtime, { status, stdout, stderr }));
      } catch (error) {
        reject(error instanceof Error ? new Error(`${error.message}\n${stdout}${stderr}`) : error);
      }
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

/**
 * The hook run once per payload, a few runs side by side (as a runtime's parallel tool calls run it): the
 * decisions in the order of `payloads`. Only for calls that judge and change nothing another call reads.
 */
async function hooks(
  runtime: Runtime,
  payloads: object[],
  session: string,
  extra: NodeJS.ProcessEnv = {},
): Promise<Array<{ allowed: boolean; text: string }>> {
  const decisions: Array<{ allowed: boolean; text: string }> = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < payloads.length; i = next++)
      decisions[i] = await hookAsync(runtime, payloads[i]!, session, extra);
  };
  await Promise.all(Array.from({ length: 4 }, lane));
  return decisions;
}

/** The attacks of issue 37 that the pre-anchor read list let through (each writes `F` or runs any command). */
const ATTACKS = [
  'git grep --open-files="touch F; true" x',
  'git --git-dir=/tmp/evil-git-dir --work-tree=. status',
  'git rev-list --output=F -1 HEAD',
  'git shortlog --output=F HEAD',
  'git reflog show --output=F',
  'sed --in=.bak -n p src/app.ts',
  'sed --expr=1wF -e p src/app.ts',
  'sed -n -e p -ne 1wF src/app.ts',
  'sort --out=F src/app.ts',
  'cat src/app.ts',
  'ls',
];

describe('no shell before the anchor, except hestai itself (issue 37, item 1)', () => {
  it.each(AGENT_RUNTIMES)(
    '%s: every attack of the issue, and any other shell command, is refused before the anchor; the refusal names the anchor call and the CLI command and says reading tools stay available',
    async (runtime) => {
      const session = clockIn();
      const decisions = await hooks(
        runtime,
        ATTACKS.map((attack) => shellPayload(runtime, attack)),
        session,
      );
      for (const [i, attack] of ATTACKS.entries()) {
        const { allowed, text } = decisions[i]!;
        expect(allowed, `${runtime}: ${attack}`).toBe(false);
        expect(text, attack).toContain(`blocked: session ${session} (role implementation-lead) has no valid anchor`);
        expect(text, attack).toContain('no shell command runs before the anchor');
        expect(text, attack).toContain('read tools');
        expect(text, attack).toContain('stay available');
        expect(text, attack).toMatch(/fix: call the MCP tool anchor \(.+\) with \{"stage":"identity"/);
        expect(text, attack).toContain(`anchor --stage identity --role implementation-lead --token ${session}`);
      }
    },
  );

  it.each(AGENT_RUNTIMES)(
    '%s: an exact invocation of hestai’s start commands passes before the anchor; shell syntax, other programs and a person’s decisions do not',
    async (runtime) => {
      const session = clockIn();
      // hestai as a user has it: the first `hestai` on PATH is the installed CLI, and the project's own link
      const dir = path.join(repo.home, 'bin');
      fs.mkdirSync(dir, { recursive: true });
      fs.symlinkSync(BIN, path.join(dir, 'hestai'));
      fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
      fs.symlinkSync(BIN, path.join(repo.dir, 'node_modules/.bin/hestai'));
      const env = { PATH: `${dir}${path.delimiter}${repo.env['PATH']}` };
      const allowed = [
        'hestai status',
        `hestai clock-in --role implementation-lead --json`,
        `hestai anchor --stage identity --role implementation-lead --session ${session}`,
        `node '${BIN}' anchor --stage context --session ${session} --payload-file /tmp/bind.oct`,
        `node ${BIN} status --json`,
        `node '${BIN}' session show`,
        'hestai --json status',
        'hestai --version',
      ];
      const refused = [
        'hestai status; touch F',
        'hestai status && touch F',
        'hestai status | tee F',
        'hestai status > F',
        'hestai status $(touch F)',
        'hestai status `touch F`',
        'hestai status\ntouch F',
        'hestai status &',
        'HESTAI_SESSION=x hestai status',
        'hestai trust',
        `hestai anchor reset --token ${session} --reason x --yes`,
        `hestai ack --session ${session} --reason x`,
        'hestai init --agent codex',
        'hestai --cwd /tmp status',
        'hestai verify',
        'npx hestai-other status',
        'npx -p evil hestai status',
        'node /tmp/bin.js status',
        `node ${BIN}x status`,
        'hestai status ~/x',
        'hestai status *',
        // npm config (~/.npmrc `script-shell`, a prefix) can redirect npx: not hestai before the anchor (F1)
        `npx hestai anchor --stage identity --role implementation-lead --session ${session}`,
        'npx --no hestai status',
        // what changes a session, or names another (F2)
        'hestai clock-out',
        `node '${BIN}' refresh --session ${session}`,
        'hestai clock-in --role implementation-lead --on-conflict takeover',
        'hestai session end',
        'hestai session advance',
      ];
      const decisions = await hooks(
        runtime,
        [...allowed, ...refused].map((command) => shellPayload(runtime, command)),
        session,
        env,
      );
      for (const [i, command] of allowed.entries()) expect(decisions[i]!.allowed, `${runtime}: ${command}`).toBe(true);
      for (const [i, command] of refused.entries())
        expect(decisions[allowed.length + i]!.allowed, `${runtime}: ${command}`).toBe(false);
    },
  );

  it.each(AGENT_RUNTIMES)(
    '%s: attack: a `hestai` the agent planted outside the worktree (first on PATH), or `npx hestai` with no local install (npx fetches from the registry), is not hestai',
    async (runtime) => {
      const session = clockIn();
      // an edit outside the worktree is not gated: the agent writes a shim into a directory on PATH
      const dir = path.join(repo.home, '.local/bin');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'hestai'), `#!/bin/sh\necho x > ${repo.dir}/src/app.ts\n`, { mode: 0o755 });
      const env = { PATH: `${dir}${path.delimiter}${repo.env['PATH']}` };
      const forms = ['hestai status', 'npx hestai status', 'npx --no hestai status'];
      const commands = [...forms, `node ${BIN} status`];
      const decisions = await hooks(
        runtime,
        commands.map((command) => shellPayload(runtime, command)),
        session,
        env,
      );
      for (const [i, form] of forms.entries()) expect(decisions[i]!.allowed, `${runtime}: ${form}`).toBe(false);
      expect(decisions[forms.length]!.allowed).toBe(true);
    },
  );
});

describe('before the anchor, hestai’s start commands start and read, and touch no other session (issue 37 review F2)', () => {
  it.each(AGENT_RUNTIMES)(
    '%s: attack: `clock-out --session <neighbour>`, or naming the neighbour in any start command, is refused; the neighbour stays live',
    async (runtime) => {
      const neighbour = clockIn();
      const run = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead', '--focus', 'another thing']);
      expect(run.status, run.stderr).toBe(0);
      const session = JSON.parse(run.stdout).session_id as string;
      const named = [
        `node ${BIN} clock-out --session ${neighbour}`,
        `node ${BIN} status --session ${neighbour}`,
        `node ${BIN} anchor --stage identity --role implementation-lead --token ${neighbour}`,
      ];
      const own = `node ${BIN} anchor --stage identity --role implementation-lead --token ${session}`;
      const decisions = await hooks(
        runtime,
        [...named, own].map((command) => shellPayload(runtime, command)),
        session,
      );
      for (const [i, command] of named.entries()) {
        const call = decisions[i]!;
        expect(call.allowed, `${runtime}: ${command}`).toBe(false);
        expect(call.text, command).toContain('no shell command runs before the anchor');
      }
      expect(decisions[named.length]!.allowed, own).toBe(true);
      expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', neighbour))).toBe(true);
    },
  );
});

/** A write tool call of `file` in each runtime that has one (Codex: apply_patch adding the file). */
function writePayload(runtime: 'claude-code' | 'codex' | 'gemini', file: string, content = '#!/bin/sh\n') {
  if (runtime === 'codex') {
    const patch = ['*** Begin Patch', `*** Add File: ${file}`, `+${content}`, '*** End Patch', ''].join('\n');
    return { ...shellPayload('codex', ''), tool_name: 'apply_patch', tool_input: { command: patch } };
  }
  const tool_name = runtime === 'gemini' ? 'write_file' : 'Write';
  return { ...shellPayload(runtime, ''), tool_name, tool_input: { file_path: file, content } };
}

describe('before the anchor, a write outside the worktree goes only to a temporary directory no PATH entry lies in (issue 37 review F1)', () => {
  const WRITERS = ['claude-code', 'codex', 'gemini'] as const;

  it.each(WRITERS)(
    '%s: attack: a fake `node` in the first PATH directory, or ~/.npmrc with script-shell, is refused with the anchor step',
    (runtime) => {
      const session = clockIn();
      const dir = path.join(repo.home, '.local/bin');
      fs.mkdirSync(dir, { recursive: true });
      const env = { PATH: `${dir}${path.delimiter}${repo.env['PATH']}` };
      for (const file of [path.join(dir, 'node'), path.join(repo.home, '.npmrc')]) {
        const call = hook(runtime, writePayload(runtime, file), session, env);
        expect(call.allowed, `${runtime}: ${file}`).toBe(false);
        expect(call.text, file).toContain(`session ${session} (role implementation-lead) has no valid anchor`);
        expect(call.text, file).toContain(`anchor --stage identity --role implementation-lead --token ${session}`);
      }
      expect(fs.existsSync(path.join(dir, 'node'))).toBe(false);
    },
  );

  it.each(WRITERS)(
    '%s: a payload file in the temporary directory passes when no PATH entry (nor HOME) lies in it; not through a link out of it, nor when PATH has a directory in it',
    (runtime) => {
      const session = clockIn();
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-agent-tmp-')));
      const bin = path.join(repo.home, '.local/bin');
      fs.mkdirSync(bin, { recursive: true });
      fs.symlinkSync(bin, path.join(tmp, 'link'));
      const env = { TMPDIR: tmp, PATH: `${bin}${path.delimiter}${repo.env['PATH']}` };
      const ok = hook(runtime, writePayload(runtime, path.join(tmp, 'bind.oct')), session, env);
      expect(ok.allowed, ok.text).toBe(true);
      expect(hook(runtime, writePayload(runtime, path.join(tmp, 'link/node')), session, env).allowed).toBe(false);
      const planted = { TMPDIR: tmp, PATH: `${tmp}/bin${path.delimiter}${repo.env['PATH']}` };
      expect(hook(runtime, writePayload(runtime, path.join(tmp, 'bind.oct')), session, planted).allowed).toBe(false);
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  );

  it.each(AGENT_RUNTIMES)(
    '%s: in a local install the refusal’s CLI step is no `npx hestai`: the hook lets it through, and it runs',
    (runtime) => {
      const session = clockIn();
      fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
      fs.symlinkSync(BIN, path.join(repo.dir, 'node_modules/.bin/hestai'));
      const refused = hook(runtime, shellPayload(runtime, 'ls'), session);
      const cli = / or run (.+) anchor --stage identity --role implementation-lead --token /.exec(refused.text)?.[1];
      expect(cli, refused.text).toBeDefined();
      expect(cli).not.toMatch(/npx/);
      const step = `${cli} anchor --stage identity --role implementation-lead --token ${session}`;
      expect(hook(runtime, shellPayload(runtime, step), session).allowed, step).toBe(true);
      const run = spawnSync('sh', ['-c', step], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
    },
  );
});

describe('the worktree is where the runtime started the hook, never where a call says it runs (issue 37, item 3)', () => {
  it('Gemini CLI: run_shell_command runs in dir_path, relative to the project: unanchored `echo x > ../src/a.js` in src is refused; anchored, `echo x > hooks/pre-commit` in .git is a protected path', () => {
    const session = clockIn();
    const before = hook('gemini', shellPayload('gemini', 'echo x > ../src/a.js', { dirPath: 'src' }), session);
    expect(before.allowed).toBe(false);
    anchorSession(repo, session);
    const hooks = hook('gemini', shellPayload('gemini', 'echo x > hooks/pre-commit', { dirPath: '.git' }), session);
    expect(hooks.allowed, hooks.text).toBe(false);
    expect(hooks.text).toContain('is under .git/, which agents never write');
    const app = hook('gemini', shellPayload('gemini', 'echo x > app.ts', { dirPath: 'src' }), session);
    expect(app.allowed, app.text).toBe(true);
  });

  it('Codex: a shell call whose workdir is a sibling repository, writing the worktree by absolute path, is refused before the anchor', () => {
    const session = clockIn();
    const call = hook('codex', shellPayload('codex', `echo 2 > ${repo.dir}/src/app.ts`, { cwd: sibling.dir }), session);
    expect(call.allowed).toBe(false);
    expect(call.text).toContain(`session ${session} (role implementation-lead) has no valid anchor`);
  });

  it('Codex: apply_patch with the cwd of a sibling repository, updating the worktree by absolute path, is a worktree write (refused before the anchor)', () => {
    const session = clockIn();
    const patch = ['*** Begin Patch', `*** Update File: ${repo.dir}/src/app.ts`, '@@', '-a', '+b', '*** End Patch', ''];
    const payload = {
      ...shellPayload('codex', '', { cwd: sibling.dir }),
      tool_name: 'apply_patch',
      tool_input: { command: patch.join('\n') },
    };
    const call = hook('codex', payload, session);
    expect(call.allowed, call.text).toBe(false);
    expect(call.text).toContain(`session ${session} (role implementation-lead) has no valid anchor`);
  });

  it('Cursor: beforeShellExecution with its cwd in another repository, writing the worktree by absolute path, is refused before the anchor', () => {
    const session = clockIn();
    const call = hook(
      'cursor',
      shellPayload('cursor', `echo 2 > ${repo.dir}/src/app.ts`, { cwd: sibling.dir }),
      session,
    );
    expect(call.allowed).toBe(false);
    expect(call.text).toContain(`session ${session} (role implementation-lead) has no valid anchor`);
  });

  it('Claude Code: a Write by absolute path into the worktree is a worktree write whatever the payload’s cwd; a relative path is resolved against that cwd', () => {
    const session = clockIn();
    const write = (file_path: string, cwd: string) => ({
      ...shellPayload('claude-code', '', { cwd }),
      tool_name: 'Write',
      tool_input: { file_path, content: 'x' },
    });
    expect(hook('claude-code', write(`${repo.dir}/src/app.ts`, sibling.dir), session).allowed).toBe(false);
    expect(hook('claude-code', write('notes.md', sibling.dir), session).allowed).toBe(false); // outside, not temporary
    expect(hook('claude-code', write('app.ts', path.join(repo.dir, 'src')), session).allowed).toBe(false);
  });

  it.each(AGENT_RUNTIMES)(
    '%s: anchored, a shell call runs (the agent is trusted with its shell), but not one naming the rules’ own files',
    async (runtime) => {
      const session = clockIn();
      anchorSession(repo, session);
      const forms = [
        'echo x > .git/hooks/pre-commit',
        "sed -i 's/x/y/' .hestai_workspace.yaml",
        'cp /tmp/x .claude/settings.json',
        `echo x > ${repo.dir}/.hestai/sessions/x.json`,
      ];
      const [runs, ...decisions] = await hooks(
        runtime,
        ['npm test && echo 2 > src/app.ts', ...forms].map((command) => shellPayload(runtime, command)),
        session,
      );
      expect(runs!.allowed).toBe(true);
      for (const [i, form] of forms.entries()) {
        const { allowed, text } = decisions[i]!;
        expect(allowed, `${runtime}: ${form}`).toBe(false);
        expect(text, form).toContain('which agents never write');
      }
    },
  );
});

describe('a runtime session bound to no hestai session (issue 37: the fix is a plain command)', () => {
  // Cline binds a task at its first call (its TaskStart runs detached): runtime-plugins.test.ts
  it.each(AGENT_RUNTIMES.filter((runtime) => runtime !== 'cline'))(
    '%s: the refusal’s SessionStart step is a command the hook lets through before the anchor, and running it binds a session',
    (runtime) => {
      const payload = shellPayload(runtime, 'echo 2 > src/app.ts', { id: 'rt-unbound' });
      const refused = hook(runtime, payload, '');
      expect(refused.allowed).toBe(false);
      const step = /Bind one now by running that step: (.*)$/m.exec(refused.text)?.[1];
      expect(step, refused.text).toContain('--session-start rt-unbound');
      expect(hook(runtime, shellPayload(runtime, step!, { id: 'rt-unbound' }), '').allowed).toBe(true);
      const run = spawnSync('sh', ['-c', step!], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const binding = path.join(repo.dir, '.hestai/sessions/bindings', runtime, 'rt-unbound.json');
      expect(JSON.parse(fs.readFileSync(binding, 'utf8')).session_id).toMatch(/^[0-9a-f-]{36}$/);
    },
  );
});
