import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_RUNTIMES } from '../../src/setup/runtime-settings.js';
import { ADAPTERS } from '../../src/agent/adapters/index.js';
import { pluginCommand } from '../../src/setup/runtime-plugins.js';
import { adoptAgents } from '../helpers/claude-hook.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';

// One decision, many adapters (issue 29, item 5): every runtime's hook, as `hestai init --agent <runtime>`
// writes it, and `hestai check tool-use` answer the same tool call with the same decision (the same
// reason and fix lines), and no adapter carries a rule of its own.

function commandsOf(repo: TempRepo): Record<string, string> {
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(repo.dir, file), 'utf8'));
  return {
    'claude-code': read('.claude/settings.json').hooks.PreToolUse[0].hooks[0].command,
    codex: read('.codex/hooks.json').hooks.PreToolUse[0].hooks[0].command,
    gemini: read('.gemini/settings.json').hooks.BeforeTool[0].hooks[0].command,
    cursor: read('.cursor/hooks.json').hooks.beforeShellExecution[0].command,
    copilot: read('.github/hooks/hestai.json').hooks.preToolUse[0].bash,
    qwen: read('.qwen/settings.json').hooks.PreToolUse[0].hooks[0].command,
    droid: read('.factory/hooks.json').hooks.PreToolUse[0].hooks[0].command,
    // the command hestai's plugin runs (its COMMAND), and Cline's executable hook itself
    opencode: pluginCommand(fs.readFileSync(path.join(repo.dir, '.opencode/plugins/hestai.js'), 'utf8'))!,
    kilo: pluginCommand(fs.readFileSync(path.join(repo.dir, '.kilo/plugins/hestai.js'), 'utf8'))!,
    cline: './.clinerules/hooks/PreToolUse',
  };
}

/** The same call, `echo 2 > src/app.ts`, in each runtime's payload. */
function payloads(repo: TempRepo): Record<string, Record<string, unknown>> {
  const command = 'echo 2 > src/app.ts';
  const claude = { session_id: 'rt-1', cwd: repo.dir, tool_name: 'Bash', tool_input: { command } };
  const opencode = {
    hook_event_name: 'tool.execute.before',
    input: { tool: 'bash', sessionID: 'rt-1', callID: 'c-1' },
    output: { args: { command, description: 'd' } },
  };
  return {
    'claude-code': { ...claude, hook_event_name: 'PreToolUse' },
    codex: { ...claude, hook_event_name: 'PreToolUse', turn_id: 't-1' },
    gemini: { ...claude, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command' },
    cursor: {
      hook_event_name: 'beforeShellExecution',
      conversation_id: 'rt-1',
      workspace_roots: [repo.dir],
      command,
      cwd: repo.dir,
    },
    copilot: { sessionId: 'rt-1', timestamp: 1, cwd: repo.dir, toolName: 'bash', toolArgs: { command } },
    qwen: { ...claude, hook_event_name: 'PreToolUse', tool_name: 'run_shell_command' },
    droid: { ...claude, hook_event_name: 'PreToolUse', tool_name: 'Execute' },
    // what hestai's plugin sends: OpenCode's tool.execute.before(input, output)
    opencode: opencode,
    kilo: opencode,
    cline: {
      taskId: 'rt-1',
      hookName: 'tool_call',
      workspaceRoots: [repo.dir],
      preToolUse: { toolName: 'run_commands', parameters: { commands: [command] } },
    },
  };
}

/**
 * hestai's anchor tool as each runtime calls it, which its refusals name: Claude Code and Codex name an MCP
 * tool `mcp__<server>__<tool>`, Gemini CLI `mcp_<server>_<tool>`, Copilot CLI `<server>-<tool>`; Cursor gives it no fixed name (its
 * servers are prefixed per project), so the refusal names the server.
 */
const ANCHOR_TOOL: Record<string, string> = {
  'claude-code': 'mcp__hestai__anchor',
  codex: 'mcp__hestai__anchor',
  gemini: 'mcp_hestai_anchor',
  cursor: 'of the hestai server',
  copilot: 'hestai-anchor',
  qwen: 'mcp__hestai__anchor',
  droid: 'mcp__hestai__anchor',
  opencode: 'hestai_anchor',
  kilo: 'hestai_anchor',
  cline: 'of the hestai server',
};

/** The `hestai: ... blocked` and `fix:` lines of a refusal, wherever the runtime's answer carries them. */
function refusal(stdout: string, stderr: string): string {
  const json = stdout.trim().startsWith('{') ? JSON.parse(stdout) : {};
  const text = json.agent_message ?? json.permissionDecisionReason ?? stderr;
  return text
    .split('\n')
    .filter((l: string) => l.startsWith('hestai: ') || l.startsWith('fix: '))
    .join('\n');
}

describe('one decision, many adapters', () => {
  it('every runtime has an adapter, and no adapter imports a rule (decide, shell, protected paths)', () => {
    expect(Object.keys(ADAPTERS).sort()).toEqual([...AGENT_RUNTIMES].sort());
    const dir = path.join(PROJECT_ROOT, 'src/agent/adapters');
    for (const file of fs.readdirSync(dir)) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      expect(source, file).not.toMatch(/from '\.\.\/(decide|shell|protected)\.js'/);
    }
  });

  it('each runtime’s hook and hestai check tool-use refuse the same call with the same reason and fix, the anchor tool named as that runtime calls it', () => {
    const repo = makeRepo();
    adoptAgents(repo, AGENT_RUNTIMES);
    const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead']);
    expect(clockIn.status, clockIn.stderr).toBe(0);
    const session = JSON.parse(clockIn.stdout).session_id as string;
    const env = { ...repo.env, HESTAI_SESSION: session };

    const generic = repo.hestai(['check', 'tool-use', '--deny-exit', '2'], {
      env: { HESTAI_SESSION: session },
      input: JSON.stringify({ tool: 'Bash', command: 'echo 2 > src/app.ts', cwd: repo.dir }),
    });
    expect(generic.status).toBe(2);
    const expected = refusal('', generic.stderr);
    expect(expected).toContain(`hestai: Bash blocked: session ${session}`);

    const commands = commandsOf(repo);
    for (const [runtime, payload] of Object.entries(payloads(repo))) {
      const run = spawnSync('sh', ['-c', commands[runtime]!], {
        cwd: repo.dir,
        env,
        input: JSON.stringify(payload),
        encoding: 'utf8',
      });
      expect(refusal(run.stdout, run.stderr), runtime).toBe(
        expected.replace('anchor (mcp__hestai__anchor)', `anchor (${ANCHOR_TOOL[runtime]})`),
      );
    }
    expect(fs.readFileSync(path.join(repo.dir, 'src/app.ts'), 'utf8')).toBe('export const app = 1;\n');
  });
});
