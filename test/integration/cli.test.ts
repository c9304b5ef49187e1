import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, makeRepo, runCli, tempDir } from '../helpers/git-repo.js';

describe('hestai CLI skeleton', () => {
  it('prints help and exits 0', () => {
    const repo = makeRepo();
    const result = repo.hestai(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: hestai');
    expect(result.stdout).toContain('doctor');
    expect(result.stdout).toContain('Exit codes');
  });

  it("says in each command's --session help which session the one rule picks, never the most recently anchored", () => {
    const repo = makeRepo();
    for (const command of ['ack', 'refresh', 'clock-out', 'session']) {
      const result = repo.hestai([command, '--help']);
      expect(result.status, command).toBe(0);
      expect(result.stdout.replace(/\s+/g, ' '), command).toContain(
        'default: HESTAI_SESSION, else the only live session not pinned to an agent',
      );
      expect(result.stdout, command).not.toContain('most recently anchored');
    }
  });

  it('prints the package version', () => {
    const repo = makeRepo();
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const result = repo.hestai(['--version']);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  it('refuses an unknown command with exit 2, a one-line reason and a hint', () => {
    const repo = makeRepo();
    const result = repo.hestai(['doctr']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^hestai: unknown command 'doctr'/);
    expect(result.stderr).toContain('doctor');
    expect(result.stderr).toContain('hint: run "hestai --help"');
  });

  it('refuses an unknown flag with exit 2 and a hint', () => {
    const repo = makeRepo();
    const result = repo.hestai(['doctor', '--frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^hestai: unknown option '--frobnicate'/);
    expect(result.stderr).toContain('hint:');
  });

  it('shows help and exits 2 when no command is given', () => {
    const repo = makeRepo();
    const result = repo.hestai([]);
    expect(result.status).toBe(2);
    expect(result.stdout + result.stderr).toContain('Usage: hestai');
  });

  it('doctor passes in a git repository and prints one JSON document with --json', () => {
    const repo = makeRepo();
    const result = repo.hestai(['doctor', '--json']);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      checks: { name: string; status: string; message: string }[];
    };
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['node', 'git', 'repository', 'config']));
    expect(report.checks.find((c) => c.name === 'repository')!.message).toContain(repo.dir);
  });

  it('accepts global flags before or after the command name', () => {
    const repo = makeRepo();
    const before = repo.hestai(['--json', 'doctor']);
    const after = repo.hestai(['doctor', '--json']);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
  });

  it('resolves --cwd inside the repository to the worktree root', () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'deep/inside'), { recursive: true });
    const outside = tempDir();
    const result = runCli(['--cwd', path.join(repo.dir, 'deep/inside'), 'doctor', '--json'], {
      cwd: outside,
      env: repo.env,
    });
    const report = JSON.parse(result.stdout) as { checks: { name: string; message: string }[] };
    expect(report.checks.find((c) => c.name === 'repository')!.message).toBe(repo.dir);
  });

  it('doctor fails (exit 1) outside a git work tree and says what to do', () => {
    const dir = tempDir();
    const result = runCli(['doctor'], { cwd: dir, env: isolatedEnv(dir) });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('FAIL repository');
    expect(result.stdout).toContain('not inside a git work tree');
    expect(result.stdout).toContain('hint:');
  });

  it('doctor names the config file, key and line of every config error', () => {
    const repo = makeRepo();
    repo.write('.hestai_workspace.yaml', 'tdd:\n  polcy: paired\nfreshness:\n  max_age_hours: "soon"\n');
    const result = repo.hestai(['doctor']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      '.hestai_workspace.yaml:2:3: tdd.polcy: unknown key "polcy"; did you mean "policy"?',
    );
    expect(result.stdout).toMatch(/\.hestai_workspace\.yaml:4:\d+: freshness\.max_age_hours: /);
  });

  it('prints no color escapes when stdout is not a TTY', () => {
    const repo = makeRepo();
    const result = repo.hestai(['doctor']);
    expect(result.stdout).not.toMatch(/\u001b\[/);
  });

  it('doctor reports a --cwd that does not exist as a failed check', () => {
    const repo = makeRepo();
    const result = repo.hestai(['--cwd', path.join(repo.dir, 'missing'), 'doctor']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('does not exist');
  });
});

describe('hestai clock-out: the checklist', () => {
  it('--carry ITEM (repeatable) carries named items forward, --carry-all all of them', () => {
    const repo = makeRepo();
    const a = JSON.parse(repo.hestai(['--json', 'clock-in', '--role', 'tester', '--focus', 'login']).stdout) as {
      session_id: string;
    };
    const out = repo.hestai(['--json', 'clock-out', '--session', a.session_id, '--carry', 'session task: login']);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout).checklist).toEqual({ done: [], carried_forward: ['session task: login'] });
    const b = JSON.parse(repo.hestai(['--json', 'clock-in', '--role', 'tester', '--focus', 'login']).stdout) as {
      session_id: string;
    };
    const all = repo.hestai(['clock-out', '--session', b.session_id, '--carry-all']);
    expect(all.status).toBe(0);
    expect(all.stdout).toContain('checklist: 0 done, 1 carried forward');
    const bad = repo.hestai(['clock-out', '--carry-all', '--carry', 'x']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--carry-all');
  });
});
