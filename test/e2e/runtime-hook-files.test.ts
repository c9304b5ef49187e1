import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorSession } from '../helpers/claude-hook.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';

// Issue 42, item 1: `hestai init --agent copilot|qwen|droid` writes each runtime's own project hook file, and
// the command it wrote, fed the payloads the runtimes send (../shared/runtimes/payloads: Copilot CLI 1.0.102,
// Qwen Code 0.15.10, Factory Droid 0.225; Droid's package is UNLICENSED, so it is tested through these only),
// goes through the one decision: refused before the anchor with the reason where the model reads it, allowed
// after, the hook file itself never an agent's to write, and blocking when the hook cannot start.

type Runtime = 'copilot' | 'qwen' | 'droid';

/** Where each runtime reads hestai's pre-tool hook, and the command init wrote there. */
const FILES: Record<Runtime, { file: string; command: (doc: any) => string; events: (doc: any) => string[] }> = {
  copilot: {
    file: '.github/hooks/hestai.json',
    command: (doc) => doc.hooks.preToolUse[0].bash,
    events: (doc) => Object.keys(doc.hooks),
  },
  qwen: {
    file: '.qwen/settings.json',
    command: (doc) => doc.hooks.PreToolUse[0].hooks[0].command,
    events: (doc) => Object.keys(doc.hooks),
  },
  droid: {
    file: '.factory/hooks.json',
    command: (doc) => doc.hooks.PreToolUse[0].hooks[0].command,
    events: (doc) => Object.keys(doc.hooks),
  },
};

/** A write of `file` as each runtime's pre-tool hook receives it (Copilot's `create`, Qwen's `write_file`, Droid's `Create`). */
function writeCall(runtime: Runtime, repo: TempRepo, file: string): Record<string, unknown> {
  const content = 'written by the scripted model\n';
  const claude = { session_id: 'rt-0b7c', transcript_path: '/dev/null', cwd: repo.dir, hook_event_name: 'PreToolUse' };
  switch (runtime) {
    case 'copilot':
      return {
        sessionId: 'rt-0b7c',
        timestamp: 1,
        cwd: repo.dir,
        toolName: 'create',
        toolArgs: { path: file, file_text: content },
      };
    case 'qwen':
      return { ...claude, permission_mode: 'yolo', tool_name: 'write_file', tool_input: { file_path: file, content } };
    case 'droid':
      return { ...claude, permission_mode: 'auto-high', tool_name: 'Create', tool_input: { file_path: file, content } };
  }
}

/** `hestai init --agent <runtime>` and src/app.ts, committed; the pre-tool command init wrote. */
function adopt(runtime: Runtime, repo: TempRepo = makeRepo()): { repo: TempRepo; command: string; doc: any } {
  const init = repo.hestai(['init', '--no-husky', '--agent', runtime]);
  expect(init.status, init.stderr).toBe(0);
  fs.appendFileSync(
    path.join(repo.dir, '.hestai_workspace.yaml'),
    'github:\n  issue_search: false\n  pr_context: false\n',
  );
  repo.write('src/app.ts', 'export const app = 1;\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  const doc = JSON.parse(fs.readFileSync(path.join(repo.dir, FILES[runtime].file), 'utf8'));
  return { repo, command: FILES[runtime].command(doc), doc };
}

/** Runs the command as the runtime does (from the project, `sh -c`, the payload on stdin): allowed, and the text the model reads. */
function hook(runtime: Runtime, repo: TempRepo, command: string, payload: object, env: NodeJS.ProcessEnv = {}) {
  const run = spawnSync('sh', ['-c', command], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, ...env },
    input: JSON.stringify(payload),
    encoding: 'utf8',
  });
  if (runtime !== 'copilot') return { allowed: run.status === 0, text: run.stderr, status: run.status };
  const answer = run.stdout.trim() === '' ? {} : JSON.parse(run.stdout);
  return {
    allowed: run.status === 0 && answer.permissionDecision !== 'deny',
    text: answer.permissionDecisionReason ?? run.stderr,
    status: run.status,
  };
}

