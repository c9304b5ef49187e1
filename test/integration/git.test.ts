import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ask } from '../../src/git/exec.js';
import { headState } from '../../src/git/head.js';
import {
  configGet,
  CURRENT_BRANCH,
  headCommit,
  log,
  mergeBase,
  repoInfo,
  resolveCommit,
  status,
  trackedFiles,
} from '../../src/git/repo.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

describe('git gateway on real repositories', () => {
  it('reads repository facts, including a linked worktree', () => {
    const repo = makeRepo();
    const info = repoInfo(repo.dir)!;
    expect(info.root).toBe(repo.dir);
    expect(info.isLinkedWorktree).toBe(false);
    expect(info.isShallow).toBe(false);
    const linked = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked', linked]);
    const linkedInfo = repoInfo(path.join(linked))!;
    expect(linkedInfo.root).toBe(fs.realpathSync(linked));
    expect(linkedInfo.isLinkedWorktree).toBe(true);
    expect(linkedInfo.commonDir).toBe(info.commonDir);
    expect(ask(linked, CURRENT_BRANCH)).toBe('feat/linked');
    expect(ask(repo.dir, CURRENT_BRANCH)).toBe('main');
    expect(headState(linked)).toEqual({ ref: 'refs/heads/feat/linked', unborn: false, mergeHeads: [] });
    expect(headState(repo.dir)).toEqual({ ref: 'refs/heads/main', unborn: false, mergeHeads: [] });
  });

  it('returns null outside a repository', () => {
    expect(repoInfo(tempDir())).toBeNull();
  });

  it('handles an unborn branch', () => {
    const repo = makeRepo({ initialCommit: false });
    expect(ask(repo.dir, CURRENT_BRANCH)).toBe('main');
    expect(headState(repo.dir)).toEqual({ ref: null, unborn: true, mergeHeads: [] });
    expect(headCommit(repo.dir)).toBeNull();
    expect(log(repo.dir, { range: ['HEAD'] })).toEqual([]);
  });

  it('reads status with odd file names and tracked files', () => {
    const repo = makeRepo();
    repo.write('a file with spaces.txt', 'x');
    repo.write('ünïcödé.txt', 'y');
    const entries = status(repo.dir);
    expect(entries.map((e) => e.path).sort()).toEqual(['a file with spaces.txt', 'ünïcödé.txt']);
    expect(trackedFiles(repo.dir)).toEqual(['README.md']);
  });

  it('reads a log with messages and changed files, oldest first', () => {
    const repo = makeRepo();
    repo.commit('test(x): add failing test\n\nbody line', { 'test/x.test.ts': 'x' });
    repo.commit('feat(x): implement', { 'src/x.ts': 'x', 'src/y.ts': 'y' });
    const commits = log(repo.dir, { range: ['HEAD'], withFiles: true, reverse: true });
    expect(commits.map((c) => c.message.split('\n')[0])).toEqual([
      'chore: initial commit',
      'test(x): add failing test',
      'feat(x): implement',
    ]);
    expect(commits[1]!.message).toBe('test(x): add failing test\n\nbody line');
    expect(commits[1]!.files).toEqual(['test/x.test.ts']);
    expect(commits[2]!.files).toEqual(['src/x.ts', 'src/y.ts']);
    expect(commits[2]!.parents).toEqual([commits[1]!.sha]);
  });

  it('resolves revisions, merge-bases and config', () => {
    const repo = makeRepo();
    const base = headCommit(repo.dir)!;
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('feat: one');
    expect(resolveCommit(repo.dir, 'main')).toBe(base);
    expect(resolveCommit(repo.dir, 'no-such-branch')).toBeNull();
    expect(resolveCommit(repo.dir, '--output=/tmp/x')).toBeNull();
    expect(mergeBase(repo.dir, 'main', 'HEAD')).toBe(base);
    expect(configGet(repo.dir, 'user.email')).toBe('test@hestai.invalid');
    expect(configGet(repo.dir, 'no.such')).toBeNull();
  });
});
