import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorSession } from '../helpers/claude-hook.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';

// Cursor (issue 29): its program cannot run here (an editor, not an npm package), so the exact commands
// `hestai init --agent cursor` writes into .cursor/hooks.json are run through `sh -c` with the payloads its
// hooks documentation gives (common fields hook_event_name, conversation_id, generation_id,
// workspace_roots; beforeShellExecution's command and cwd; beforeMCPExecution's tool_name, tool_input and
// the server's command; beforeReadFile's file_path; afterFileEdit's file_path and edits; stop's status and
// loop_count) and the answers it documents (permission allow/deny with user_message and agent_message;
// sessionStart's additional_context; stop's followup_message).

const CONVERSATION = 'c0ffee00-1234-4abc-8def-000000000001';

function adopted(): { repo: TempRepo; hooks: Record<string, { command: string }[]> } {
  const repo = makeRepo();
  const init = repo.hestai(['init', '--no-husky', '--agent', 'cursor']);
  expect(init.status, init.stderr).toBe(0);
  fs.appendFileSync(
    path.join(repo.dir, '.hestai_workspace.yaml'),
    'github:\n  issue_search: false\n  pr_context: false\n',
  );
  repo.write('src/app.ts', 'export const app = 1;\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  const file = JSON.parse(fs.readFileSync(path.join(repo.dir, '.cursor/hooks.json'), 'utf8'));
  expect(file.version).toBe(1);
  return { repo, hooks: file.hooks };
}

/** Cursor runs the hook command of `event` with the JSON payload on stdin, from the workspace root. */
function cursor(repo: TempRepo, hooks: Record<string, { command: string }[]>, payload: Record<string, unknown>) {
  const event = payload['hook_event_name'] as string;
  const command = hooks[event]?.[0]?.command;
  expect(command, `hooks.${event}`).toBeTruthy();
  const result = spawnSync('sh', ['-c', command!], {
    cwd: repo.dir,
    env: repo.env,
    input: JSON.stringify({
      conversation_id: CONVERSATION,
      generation_id: 'gen-1',
      workspace_roots: [repo.dir],
      cursor_version: '1.7.0',
      ...payload,
    }),
    encoding: 'utf8',
  });
  const out = result.stdout.trim();
  return { status: result.status, stdout: out, json: out === '' ? null : JSON.parse(out), stderr: result.stderr };
}

const shell = (repo: TempRepo, command: string) => ({
  hook_event_name: 'beforeShellExecution',
  command,
  cwd: repo.dir,
});

describe('hestai init --agent cursor: its hooks answer Cursor’s documented payloads', () => {
  it('writes .cursor/hooks.json with the agent events, keeping other hooks, idempotently', () => {
    const repo = makeRepo();
    repo.write(
      '.cursor/hooks.json',
      JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: 'prettier --write' }] } }),
    );
    expect(repo.hestai(['init', '--no-husky', '--agent', 'cursor']).status).toBe(0);
    const text = fs.readFileSync(path.join(repo.dir, '.cursor/hooks.json'), 'utf8');
    const hooks = JSON.parse(text).hooks;
    for (const event of [
      'sessionStart',
      'beforeShellExecution',
      'beforeMCPExecution',
      'beforeReadFile',
      'afterFileEdit',
      'stop',
    ])
      expect(hooks[event].at(-1).command).toBe(
        `node '${path.join(PROJECT_ROOT, 'hooks/agent-hook')}' cursor || exit 2`,
      );
    expect(hooks.afterFileEdit[0]).toEqual({ command: 'prettier --write' });
    expect(repo.hestai(['init', '--no-husky', '--agent', 'cursor']).status).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.cursor/hooks.json'), 'utf8')).toBe(text);
  });

  it('binds at sessionStart, denies an unanchored shell command with the anchor step, allows reads and hestai’s MCP tools, audits an edit it could not stop, and allows after the anchor', () => {
    const { repo, hooks } = adopted();
    const start = cursor(repo, hooks, { hook_event_name: 'sessionStart' });
    expect(start.status, start.stderr).toBe(0);
    const binding = JSON.parse(
      fs.readFileSync(path.join(repo.dir, `.hestai/sessions/bindings/cursor/${CONVERSATION}.json`), 'utf8'),
    );
    const session = binding.session_id as string;
    expect(start.json.additional_context).toContain(`bound to hestai session ${session}`);

    const denied = cursor(repo, hooks, shell(repo, 'echo "export const app = 2;" > src/app.ts'));
    expect(denied.status, denied.stderr).toBe(0);
    expect(denied.json.permission).toBe('deny');
    expect(denied.json.agent_message).toContain(`hestai: Bash blocked: session ${session}`);
    expect(denied.json.agent_message).toContain('fix: call the MCP tool anchor');
    expect(denied.json.user_message).toContain('hestai:');

    expect(cursor(repo, hooks, shell(repo, 'cat src/app.ts')).json.permission).toBe('deny'); // issue 37: reads use the read tools
    const read = cursor(repo, hooks, {
      hook_event_name: 'beforeReadFile',
      file_path: path.join(repo.dir, 'src/app.ts'),
      content: 'x',
    });
    expect(read.json.permission).toBe('allow');
    const server = `node ${path.join(PROJECT_ROOT, 'dist/cli/bin.js')} mcp`;
    const ours = cursor(repo, hooks, {
      hook_event_name: 'beforeMCPExecution',
      tool_name: 'anchor_status',
      tool_input: JSON.stringify({ working_dir: repo.dir }),
      command: server,
    });
    expect(ours.json.permission).toBe('allow');
    const theirs = cursor(repo, hooks, {
      hook_event_name: 'beforeMCPExecution',
      tool_name: 'write_row',
      tool_input: { query: 'INSERT' },
      command: 'npx some-db-server',
    });
    expect(theirs.json.permission).toBe('deny');

    const edited = cursor(repo, hooks, {
      hook_event_name: 'afterFileEdit',
      file_path: path.join(repo.dir, 'src/app.ts'),
      edits: [{ old_string: 'app = 1', new_string: 'app = 2' }],
    });
    expect(edited.status).toBe(0); // after the fact: Cursor cannot be told no
    const audit = fs.readFileSync(path.join(repo.dir, '.hestai/audit/audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"event":"agent_tool_refused"[^\n]*"runtime":"cursor"[^\n]*"what":"Edit"/);

    anchorSession(repo, session);
    expect(cursor(repo, hooks, shell(repo, 'echo "export const app = 2;" > src/app.ts')).json.permission).toBe('allow');
  });
});
