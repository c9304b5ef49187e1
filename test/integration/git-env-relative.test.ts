import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';

// Issue 27 (git answers git questions): GIT_DIR and GIT_WORK_TREE given relative to the directory a command
// is started in name the repository git finds from there (git(1): "relative to the current working
// directory"). hestai asks git from the worktree root, so it must pass them on as git read them, not
// relative to the root: `hestai check commit-msg` run in a subdirectory judges the repository git names.

function setup() {
  const repo = makeRepo();
  repo.commit('test(a): covers a', { 'test/a.test.ts': 't\n' });
  const sub = path.join(repo.dir, 'sub');
  fs.mkdirSync(sub);
  const env = { GIT_DIR: '../.git', GIT_WORK_TREE: '..' };
  const message = (text: string) => {
    const file = path.join(repo.home, 'MSG');
    fs.writeFileSync(file, text);
    return file;
  };
  return { repo, sub, env, message };
}

describe('GIT_DIR and GIT_WORK_TREE relative to the directory hestai is started in', () => {
  it('hestai check commit-msg in a subdirectory judges the repository git names from there', () => {
    const { repo, sub, env, message } = setup();
    expect(repo.git(['rev-parse', '--show-toplevel'], { cwd: sub, env }).stdout.trim()).toBe(repo.dir);
    const paired = repo.hestai(['check', 'commit-msg', message('feat(a): a\n')], { cwd: sub, env });
    expect(paired.stderr).not.toContain('internal error');
    expect(paired.status, paired.stderr).toBe(0);
    const bad = repo.hestai(['check', 'commit-msg', message('not a header\n')], { cwd: sub, env });
    expect(bad.status, bad.stderr).toBe(1);
    expect(bad.stderr).toContain('is not a Conventional Commit header');
  });
});
