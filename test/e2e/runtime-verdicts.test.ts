import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentRuntime } from '../../src/setup/runtime-settings.js';
import { AGENT_RUNTIMES } from '../../src/setup/runtime-settings.js';
import { pluginCommand } from '../../src/setup/runtime-plugins.js';
import { adoptAgents } from '../helpers/claude-hook.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { eachSituation, SITUATIONS, type Situation } from '../helpers/verdict-situations.js';

// Issue 42, item 4: the same verdict, proven for every runtime. The eight situations of one verdict (issue 37,
// item 4; test/helpers/verdict-situations.ts) are fed, as the same write of src/app.ts in each runtime's own
// payload, to the hook `hestai init --agent <runtime>` wrote, run as the runtime runs it. Every runtime must
// allow or refuse as the verdict says, with the same reason code (the `verdict:` line of its refusal, wherever
// the runtime's answer carries the text). The runtime session is bound to none: HESTAI_SESSION names the
// agent's session, as for an agent started outside its runtime's SessionStart.

/** One runtime's hook as its runtime runs it: the command init wrote, a write of `file`, and its answer. */
interface Row {
  command(read: (file: string) => any): string;
  write(repo: TempRepo, file: string): Record<string, unknown>;
  /** Allowed, and the text the model reads. */
  answer(status: number | null, stdout: string, stderr: string): { allowed: boolean; text: string };
}

const exit2 = (status: number | null, _stdout: string, stderr: string) => ({ allowed: status === 0, text: stderr });
const claude = (repo: TempRepo) => ({ session_id: 'rt-unbound', transcript_path: '/dev/null', cwd: repo.dir });
const edit = (file: string) => ({ file_path: file, old_string: 'app = 1', new_string: 'app = 2' });

let task = 0;
/** What hestai's plugin sends for OpenCode's and Kilo Code's `edit` (their tool.execute.before(input, output)). */
const plugin: Row = {
  command: () => '',
  write: (_repo, file) => ({
    hook_event_name: 'tool.execute.before',
    input: { tool: 'edit', sessionID: 'rt-unbound', callID: 'call_1' },
    output: { args: { filePath: file, oldString: 'app = 1', newString: 'app = 2' } },
  }),
  answer: exit2,
};
/** Every runtime's row (a new runtime adds its own: the table is typed by AGENT_RUNTIMES). */
const ROWS: Record<AgentRuntime, Row> = {
  'claude-code': {
    command: (read) => read('.claude/settings.json').hooks.PreToolUse[0].hooks[0].command,
    write: (repo, file) => ({
      ...claude(repo),
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: edit(file),
    }),
    answer: exit2,
  },
  codex: {
    command: (read) => read('.codex/hooks.json').hooks.PreToolUse[0].hooks[0].command,
    write: (repo, file) => ({
      ...claude(repo),
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: `*** Begin Patch\n*** Update File: ${file}\n-app = 1\n+app = 2\n*** End Patch\n` },
    }),
    answer: exit2,
  },
  gemini: {
    command: (read) => read('.gemini/settings.json').hooks.BeforeTool[0].hooks[0].command,
    write: (repo, file) => ({
      ...claude(repo),
      hook_event_name: 'BeforeTool',
      tool_name: 'replace',
      tool_input: edit(file),
    }),
    answer: exit2,
  },
  // Cursor's edits are told after the fact (afterFileEdit): its shell call is the one it asks before
  cursor: {
    command: (read) => read('.cursor/hooks.json').hooks.beforeShellExecution[0].command,
    write: (repo) => ({
      hook_event_name: 'beforeShellExecution',
      conversation_id: 'rt-unbound',
      workspace_roots: [repo.dir],
      command: 'echo "export const app = 2;" > src/app.ts',
      cwd: repo.dir,
    }),
    answer: (_status, stdout) => {
      const json = JSON.parse(stdout);
      return { allowed: json.permission === 'allow', text: json.agent_message ?? '' };
    },
  },
  copilot: {
    command: (read) => read('.github/hooks/hestai.json').hooks.preToolUse[0].bash,
    write: (repo, file) => ({
      sessionId: 'rt-unbound',
      timestamp: 1,
      cwd: repo.dir,
      toolName: 'edit',
      toolArgs: { path: file, old_str: 'app = 1', new_str: 'app = 2' },
    }),
    answer: (status, stdout) => {
      const json = stdout.trim() === '' ? {} : JSON.parse(stdout);
      return { allowed: status === 0 && json.permissionDecision !== 'deny', text: json.permissionDecisionReason ?? '' };
    },
  },
  qwen: {
    command: (read) => read('.qwen/settings.json').hooks.PreToolUse[0].hooks[0].command,
    write: (repo, file) => ({
      ...claude(repo),
      hook_event_name: 'PreToolUse',
      tool_name: 'edit',
      tool_input: edit(file),
    }),
    answer: exit2,
  },
  droid: {
    command: (read) => read('.factory/hooks.json').hooks.PreToolUse[0].hooks[0].command,
    write: (repo, file) => ({
      ...claude(repo),
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: edit(file),
    }),
    answer: exit2,
  },
  opencode: { ...plugin, command: (read) => pluginCommand(read('.opencode/plugins/hestai.js'))! },
  kilo: { ...plugin, command: (read) => pluginCommand(read('.kilo/plugins/hestai.js'))! },
  // Cline's executable hook; its answer is JSON on stdout (it ignores exit codes). A new task each call: Cline
  // binds a task at its first call, clocking it in when no session is pinned.
  cline: {
    command: () => './.clinerules/hooks/PreToolUse',
    write: (repo, file) => ({
      taskId: `task-${++task}`,
      hookName: 'tool_call',
      workspaceRoots: [repo.dir],
      preToolUse: { toolName: 'editor', parameters: { path: file, old_text: 'app = 1', new_text: 'app = 2' } },
    }),
    answer: (_status, stdout) => {
      const json = JSON.parse(stdout);
      return { allowed: json.cancel !== true, text: json.errorMessage ?? '' };
    },
  },
};