const RUNTIMES: Runtime[] = ['copilot', 'qwen', 'droid'];
const ANCHOR_TOOL: Record<Runtime, string> = {
  copilot: 'hestai-anchor',
  qwen: 'mcp__hestai__anchor',
  droid: 'mcp__hestai__anchor',
};

describe('hestai init --agent copilot, qwen and droid (issue 42)', () => {
  it('writes each runtime’s own hook file (Copilot: version 1, preToolUse with timeoutSec; Qwen: its MCP server too; Droid: .factory/mcp.json); a second run changes nothing', () => {
    for (const runtime of RUNTIMES) {
      const { repo, doc } = adopt(runtime);
      const first = fs.readFileSync(path.join(repo.dir, FILES[runtime].file), 'utf8');
      if (runtime === 'copilot') {
        expect(doc.version).toBe(1);
        expect(FILES.copilot.events(doc)).toEqual(['sessionStart', 'preToolUse']);
        expect(doc.hooks.preToolUse[0]).toMatchObject({ type: 'command', timeoutSec: 10 });
        expect(doc.hooks.preToolUse[0].bash).toMatch(/agent-hook' copilot preToolUse \|\| exit 2$/);
        expect(doc.hooks.sessionStart[0].bash).toMatch(/agent-hook' copilot sessionStart \|\| exit 2$/);
      } else expect(FILES[runtime].events(doc)).toEqual(['SessionStart', 'PreToolUse', 'Stop']);
      if (runtime === 'qwen')
        expect(doc.mcpServers.hestai.args).toEqual([path.join(PROJECT_ROOT, 'dist/cli/bin.js'), 'mcp']);
      if (runtime === 'droid')
        expect(
          JSON.parse(fs.readFileSync(path.join(repo.dir, '.factory/mcp.json'), 'utf8')).mcpServers.hestai,
        ).toBeTruthy();
      expect(repo.hestai(['init', '--no-husky', '--agent', runtime]).status).toBe(0);
      expect(fs.readFileSync(path.join(repo.dir, FILES[runtime].file), 'utf8'), runtime).toBe(first);
    }
  });

  it('prints what the runtime cannot promise: Copilot runs hooks only in a trusted folder, Qwen fires no SessionStart headless', () => {
    const copilot = makeRepo().hestai(['init', '--no-husky', '--agent', 'copilot']);
    expect(copilot.stdout + copilot.stderr).toContain('only in a folder you trust (copilot --trust-folder');
    const qwen = makeRepo().hestai(['init', '--no-husky', '--agent', 'qwen']);
    expect(qwen.stdout + qwen.stderr).toContain('Qwen Code fires no SessionStart hook headless (qwen -p)');
  });

  it.each(RUNTIMES)(
    '%s: the documented write payload is refused before the anchor with the reason where the model reads it, allowed after; the hook file itself is never an agent’s to write',
    (runtime) => {
      const { repo, command } = adopt(runtime);
      const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
      expect(clockIn.status, clockIn.stderr).toBe(0);
      const session = JSON.parse(clockIn.stdout).session_id as string;
      const env = { HESTAI_SESSION: session };
      const app = path.join(repo.dir, 'src/app.ts');
      const refused = hook(runtime, repo, command, writeCall(runtime, repo, app), env);
      expect(refused.allowed).toBe(false);
      expect(refused.text).toContain(`hestai: Write blocked: session ${session}`);
      expect(refused.text).toContain(`fix: call the MCP tool anchor (${ANCHOR_TOOL[runtime]})`);
      anchorSession(repo, session);
      const allowed = hook(runtime, repo, command, writeCall(runtime, repo, app), env);
      expect(allowed, allowed.text).toMatchObject({ allowed: true, status: 0 });
      const own = hook(runtime, repo, command, writeCall(runtime, repo, path.join(repo.dir, FILES[runtime].file)), env);
      expect(own.allowed).toBe(false);
      expect(own.text).toContain('which agents never write');
    },
  );

  it.each(RUNTIMES)(
    '%s: with hestai-hooks as the project’s dependency the command names no path of this machine, and in a clone without it installed the write is refused',
    (runtime) => {
      const repo = makeRepo();
      fs.mkdirSync(path.join(repo.dir, 'node_modules'));
      fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
      const { command } = adopt(runtime, repo);
      const text = fs.readFileSync(path.join(repo.dir, FILES[runtime].file), 'utf8');
      expect(text).not.toContain(PROJECT_ROOT);
      expect(text).not.toContain(repo.dir);
      expect(command).toContain('"$(git rev-parse --show-toplevel)"/node_modules/hestai-hooks/hooks/agent-hook');
      fs.rmSync(path.join(repo.dir, 'node_modules'), { recursive: true });
      const refused = hook(runtime, repo, command, writeCall(runtime, repo, path.join(repo.dir, 'src/app.ts')));
      expect(refused.status).toBe(2);
      expect(refused.allowed).toBe(false);
    },
  );

  it('droid: the documented SessionStart binds and clocks in, exports HESTAI_SESSION through CLAUDE_ENV_FILE and tells the model the next step', () => {
    const { repo, doc } = adopt('droid');
    const envFile = path.join(repo.home, 'droid-env');
    const start = spawnSync('sh', ['-c', doc.hooks.SessionStart[0].hooks[0].command], {
      cwd: repo.dir,
      env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, FACTORY_PROJECT_DIR: repo.dir, CLAUDE_ENV_FILE: envFile },
      input: JSON.stringify({
        session_id: '0b14ef4b-289f-4376-8ff5-819a167b83c0',
        transcript_path: '/dev/null',
        cwd: repo.dir,
        permission_mode: 'off',
        hook_event_name: 'SessionStart',
        source: 'startup',
        CLAUDE_ENV_FILE: envFile,
      }),
      encoding: 'utf8',
    });
    expect(start.status, start.stderr).toBe(0);
    const session = /^export HESTAI_SESSION=(\S+)$/m.exec(fs.readFileSync(envFile, 'utf8'))?.[1];
    expect(start.stdout).toContain(`this Factory Droid session is bound to hestai session ${session}`);
    expect(start.stdout).toContain('call the MCP tool anchor (mcp__hestai__anchor)');
    const binding = path.join(repo.dir, '.hestai/sessions/bindings/droid/0b14ef4b-289f-4376-8ff5-819a167b83c0.json');
    expect(JSON.parse(fs.readFileSync(binding, 'utf8')).session_id).toBe(session);
  });
});

describe('hestai doctor checks the hook files of copilot, qwen and droid (issue 42)', () => {
  it('says Copilot’s and Qwen’s limits as warnings, passes Droid’s file, and fails a file whose pre-tool hook is gone', () => {
    const doctor = (repo: TempRepo) => {
      const run = repo.hestai(['--json', 'doctor']);
      return (JSON.parse(run.stdout).checks as Array<{ name: string; status: string; message: string }>).find(
        (c) => c.name === 'agent hooks',
      );
    };
    const expected: Record<Runtime, { status: string; says: string }> = {
      copilot: { status: 'warn', says: 'only in a folder you trust (copilot --trust-folder' },
      qwen: { status: 'warn', says: 'fires no SessionStart hook headless (qwen -p)' },
      droid: { status: 'pass', says: 'Factory Droid' },
    };
    for (const runtime of RUNTIMES) {
      const { repo, doc } = adopt(runtime);
      expect(doctor(repo), runtime).toMatchObject({
        status: expected[runtime].status,
        message: expect.stringContaining(expected[runtime].says),
      });
      // the pre-tool hook dropped from the file, its other hooks kept
      if (runtime === 'copilot') doc.hooks.preToolUse = [];
      else doc.hooks.PreToolUse = [];
      fs.writeFileSync(path.join(repo.dir, FILES[runtime].file), JSON.stringify(doc, null, 2));
      expect(doctor(repo), runtime).toMatchObject({
        status: 'fail',
        message: expect.stringContaining(`${FILES[runtime].file} does not run hestai's hook`),
      });
    }
  });
});
