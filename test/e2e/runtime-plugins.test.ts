import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adoptAgents, anchorSession } from '../helpers/claude-hook.js';
import { makeRepo, PROJECT_ROOT, type RunResult, type TempRepo } from '../helpers/git-repo.js';

// The runtimes whose hook is code or an executable (issue 42): OpenCode's and Kilo Code's plugin and Cline's
// PreToolUse hook, as `hestai init --agent <runtime>` writes them, run as the runtime runs them (the plugin
// imported by node and called with OpenCode's payload; Cline's hook executed with its JSON on stdin).

const PLUGINS = { opencode: '.opencode/plugins/hestai.js', kilo: '.kilo/plugins/hestai.js' } as const;

function adopted(agent: string, options: { dependency?: boolean } = {}): TempRepo {
  const repo = makeRepo();
  if (options.dependency === true) {
    fs.mkdirSync(path.join(repo.dir, 'node_modules'));
    fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
  }
  adoptAgents(repo, [agent]);
  return repo;
}

/**
 * OpenCode's calls on the plugin, in a node process: `session.start` through the system-prompt hook, then
 * `tool.execute.before` per call; each call's result is `allowed` or the message it threw.
 */
function runPlugin(repo: TempRepo, file: string, calls: Array<{ tool: string; args: Record<string, unknown> }>) {
  const script = `
    const [file, dir, calls] = process.argv.slice(1);
    const hooks = await (await import(file)).HestaiHooks({ directory: dir, worktree: dir });
    const system = [];
    await hooks['experimental.chat.system.transform']({ sessionID: 'ses_1' }, { system });
    const env = {};
    await hooks['shell.env']({ sessionID: 'ses_1', cwd: dir }, { env });
    const results = [];
    for (const call of JSON.parse(calls)) {
      try {
        await hooks['tool.execute.before']({ tool: call.tool, sessionID: 'ses_1', callID: 'c' }, { args: call.args });
        results.push('allowed');
      } catch (error) {
        results.push(error.message);
      }
    }
    console.log(JSON.stringify({ system, env, results }));`;
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', script, path.join(repo.dir, file), repo.dir, JSON.stringify(calls)],
    { cwd: repo.dir, env: repo.env, encoding: 'utf8', timeout: 60_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { system: string[]; env: Record<string, string>; results: string[] };
}

/** Cline's PreToolUse hook, executed as Cline runs it, with Cline's payload for `toolName`. */
function runCline(repo: TempRepo, toolName: string, parameters: Record<string, unknown>, env = {}): RunResult {
  const payload = {
    clineVersion: '',
    taskId: 'conv_1_task',
    workspaceRoots: [repo.dir],
    hookName: 'tool_call',
    preToolUse: { toolName, parameters },
  };
  const run = spawnSync(path.join(repo.dir, '.clinerules/hooks/PreToolUse'), [], {
    cwd: repo.dir,
    env: { ...repo.env, ...env },
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

describe.each(['opencode', 'kilo'] as const)('the %s plugin hestai init wrote', (runtime) => {
  it('clocks the session in (its context in the system prompt, HESTAI_SESSION for the shell), refuses an unanchored write and bash by throwing the reason and the fix, lets a read and hestai’s MCP tools through; anchored, the write passes', () => {
    const repo = adopted(runtime);
    const file = path.join(repo.dir, 'src/app.ts');
    const calls = [
      { tool: 'read', args: { filePath: file } },
      { tool: 'write', args: { filePath: 'src/app.ts', content: 'x' } },
      { tool: 'bash', args: { command: 'echo x > src/app.ts', description: 'd' } },
      { tool: 'hestai_anchor_status', args: {} },
      { tool: 'notes_save_note', args: {} },
    ];
    const first = runPlugin(repo, PLUGINS[runtime], calls);
    const session = /bound to hestai session ([0-9a-f-]{36})/.exec(first.system.join('\n'))?.[1];
    expect(session, first.system.join('\n')).toBeDefined();
    expect(first.env).toEqual({ HESTAI_SESSION: session });
    const [read, write, bash, mcp, other] = first.results;
    expect([read, mcp]).toEqual(['allowed', 'allowed']);
    expect(write).toContain(`hestai: Write blocked: session ${session}`);
    expect(write).toContain('fix: call the MCP tool anchor (hestai_anchor) with {"stage":"identity"');
    expect(bash).toContain(`hestai: Bash blocked: session ${session}`);
    expect(other).toContain('hestai: notes_save_note (a tool hestai does not know');
    anchorSession(repo, session!);
    expect(runPlugin(repo, PLUGINS[runtime], calls.slice(1, 2)).results).toEqual(['allowed']);
    expect(fs.readFileSync(file, 'utf8')).toBe('export const app = 1;\n'); // the hook judged; nothing wrote
  });

  it('attack: a plugin running after ours cannot change the arguments it judged (they are frozen, nested ones too)', () => {
    const repo = adopted(runtime);
    // OpenCode runs its plugins' tool.execute.before one after another on the same args object, then the tool
    // with that object: a later plugin retargets the allowed write at the policy file.
    const script = `
      const [file, dir] = process.argv.slice(1);
      const hooks = await (await import(file)).HestaiHooks({ directory: dir, worktree: dir });
      await hooks['experimental.chat.system.transform']({ sessionID: 'ses_1' }, { system: [] });
      const args = { filePath: 'src/app.ts', edits: [{ filePath: 'src/app.ts', newString: 'x' }] };
      await hooks['tool.execute.before']({ tool: 'multiedit', sessionID: 'ses_1', callID: 'c' }, { args });
      const attempts = [];
      for (const change of [() => (args.filePath = '.hestai_workspace.yaml'), () => (args.edits[0].filePath = '.hestai_workspace.yaml'), () => args.edits.push({ filePath: 'x' })])
        try { change(); attempts.push('changed'); } catch (error) { attempts.push(error.constructor.name); }
      console.log(JSON.stringify({ args, attempts }));`;
    const bind = runPlugin(repo, PLUGINS[runtime], []);
    anchorSession(repo, /bound to hestai session ([0-9a-f-]{36})/.exec(bind.system.join('\n'))![1]!);
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', script, path.join(repo.dir, PLUGINS[runtime]), repo.dir],
      { cwd: repo.dir, env: repo.env, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      args: { filePath: 'src/app.ts', edits: [{ filePath: 'src/app.ts', newString: 'x' }] },
      attempts: ['TypeError', 'TypeError', 'TypeError'],
    });
  });

  it('clocks in no session for Kilo’s title call (`title-<session>`): one agent, one session', () => {
    const repo = adopted(runtime);
    const script = `
      const [file, dir] = process.argv.slice(1);
      const hooks = await (await import(file)).HestaiHooks({ directory: dir, worktree: dir });
      const title = [];
      await hooks['experimental.chat.system.transform']({ sessionID: 'title-ses_1' }, { system: title });
      const system = [];
      await hooks['experimental.chat.system.transform']({ sessionID: 'ses_1' }, { system });
      console.log(JSON.stringify({ title, system }));`;
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', script, path.join(repo.dir, PLUGINS[runtime]), repo.dir],
      { cwd: repo.dir, env: repo.env, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const { title, system } = JSON.parse(run.stdout) as { title: string[]; system: string[] };
    expect(title).toEqual([]);
    expect(system.join('\n')).toContain('bound to hestai session');
    expect(fs.readdirSync(path.join(repo.dir, '.hestai/sessions/bindings', runtime))).toHaveLength(1);
    expect(fs.readdirSync(path.join(repo.dir, '.hestai/sessions/active'))).toHaveLength(1);
  });

  it('fails closed: a plugin whose hook cannot start (the package gone) refuses every call, reads too', () => {
    const repo = adopted(runtime, { dependency: true });
    const text = fs.readFileSync(path.join(repo.dir, PLUGINS[runtime]), 'utf8');
    expect(text).toContain(
      `"node \\"$(git rev-parse --show-toplevel)\\"/node_modules/hestai-hooks/hooks/agent-hook ${runtime} || exit 2"`,
    );
    expect(text).not.toContain(PROJECT_ROOT); // portable: no path of this machine
    fs.rmSync(path.join(repo.dir, 'node_modules/hestai-hooks'));
    const { results } = runPlugin(repo, PLUGINS[runtime], [
      { tool: 'read', args: { filePath: 'src/app.ts' } },
      { tool: 'write', args: { filePath: 'src/app.ts', content: 'x' } },
    ]);
    expect(
      results.every((r) => r !== 'allowed'),
      JSON.stringify(results),
    ).toBe(true);
  });

  it('registers the MCP server in the project config, keeping what is there; a second init changes nothing', () => {
    const repo = makeRepo();
    const config = path.join(repo.dir, `${runtime}.json`);
    repo.write(`${runtime}.json`, JSON.stringify({ mcp: { docs: { type: 'local', command: ['docs'] } }, theme: 'x' }));
    expect(repo.hestai(['init', '--no-husky', '--agent', runtime]).status).toBe(0);
    const first = fs.readFileSync(config, 'utf8');
    const doc = JSON.parse(first);
    expect(Object.keys(doc)[0]).toBe('$schema'); // as the runtime writes it back at start
    expect(doc.theme).toBe('x');
    expect(doc.mcp.docs).toEqual({ type: 'local', command: ['docs'] });
    expect(doc.mcp.hestai).toEqual({
      type: 'local',
      command: ['node', path.join(PROJECT_ROOT, 'dist/cli/bin.js'), 'mcp'],
      enabled: true,
    });
    expect(repo.hestai(['init', '--no-husky', '--agent', runtime]).status).toBe(0);
    expect(fs.readFileSync(config, 'utf8')).toBe(first);
  });
});

describe('Cline’s PreToolUse hook hestai init wrote', () => {
  it('binds the task at its first call (the context reaches the model with an allowed read), answers an unanchored editor or run_commands call with {"cancel": true} and the reason; anchored, the edit passes', () => {
    const repo = adopted('cline');
    const hook = path.join(repo.dir, '.clinerules/hooks/PreToolUse');
    expect(fs.statSync(hook).mode & 0o111).not.toBe(0);
    const read = runCline(repo, 'read_files', { files: [{ path: path.join(repo.dir, 'src/app.ts') }] });
    expect(read.status, read.stderr).toBe(0);
    const context = JSON.parse(read.stdout).contextModification as string;
    const session = /bound to hestai session ([0-9a-f-]{36})/.exec(context)?.[1];
    expect(session, read.stdout).toBeDefined();
    const file = path.join(repo.dir, 'src/app.ts');
    for (const [tool, params, what] of [
      ['editor', { path: file, new_text: 'x' }, 'Edit'],
      ['run_commands', { commands: ['echo x > src/app.ts'] }, 'Bash'],
    ] as const) {
      const refused = runCline(repo, tool, params);
      expect(refused.status).toBe(0); // Cline ignores exit codes
      const answer = JSON.parse(refused.stdout);
      expect(answer.cancel, tool).toBe(true);
      expect(answer.errorMessage).toContain(`hestai: ${what} blocked: session ${session}`);
    }
    anchorSession(repo, session!);
    expect(JSON.parse(runCline(repo, 'editor', { path: file, new_text: 'x' }).stdout)).toEqual({});
  });

  it('fails closed: with no node to start the hook, it answers {"cancel": true}', () => {
    const repo = adopted('cline');
    const bin = path.join(repo.home, 'bin');
    fs.mkdirSync(bin);
    for (const tool of ['git', 'sh']) fs.symlinkSync(whichOf(tool), path.join(bin, tool));
    const run = runCline(repo, 'editor', { path: path.join(repo.dir, 'src/app.ts'), new_text: 'x' }, { PATH: bin });
    expect(JSON.parse(run.stdout)).toMatchObject({ cancel: true });
  });
});

function whichOf(tool: string): string {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
}

describe('doctor checks the agent hooks init wrote', () => {
  it('passes OpenCode’s plugin, warns that Cline’s refusal ends the task, fails a plugin whose hook is gone and a Cline hook that is not executable', () => {
    const repo = adopted('opencode', { dependency: true });
    const doctor = () => {
      const run = repo.hestai(['--json', 'doctor']);
      return (
        JSON.parse(run.stdout).checks as Array<{ name: string; status: string; message: string; remedy?: string }>
      ).find((c) => c.name === 'agent hooks');
    };
    expect(doctor()).toMatchObject({ status: 'pass', message: expect.stringContaining('OpenCode') });
    // a plugin an older hestai wrote (here: without the freeze of the judged arguments) is named; init renews it
    const plugin = path.join(repo.dir, PLUGINS.opencode);
    const current = fs.readFileSync(plugin, 'utf8');
    fs.writeFileSync(plugin, current.replace('const args = freeze(output.args);', 'const args = output.args;'));
    const stale = doctor();
    expect(stale).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('not the plugin this hestai writes'),
    });
    expect((stale as { remedy?: string }).remedy).toContain('npx hestai init --agent <runtime> again (opencode)');
    expect(repo.hestai(['init', '--no-husky', '--agent', 'opencode']).status).toBe(0);
    expect(fs.readFileSync(plugin, 'utf8')).toBe(current);
    expect(doctor()).toMatchObject({ status: 'pass' });
    expect(repo.hestai(['init', '--no-husky', '--agent', 'cline']).status).toBe(0);
    expect(doctor()).toMatchObject({ status: 'warn', message: expect.stringContaining('ends the whole task') });
    fs.chmodSync(path.join(repo.dir, '.clinerules/hooks/PreToolUse'), 0o644);
    expect(doctor()).toMatchObject({ status: 'fail', message: expect.stringContaining('is not executable') });
    fs.chmodSync(path.join(repo.dir, '.clinerules/hooks/PreToolUse'), 0o755);
    fs.rmSync(path.join(repo.dir, 'node_modules/hestai-hooks'));
    expect(doctor()).toMatchObject({ status: 'fail', message: expect.stringContaining('which is missing') });
  });
});

describe('the plugins and hooks are the rules’ own files', () => {
  it('attack: an anchored agent’s write to its own plugin, its config or Cline’s hooks is refused', () => {
    const repo = adopted('opencode');
    expect(repo.hestai(['init', '--no-husky', '--agent', 'cline']).status).toBe(0);
    const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
    const session = JSON.parse(clockIn.stdout).session_id as string;
    anchorSession(repo, session);
    for (const target of [
      '.opencode/plugins/hestai.js',
      'opencode.json',
      '.kilo/plugins/x.js',
      '.clinerules/hooks/PreToolUse',
    ]) {
      const check = repo.hestai(['--json', 'check', 'tool-use'], {
        env: { HESTAI_SESSION: session },
        input: JSON.stringify({ tool: 'Write', paths: [path.join(repo.dir, target)], cwd: repo.dir }),
      });
      expect(JSON.parse(check.stdout).code, target).toBe('PROTECTED_PATH');
    }
  });
});
