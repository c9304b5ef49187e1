import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// Issue 28, item 4: init never appends its line after a hook's `exec` or early `exit` (the line would never
// run: commits with no session went through while doctor said ok), and doctor proves the hooks run by
// executing the installed chain on a dry-run message.

function blockedWithoutSession(repo: TempRepo): void {
  repo.write('notes.md', `hello ${Math.random()}\n`);
  repo.git(['add', 'notes.md']);
  const commit = repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
  expect(commit.status, commit.stderr).not.toBe(0);
  expect(commit.stderr).toMatch(/commit blocked: no active session/);
}

function plainHook(repo: TempRepo, hook: string, text: string): string {
  const file = path.join(repo.dir, '.git/hooks', hook);
  fs.writeFileSync(file, text, { mode: 0o755 });
  return file;
}

describe('init keeps its line where the hook runs it', () => {
  it('a plain hook that ends in exit 0: the commit is checked', () => {
    const repo = makeRepo();
    plainHook(repo, 'pre-commit', '#!/bin/sh\necho "lint: ok"\nexit 0\n');
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: adopt hestai');
    blockedWithoutSession(repo);
    const text = fs.readFileSync(path.join(repo.dir, '.git/hooks/pre-commit'), 'utf8');
    expect(text).toContain('echo "lint: ok"');
    expect(text.trimEnd().endsWith('exit 0')).toBe(true);
  });

  it('a plain hook that hands over with exec: the commit is checked before it', () => {
    const repo = makeRepo();
    plainHook(repo, 'pre-commit', '#!/bin/sh\nexec sh -c "echo other tool; exit 0" "$@"\n');
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: adopt hestai');
    blockedWithoutSession(repo);
  });

  it("a husky hook that ends in exit 0: the commit is checked, and husky's lines stay", () => {
    const repo = makeRepo();
    repo.write('.husky/pre-commit', 'echo "husky ran"\nexit 0\n');
    const init = repo.hestai(['init', '--husky']);
    expect(init.status, init.stderr).toBe(0);
    repo.commit('chore: adopt hestai');
    blockedWithoutSession(repo);
    expect(fs.readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8')).toMatch(
      /echo "husky ran"[\s\S]*exit 0\n$/,
    );
  });
});

describe('doctor runs the installed hook chain', () => {
  it("fails when hestai's line sits after an exit, and passes once init has put it where it runs", () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const file = path.join(repo.dir, '.git/hooks/pre-commit');
    // What init wrote before: its marked line appended after the user's `exit 0`.
    const marked = fs.readFileSync(file, 'utf8').replace(/^#!\/bin\/sh\n/, '');
    fs.writeFileSync(file, `#!/bin/sh\necho "lint: ok"\nexit 0\n${marked}`);
    const broken = repo.hestai(['doctor']);
    expect(broken.status, broken.stdout).not.toBe(0);
    expect(broken.stdout).toMatch(/pre-commit/);
    expect(broken.stdout).toMatch(/never runs|did not run/);

    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const fixed = repo.hestai(['doctor']);
    expect(fixed.status, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/ran hestai's pre-commit and commit-msg/);
    // The dry run leaves no commit, no session, and the message file git uses untouched.
    expect(repo.git(['rev-list', '--count', 'HEAD']).stdout.trim()).toBe('1');
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active'))).toBe(true);
    expect(fs.readdirSync(path.join(repo.dir, '.hestai/sessions/active'))).toEqual([]);
  });
});
