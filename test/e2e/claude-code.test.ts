import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import {
  anchorSession as anchor,
  bashCall as bash,
  newAgent,
  runClaudeHook as claude,
  sessionStartCall as sessionStart,
  shellSession,
  type Agent,
} from '../helpers/claude-hook.js';
import { isolatedEnv, makeRepo, PROJECT_ROOT, sharedFixture, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Claude Code as it runs hooks: the exact command `hestai init --agent claude-code` wrote into
// .claude/settings.json, through `sh -c`, with CLAUDE_PROJECT_DIR and CLAUDE_ENV_FILE set and the
// documented JSON payload on stdin (session_id, cwd, hook_event_name, tool_name, tool_input). Exit 2
// blocks a tool call and its stderr is what the model reads; the env file is sourced by the agent's shell.

function adopt(repo: TempRepo): { command: string; settings: any } {
  const init = repo.hestai(['init', '--no-husky', '--agent', 'claude-code']);
  expect(init.status, init.stderr).toBe(0);
  const config = path.join(repo.dir, '.hestai_workspace.yaml');
  fs.appendFileSync(config, 'github:\n  issue_search: false\n  pr_context: false\n');
  repo.write('src/app.ts', 'export const app = 1;\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  const settings = JSON.parse(fs.readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8'));
  const pre = settings.hooks.PreToolUse.find((g: any) => g.matcher === '*');
  const start = settings.hooks.SessionStart[0];
  expect(pre.hooks[0].command).toBe(start.hooks[0].command);
  return { command: pre.hooks[0].command, settings };
}

// A repository adopted for Claude Code: built once, each test that starts there gets its own copy.
const adopted = sharedFixture(() => {
  const repo = makeRepo();
  return { repo, ...adopt(repo) };
});

const edit = (repo: TempRepo, file: string) => ({
  hook_event_name: 'PreToolUse',
  tool_name: 'Edit',
  tool_input: { file_path: path.join(repo.dir, file), old_string: 'a', new_string: 'b' },
});

