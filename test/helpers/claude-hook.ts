import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { tempDir, type RunResult, type TempRepo } from './git-repo.js';

// Claude Code as it runs hooks: the exact command `hestai init --agent claude-code` wrote into
// .claude/settings.json, through `sh -c`, with CLAUDE_PROJECT_DIR and CLAUDE_ENV_FILE set and the
// documented JSON payload on stdin (session_id, cwd, hook_event_name, tool_name, tool_input).

export interface Agent {
  runtimeId: string;
  envFile: string;
}

/** `hestai init --agent <runtime>` for each runtime, GitHub lookups off, committed with src/app.ts. */
export function adoptAgents(repo: TempRepo, runtimes: readonly string[]): void {
  for (const runtime of runtimes) {
    const init = repo.hestai(['init', '--no-husky', '--agent', runtime]);
    expect(init.status, init.stderr).toBe(0);
  }
  fs.appendFileSync(
    path.join(repo.dir, '.hestai_workspace.yaml'),
    'github:\n  issue_search: false\n  pr_context: false\n',
  );
  repo.commit('chore: adopt hestai', { 'src/app.ts': 'export const app = 1;\n' });
}

/** `hestai init --agent claude-code` in the repository, committed; the hook command and the settings. */
export function adoptClaudeCode(repo: TempRepo): { command: string; settings: any } {
  const init = repo.hestai(['init', '--no-husky', '--agent', 'claude-code']);
  expect(init.status, init.stderr).toBe(0);
  fs.appendFileSync(
    path.join(repo.dir, '.hestai_workspace.yaml'),
    'github:\n  issue_search: false\n  pr_context: false\n',
  );
  repo.write('src/app.ts', 'export const app = 1;\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  const settings = JSON.parse(fs.readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8'));
  return { command: settings.hooks.PreToolUse[0].hooks[0].command as string, settings };
}

/** Runs the hook command as Claude Code does, with `payload` (plus session_id and cwd) on stdin. */
export function runClaudeHook(
  repo: TempRepo,
  command: string,
  agent: Agent,
  payload: Record<string, unknown>,
  env: NodeJS.ProcessEnv = {},
): RunResult {
  const result = spawnSync('/bin/sh', ['-c', command], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, CLAUDE_ENV_FILE: agent.envFile, ...env },
    input: JSON.stringify({ session_id: agent.runtimeId, transcript_path: '/dev/null', cwd: repo.dir, ...payload }),
    encoding: 'utf8',
    timeout: 30_000,
  });
  // EPIPE: the command exited before reading its input (it could not start); its exit status still counts.
  if (result.error && (result.error as NodeJS.ErrnoException).code !== 'EPIPE') throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export const preToolUse = (tool_name: string, tool_input: Record<string, unknown>) => ({
  hook_event_name: 'PreToolUse',
  tool_name,
  tool_input,
});
export const bashCall = (command: string) => preToolUse('Bash', { command });
export const sessionStartCall = (source = 'startup') => ({ hook_event_name: 'SessionStart', source });

export function newAgent(name: string): Agent {
  const dir = tempDir('hestai-claude-');
  return { runtimeId: `${name}-0b7c8a52-4a7e-4f00-9d21-${name.length}`, envFile: path.join(dir, 'env') };
}

/** The session the agent's shell sees: the last `export HESTAI_SESSION=` line of its env file. */
export function shellSession(agent: Agent): string {
  const lines = fs.readFileSync(agent.envFile, 'utf8').trim().split('\n');
  const last = lines.filter((l) => l.startsWith('export HESTAI_SESSION=')).pop();
  return last!.slice('export HESTAI_SESSION='.length);
}

/** The whole Odyssean Anchor ceremony through the CLI, as an agent's shell would run it. */
export function anchorSession(repo: TempRepo, token: string): void {
  const dir = tempDir('hestai-payload-');
  const bind = path.join(dir, 'bind.oct');
  const proof = path.join(dir, 'proof.oct');
  fs.writeFileSync(
    bind,
    '## BIND (Identity Lock)\nROLE::implementation-lead\nCOGNITION::LOGOS::ATHENA\nAUTHORITY::RESPONSIBLE[edit-time hooks]\n',
  );
  fs.writeFileSync(
    proof,
    [
      '## TENSION (Cognitive Proof - AGENT GENERATED)',
      'L1::[TDD_MANDATE]<->CTX:src/app.ts:1-1[no test yet]->TRIGGER[commit the failing test first]',
      'L2::[MINIMAL_INTERVENTION]<->CTX:README.md[documents the app]->TRIGGER[keep the contract stable]',
      '## COMMIT (Falsifiable Contract)',
      'ARTIFACT::src/app.ts',
      'GATE::npm test',
      '',
    ].join('\n'),
  );
  for (const args of [
    ['--stage', 'identity', '--role', 'implementation-lead', '--token', token],
    ['--stage', 'context', '--token', token, '--payload-file', bind],
    ['--stage', 'proof', '--token', token, '--payload-file', proof],
  ]) {
    const step = repo.hestai(['--json', 'anchor', ...args]);
    expect(step.status, step.stderr + step.stdout).toBe(0);
  }
}
