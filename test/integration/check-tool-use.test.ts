import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

// `hestai check tool-use`: the documented generic contract other agent runtimes call (stdin JSON; exit 0
// allow, 1 deny or --deny-exit 2, 2 error), through the built CLI: its fast path and the full parser.

function check(repo: TempRepo, input: unknown, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  return repo.hestai(['check', 'tool-use', ...args], {
    input: typeof input === 'string' ? input : JSON.stringify(input),
    env,
  });
}

describe('hestai check tool-use', () => {
  it('denies a write without a session and allows it for an anchored, fresh one', () => {
    const repo = makeRepo();
    const none = check(repo, { tool: 'Edit', paths: ['src/a.ts'] });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('hestai: Edit blocked: this agent has no hestai session.');
    expect(none.stderr).toMatch(
      /^fix: clock in \(.* clock-in --role <role> --json\) and pass its session_id as "hestai_session"/m,
    );

    const { token } = makeSession(repo.dir);
    const ok = check(repo, { tool: 'Edit', paths: ['src/a.ts'], hestai_session: token }, ['--json']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ allow: true, code: 'ALLOWED', session_id: token, what: 'Edit' });
    expect(check(repo, { tool: 'shell', command: 'git commit -m x' }, [], { HESTAI_SESSION: token }).status).toBe(0);
  });

  it('a file named ..x at the worktree root is inside it: a write there without a session is denied (issue 27)', () => {
    const repo = makeRepo();
    for (const target of ['..x.js', `${repo.dir}/..x.js`, 'src/../..x.js', `${repo.dir}/..`]) {
      const denied = check(repo, { tool: 'Write', paths: [target] }, ['--json']);
      if (target === `${repo.dir}/..`) {
        // The parent directory itself is outside, and no temporary directory free of PATH and HOME: refused too.
        expect(JSON.parse(denied.stdout), target).toMatchObject({ allow: false, code: 'NO_SESSION' });
        continue;
      }
      expect(denied.status, target).toBe(1);
      expect(JSON.parse(denied.stdout), target).toMatchObject({ allow: false, code: 'NO_SESSION', what: 'Write' });
    }
    const shell = check(repo, { tool: 'shell', command: 'echo x > ..x.js' }, ['--json']);
    expect(JSON.parse(shell.stdout)).toMatchObject({ allow: false, code: 'NO_SESSION' });
  });

  it('attack: a .hestai/ committed in a subdirectory does not make the agent hook take that subdirectory for the worktree (git names the worktree)', () => {
    const repo = makeRepo();
    repo.commit('docs: a package with context of its own', {
      'packages/app/.hestai/context/app.oct.md': '===APP===\n',
      'packages/app/index.ts': 'x\n',
      'src/core.ts': 'x\n',
    });
    const app = `${repo.dir}/packages/app`;
    for (const target of ['../../src/core.ts', `${repo.dir}/src/core.ts`, 'index.ts']) {
      const denied = repo.hestai(['check', 'tool-use', '--json'], {
        cwd: app,
        input: JSON.stringify({ tool: 'Write', paths: [target] }),
      });
      expect(denied.status, target).toBe(1);
      expect(JSON.parse(denied.stdout), target).toMatchObject({ allow: false, code: 'NO_SESSION' });
    }
    const shell = repo.hestai(['check', 'tool-use', '--json'], {
      cwd: app,
      input: JSON.stringify({ tool: 'shell', command: 'echo x > ../../src/core.ts' }),
    });
    expect(JSON.parse(shell.stdout)).toMatchObject({ allow: false, code: 'NO_SESSION' });
  });

  it('reads are always allowed; an unanchored or stale session is denied with the fix, on the exit code asked for', () => {
    const repo = makeRepo();
    expect(check(repo, { tool: 'Read', paths: ['.hestai/sessions'] }).status).toBe(0);
    // issue 37: no shell command is a read; before the anchor only hestai's own start commands run
    expect(check(repo, { tool: 'shell', command: 'git log --oneline' }).status).toBe(1);
    expect(check(repo, { tool: 'shell', command: `node ${PROJECT_ROOT}/dist/cli/bin.js status` }).status).toBe(0);
    const unanchored = makeSession(repo.dir, { anchored: false });
    const denied = check(repo, { tool: 'Write', paths: ['a.ts'], hestai_session: unanchored.token }, [
      '--json',
      '--deny-exit',
      '2',
    ]);
    expect(denied.status).toBe(2);
    expect(JSON.parse(denied.stdout)).toMatchObject({ allow: false, code: 'NO_ANCHOR', session_id: unanchored.token });
    const stale = makeSession(repo.dir, { generatedAt: new Date(Date.now() - 30 * 3_600_000).toISOString() });
    const old = check(repo, { tool: 'Edit', paths: ['a.ts'], hestai_session: stale.token });
    expect(old.status).toBe(1);
    expect(old.stderr).toContain(`refresh --session ${stale.token}`);
  });

  it('reads Gemini CLI and Claude Code payloads as they come, and refuses .hestai/ to them', () => {
    const repo = makeRepo();
    const { token } = makeSession(repo.dir);
    const gemini = check(
      repo,
      {
        tool_name: 'write_file',
        tool_input: { file_path: `${repo.dir}/.hestai/sessions/active/${token}/anchor.json`, content: '{}' },
        hestai_session: token,
      },
      ['--json'],
    );
    expect(gemini.status).toBe(1);
    expect(JSON.parse(gemini.stdout)).toMatchObject({ allow: false, code: 'PROTECTED_PATH', what: 'Write' });
    expect(
      check(repo, {
        tool_name: 'run_shell_command',
        tool_input: { command: 'echo x > src/a.ts' },
        hestai_session: token,
      }).status,
    ).toBe(0);
    expect(
      check(repo, {
        tool_name: 'run_shell_command',
        tool_input: { command: 'echo x >> .hestai/audit/audit.jsonl' },
        hestai_session: token,
      }).status,
    ).toBe(1);
  });

  it('bad input is exit 2 with what to send; the full parser serves --cwd from another directory', () => {
    const repo = makeRepo();
    for (const input of [
      'not json',
      '[]',
      { paths: ['a'] },
      { tool: 'Edit', paths: 'a' },
      { tool: 'Edit', hestai_session: 'nope' },
    ]) {
      const bad = check(repo, input);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('hint: Send one JSON object on stdin');
    }
    expect(check(repo, { tool: 'Edit' }, ['--deny-exit', '3']).status).toBe(2);
    const { token } = makeSession(repo.dir);
    const elsewhere = repo.hestai(['--cwd', repo.dir, 'check', 'tool-use', '--json'], {
      cwd: repo.home,
      input: JSON.stringify({ tool: 'Edit', paths: [`${repo.dir}/src/a.ts`], hestai_session: token }),
    });
    expect(elsewhere.status, elsewhere.stderr).toBe(0);
    expect(JSON.parse(elsewhere.stdout)).toMatchObject({ allow: true, code: 'ALLOWED' });
  });
});