/**
 * Where a runtime cannot be in a situation, what it answers instead: a Cline task is never without a session
 * (its first call clocks in, TaskStart running detached), so "no session" is refused as clocked in.
 */
const INSTEAD: Partial<Record<Situation, Partial<Record<AgentRuntime, string>>>> = {
  'no session': { cline: 'NO_ANCHOR' },
};

/** The code a runtime's answer gives: UNLOCKED when allowed, else its refusal's `verdict:` line. */
function verdictOf(row: Row, command: string, repo: TempRepo, session: string | null): string {
  const run = spawnSync('sh', ['-c', command], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, ...(session === null ? {} : { HESTAI_SESSION: session }) },
    input: JSON.stringify(row.write(repo, path.join(repo.dir, 'src/app.ts'))),
    encoding: 'utf8',
  });
  const { allowed, text } = row.answer(run.status, run.stdout, run.stderr);
  if (allowed) return 'UNLOCKED';
  return /^verdict: ([A-Z_]+)$/m.exec(text)?.[1] ?? `(refused with no verdict line: ${text}${run.stderr})`;
}

describe('the same verdict through every runtime’s hook (issue 42, item 4)', () => {
  it('every runtime allows or refuses the same write in each of the eight situations, with the same reason code', async () => {
    const repo = makeRepo();
    adoptAgents(repo, AGENT_RUNTIMES);
    const read = (file: string) => {
      const text = fs.readFileSync(path.join(repo.dir, file), 'utf8');
      return file.endsWith('.json') ? JSON.parse(text) : text;
    };
    const commands = Object.fromEntries(AGENT_RUNTIMES.map((r) => [r, ROWS[r].command(read)]));
    const seen: Record<string, Record<string, string>> = {};
    await eachSituation(
      repo,
      () => {
        const run = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
        expect(run.status, run.stderr).toBe(0);
        return JSON.parse(run.stdout).session_id as string;
      },
      (situation: Situation, session) => {
        seen[situation] = Object.fromEntries(
          AGENT_RUNTIMES.map((r) => [r, verdictOf(ROWS[r], commands[r]!, repo, session)]),
        );
      },
    );
    const expected = Object.fromEntries(
      Object.entries(SITUATIONS).map(([situation, code]) => [
        situation,
        Object.fromEntries(AGENT_RUNTIMES.map((r) => [r, INSTEAD[situation as Situation]?.[r] ?? code])),
      ]),
    );
    expect(seen).toEqual(expected);
    expect(fs.readFileSync(path.join(repo.dir, 'src/app.ts'), 'utf8')).toBe('export const app = 1;\n');
  });
});