describe('hestai init --agent claude-code', () => {
  it('merges the hooks into .claude/settings.json keeping what is there, idempotently, and registers the MCP server', () => {
    const repo = makeRepo();
    const existing = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] }] },
    };
    repo.write('.claude/settings.json', JSON.stringify(existing));
    const { command, settings } = adopt(repo);
    expect(command).toBe(`node '${path.join(PROJECT_ROOT, 'hooks/claude-code')}' || exit 2`);
    expect(settings.permissions).toEqual(existing.permissions);
    expect(settings.hooks.PostToolUse).toEqual(existing.hooks.PostToolUse);
    expect(settings.hooks.PreToolUse[0].matcher).toBe('*');
    expect(JSON.parse(fs.readFileSync(path.join(repo.dir, '.mcp.json'), 'utf8')).mcpServers.hestai.command).toBe(
      'node',
    );
    const before = fs.readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8');
    const again = repo.hestai(['init', '--no-husky', '--agent', 'claude-code']);
    expect(again.status, again.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8')).toBe(before);
  });

  it('refuses a settings file that is not a JSON object and leaves it unchanged; plain init only hints', () => {
    const repo = makeRepo();
    repo.write('.claude/settings.json', '["not", "an object"]\n');
    const refused = repo.hestai(['init', '--no-husky', '--agent', 'claude-code']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${path.join(repo.dir, '.claude/settings.json')}: not a JSON object`);
    expect(fs.readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8')).toBe('["not", "an object"]\n');
    const plain = repo.hestai(['init', '--no-husky']);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('hint: .claude/ found: run hestai init --agent claude-code');
    expect(repo.hestai(['init', '--agent', 'windsurf']).stderr).toContain('unknown agent runtime "windsurf"');
  });
});

describe('Claude Code hooks, run as Claude Code runs them', () => {
  it('blocks an edit until the session is anchored, then allows it; reads are never blocked', () => {
    const { repo, command } = adopted();
    const agent = newAgent('solo');

    const unbound = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(unbound.status).toBe(2);
    expect(unbound.stderr).toContain('hestai: Edit blocked: this agent has no hestai session');
    // The fix is a plain command the agent may run before its anchor (issue 37): the hook binds a session.
    const rebind = /Bind one now by running that step: (.*)$/m.exec(unbound.stderr)?.[1];
    expect(rebind).toContain(`--session-start ${agent.runtimeId}`);
    expect(claude(repo, command, agent, bash(rebind!)).status).toBe(0);
    const start = spawnSync('sh', ['-c', rebind!], {
      cwd: repo.dir,
      env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, CLAUDE_ENV_FILE: agent.envFile },
      encoding: 'utf8',
    });
    expect(start.status, start.stderr).toBe(0);
    const token = shellSession(agent);
    expect(start.stdout).toContain(`bound to hestai session ${token} (role implementation-lead`);
    expect(start.stdout).toContain('clocked in now');
    expect(start.stdout).toContain(
      `next: anchor this session before any edit: call the MCP tool anchor (mcp__hestai__anchor) with {"stage":"identity","working_dir":${JSON.stringify(fs.realpathSync(repo.dir))},"session_id":"${token}","role":"implementation-lead"}`,
    );

    const blocked = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(blocked.status).toBe(2);
    expect(blocked.stderr).toContain(
      `hestai: Edit blocked: session ${token} (role implementation-lead) has no valid anchor`,
    );
    expect(blocked.stderr).toMatch(/^fix: call the MCP tool anchor/m);
    const read = {
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: `${repo.dir}/README.md` },
    };
    expect(claude(repo, command, agent, read).status).toBe(0);
    for (const form of ['git status && cat README.md', 'echo draft > /tmp/hestai-outside.txt', 'git commit -am x']) {
      const refused = claude(repo, command, agent, bash(form));
      expect(refused.status, form).toBe(2);
      expect(refused.stderr, form).toContain(`hestai: Bash blocked: session ${token}`);
    }

    anchor(repo, token);
    const allowed = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stderr).toBe('');
    expect(claude(repo, command, agent, bash('npm test > out.log')).status).toBe(0);
    const audit = fs.readFileSync(workspacePaths(repo.dir).auditLog, 'utf8');
    expect(audit).toContain('"event":"agent_tool_refused"');
  });

  it('a stale, unacknowledged context blocks edits until refreshed or acknowledged', () => {
    const { repo, command } = adopted();
    const agent = newAgent('stale');
    expect(claude(repo, command, agent, sessionStart()).status).toBe(0);
    const token = shellSession(agent);
    anchor(repo, token);
    // The agent-runtime hooks judge at the system clock (they ignore HESTAI_NOW), so the context is made a
    // day old instead: a refresh run with the CLI's clock pinned 25 h back.
    const earlier = { HESTAI_NOW: new Date(Date.now() - 25 * 3_600_000).toISOString() };
    expect(repo.hestai(['refresh', '--session', token], { env: earlier }).status).toBe(0);
    const stale = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(stale.status).toBe(2);
    expect(stale.stderr).toMatch(new RegExp(`the context of session ${token} was generated 2[45] h ago`));
    expect(stale.stderr).toContain(`refresh --session ${token}`);
    expect(claude(repo, command, agent, edit(repo, 'src/app.ts'), { HESTAI_NOW: earlier.HESTAI_NOW }).status).toBe(2);
    expect(repo.hestai(['ack', '--session', token, '--reason', 'reviewed: still right']).status).toBe(0);
    expect(claude(repo, command, agent, edit(repo, 'src/app.ts')).status).toBe(0);
  });

  it('refuses writes under .hestai/ whatever the session: edit tools, shell redirections and symlinks', () => {
    const { repo, command } = adopted();
    const agent = newAgent('guard');
    expect(claude(repo, command, agent, sessionStart()).status).toBe(0);
    const token = shellSession(agent);
    anchor(repo, token);
    const anchorJson = `.hestai/sessions/active/${token}/anchor.json`;
    const write = claude(repo, command, agent, {
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: path.join(repo.dir, anchorJson), content: '{}' },
    });
    expect(write.status).toBe(2);
    expect(write.stderr).toContain(`hestai: Write blocked: ${anchorJson} is under .hestai/, which agents never write`);
    expect(claude(repo, command, agent, bash(`echo '{}' > ${anchorJson}`)).status).toBe(2);
    expect(claude(repo, command, agent, bash('cat x | tee .hestai_workspace.yaml')).status).toBe(2);
    expect(claude(repo, command, agent, edit(repo, '.claude/settings.json')).status).toBe(2);
    fs.symlinkSync(path.join(repo.dir, '.hestai'), path.join(repo.dir, 'innocent'));
    const viaLink = claude(repo, command, agent, edit(repo, `innocent/sessions/active/${token}/anchor.json`));
    expect(viaLink.status).toBe(2);
    expect(viaLink.stderr).toContain('is under .hestai/');
    expect(claude(repo, command, agent, edit(repo, 'src/app.ts')).status).toBe(0);
  });

  it('two agents in one worktree commit under their own sessions, and a resume keeps the binding', () => {
    const { repo, command } = adopted();
    const [ann, bob] = [newAgent('ann'), newAgent('bob')];
    expect(claude(repo, command, ann, sessionStart()).status).toBe(0);
    expect(claude(repo, command, bob, sessionStart()).status).toBe(0);
    const [annToken, bobToken] = [shellSession(ann), shellSession(bob)];
    expect(annToken).not.toBe(bobToken);
    anchor(repo, annToken);
    anchor(repo, bobToken);

    // The agent's shell sources its env file before each command, as Claude Code does.
    const shell = (agent: Agent, script: string) =>
      spawnSync('sh', ['-c', `. "$CLAUDE_ENV_FILE" && ${script}`], {
        cwd: repo.dir,
        env: { ...repo.env, CLAUDE_ENV_FILE: agent.envFile },
        encoding: 'utf8',
      });
    repo.write('notes/ann.md', 'ann\n');
    const a = shell(ann, 'git add notes/ann.md && git commit -q -m "docs: ann notes"');
    expect(a.status, a.stderr).toBe(0);
    expect(repo.git(['log', '-1', '--format=%B']).stdout).toContain(`HestAI-Session: ${annToken}`);
    repo.write('notes/bob.md', 'bob\n');
    const b = shell(bob, 'git add notes/bob.md && git commit -q -m "docs: bob notes"');
    expect(b.status, b.stderr).toBe(0);
    expect(repo.git(['log', '-1', '--format=%B']).stdout).toContain(`HestAI-Session: ${bobToken}`);

    const resumed = claude(repo, command, ann, sessionStart('resume'));
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`bound to hestai session ${annToken}`);
    expect(resumed.stdout).toContain('resumed');
    expect(shellSession(ann)).toBe(annToken);
    expect(fs.readdirSync(workspacePaths(repo.dir).active).filter((d) => !d.startsWith('.'))).toHaveLength(2);
  });

  it('after a config change the hook validates it (the validator loads in its bundle) and caches nothing', () => {
    const { repo, command } = adopted();
    const agent = newAgent('cache');
    // Anchored: the config decides only for a session holding a valid anchor (a refusal before it never reads it).
    expect(claude(repo, command, agent, sessionStart()).status).toBe(0);
    anchor(repo, shellSession(agent));
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'freshness:\n  max_age_hours: 48\n');
    const validated = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(validated.status, validated.stderr).toBe(0);
    expect(validated.stderr).not.toContain('hestai hook failed');
    // Issue 27: no validated config is cached where an agent could write it.
    expect(fs.existsSync(path.join(repo.home, '.cache', 'hestai', 'config'))).toBe(false);
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'freshness:\n  max_age_hours: many\n');
    const invalid = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain('.hestai_workspace.yaml');
  });

  it('fails closed for edits and open for reads when the hook cannot check', () => {
    const { repo, command } = adopted();
    const agent = newAgent('broken');
    const garbage = spawnSync('sh', ['-c', command], {
      cwd: repo.dir,
      env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir },
      input: 'not json',
      encoding: 'utf8',
    });
    expect(garbage.status).toBe(2);
    expect(garbage.stderr).toMatch(/^hestai hook failed: the hook input on stdin is not JSON/);
    expect(claude(repo, command, agent, sessionStart()).status).toBe(0);
    const binding = path.join(workspacePaths(repo.dir).bindings, 'claude-code', `${agent.runtimeId}.json`);
    fs.writeFileSync(binding, '{ truncated');
    const edit1 = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(edit1.status).toBe(2);
    expect(edit1.stderr).toContain('hestai hook failed:');
    expect(edit1.stderr).toContain(binding);
    const read = {
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: `${repo.dir}/README.md` },
    };
    expect(claude(repo, command, agent, read).status).toBe(0);
  });

  it('works from a project directory whose path has spaces, quotes and $', () => {
    const base = tempDir('hestai-weird-');
    const dir = path.join(base, "my proj 'q' $HOME `x`");
    fs.mkdirSync(dir);
    fs.mkdirSync(path.join(base, 'home'));
    const env = isolatedEnv(path.join(base, 'home'));
    const git = (args: string[]) => spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
    git(['init', '-q', '-b', 'main']);
    fs.writeFileSync(path.join(dir, 'README.md'), '# weird\n');
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'chore: init']);
    const repo = {
      dir,
      env,
      hestai: (args: string[]) =>
        spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'dist/cli/bin.js'), ...args], {
          cwd: dir,
          env,
          encoding: 'utf8',
        }),
    };
    expect(repo.hestai(['init', '--no-husky', '--agent', 'claude-code']).status).toBe(0);
    const command = JSON.parse(fs.readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')).hooks.PreToolUse[0]
      .hooks[0].command as string;
    const envFile = path.join(base, 'env');
    const run = (payload: object) =>
      spawnSync('sh', ['-c', command], {
        cwd: dir,
        env: { ...env, CLAUDE_PROJECT_DIR: dir, CLAUDE_ENV_FILE: envFile },
        input: JSON.stringify({ session_id: 'w-1', cwd: dir, ...payload }),
        encoding: 'utf8',
      });
    expect(run({ hook_event_name: 'SessionStart', source: 'startup' }).status).toBe(0);
    const blocked = run({
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: path.join(dir, 'a.ts'), content: '' },
    });
    expect(blocked.status).toBe(2);
    expect(blocked.stderr).toContain('has no valid anchor');
  });
});

describe('Claude Code hooks with the session protocol enforced (protocol.enforce)', () => {
  function enforced(): { repo: TempRepo; command: string; agent: Agent; token: string } {
    const { repo, command, settings } = adopted();
    expect(settings.hooks.Stop[0].hooks[0].command).toBe(command);
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'protocol:\n  enforce: true\n');
    const agent = newAgent('protocol');
    expect(claude(repo, command, agent, sessionStart()).status).toBe(0);
    const token = shellSession(agent);
    anchor(repo, token);
    return { repo, command, agent, token };
  }

  it('an anchored agent may not edit until the blocking start gates are met', () => {
    const { repo, command, agent, token } = enforced();
    const notStarted = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(notStarted.status).toBe(2);
    expect(notStarted.stderr).toContain(`hestai: Edit blocked: session ${token} has not started the session protocol`);
    expect(notStarted.stderr).toContain('fix: call the MCP tool session_start');
    const start = repo.hestai(['session', '--session', token, 'start', '--objective', 'edit-time hooks']);
    expect(start.status, start.stderr + start.stdout).toBe(0);
    const unread = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(unread.status).toBe(2);
    expect(unread.stderr).toContain('BINDING/read_context');
    expect(unread.stderr).toMatch(/fix: call the MCP tool .*— or run .*session/);
    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md')))
      .digest('hex');
    const evidence = repo.hestai([
      'session',
      '--session',
      token,
      'evidence',
      'BINDING',
      '--type',
      'content_hash',
      '--value',
      hash,
      '--step',
      'read_context',
    ]);
    expect(evidence.status, evidence.stderr + evidence.stdout).toBe(0);
    const allowed = claude(repo, command, agent, edit(repo, 'src/app.ts'));
    expect(allowed.status, allowed.stderr).toBe(0);
  });

  it('Stop sends the agent back once per turn while a MUST end gate is unmet', () => {
    const { repo, command, agent, token } = enforced();
    expect(repo.hestai(['session', '--session', token, 'start', '--objective', 'stop gate']).status).toBe(0);
    const stopped = claude(repo, command, agent, { hook_event_name: 'Stop', stop_hook_active: false });
    expect(stopped.status).toBe(2);
    expect(stopped.stderr).toContain('hestai: not done yet:');
    expect(stopped.stderr).toContain('END/committed');
    expect(stopped.stderr).toMatch(/MCP: /);
    expect(claude(repo, command, agent, { hook_event_name: 'Stop', stop_hook_active: true }).status).toBe(0);
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'agents:\n  stop_gate: false\n');
    expect(claude(repo, command, agent, { hook_event_name: 'Stop', stop_hook_active: false }).status).toBe(0);
  });

  it('an agent can satisfy the default protocol end to end: the context docs are the one thing under .hestai/ it may edit', () => {
    const { repo, command, agent, token } = enforced();
    const session = (...args: string[]) => repo.hestai(['session', '--session', token, ...args]);
    repo.git(['commit', '-q', '--no-verify', '-am', 'chore: enforce the session protocol']); // a human's change
    expect(session('start', '--objective', 'the whole protocol').status).toBe(0);
    const contextDoc = '.hestai/context/PROJECT-CONTEXT.oct.md';
    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(repo.dir, contextDoc)))
      .digest('hex');
    expect(session('evidence', 'BINDING', '--type', 'content_hash', '--value', hash).status).toBe(0);
    expect(session('advance').status).toBe(0);
    expect(session('advance').status).toBe(0);

    // The END gate context_docs asks for an edit of .hestai/context/*.oct.md: the hook lets the agent make it.
    const docEdit = claude(repo, command, agent, edit(repo, contextDoc));
    expect(docEdit.status, docEdit.stderr).toBe(0);
    expect(claude(repo, command, agent, bash(`echo 'NOTE::"x"' >> ${contextDoc}`)).status).toBe(0);
    // Everything else under .hestai/ stays refused: the protocol, the generated FAST layer, state.
    for (const file of [
      '.hestai/protocol.yaml',
      '.hestai/context/state/current-focus.oct.md',
      '.hestai/context/notes/deeper.oct.md',
      '.hestai/context/PROJECT-CONTEXT.md',
      `.hestai/sessions/active/${token}/protocol.json`,
    ]) {
      const refused = claude(repo, command, agent, edit(repo, file));
      expect(refused.status, file).toBe(2);
      expect(refused.stderr, file).toContain('which agents never write');
    }

    // The agent does the work as its hooks allow: the context doc, a test commit, then the feature.
    fs.appendFileSync(path.join(repo.dir, contextDoc), 'NOTE::"the feature landed"\n');
    const shell = (script: string) =>
      spawnSync('sh', ['-c', `. "$CLAUDE_ENV_FILE" && ${script}`], {
        cwd: repo.dir,
        env: { ...repo.env, CLAUDE_ENV_FILE: agent.envFile },
        encoding: 'utf8',
      });
    repo.write('test/app.test.ts', 'test\n');
    const test = shell('git add test && git commit -q -m "test(app): the failing test"');
    expect(test.status, test.stderr).toBe(0);
    repo.write('src/app.ts', 'export const app = 2;\n');
    const feat = shell(`git add src ${contextDoc} && git commit -q -m "feat(app): the feature"`);
    expect(feat.status, feat.stderr).toBe(0);
    const stop = claude(repo, command, agent, { hook_event_name: 'Stop', stop_hook_active: false });
    expect(stop.status, stop.stderr).toBe(0);
    const end = repo.hestai(['session', '--session', token, 'end', '--summary', 'done', '--json']);
    expect(end.status, end.stdout + end.stderr).toBe(0);
    expect(JSON.parse(end.stdout)).toMatchObject({ status: 'COMPLETE' });
  });

  it('without protocol.enforce, Stop never holds the agent', () => {
    const { repo, command } = adopted();
    const agent = newAgent('free');
    expect(claude(repo, command, agent, sessionStart()).status).toBe(0);
    expect(claude(repo, command, agent, { hook_event_name: 'Stop', stop_hook_active: false }).status).toBe(0);
  });
});
