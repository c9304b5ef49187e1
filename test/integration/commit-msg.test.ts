import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { anchorDigest } from '../../src/records/anchor.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { makeSession, runHook } from '../helpers/session-fixture.js';

/** Writes a message file in the git dir, runs the hook on it and returns the result and the file after. */
function commitMsg(repo: TempRepo, message: string, env: NodeJS.ProcessEnv = {}, cwd = repo.dir) {
  const file = path.join(cwd, 'COMMIT_MSG_TEST');
  fs.writeFileSync(file, message);
  const result = runHook('commit-msg', cwd, { ...repo.env, ...env }, ['COMMIT_MSG_TEST']);
  const after = fs.readFileSync(file, 'utf8');
  fs.rmSync(file);
  return { ...result, message: after };
}

function onBranch(repo: TempRepo): void {
  repo.git(['checkout', '-q', '-b', 'feat/x']);
}

describe('commit-msg hook: test-first', () => {
  it('blocks a feat on a branch without a preceding test commit, naming the type and the fix', () => {
    const repo = makeRepo();
    onBranch(repo);
    const result = commitMsg(repo, 'feat(cli): add verify\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('feat commit "feat(cli): add verify"');
    expect(result.stderr).toContain('test(cli)');
    expect(result.stderr).toMatch(/commit the failing test first/i);
  });

  it('passes a feat after a test commit on the branch', () => {
    const repo = makeRepo();
    onBranch(repo);
    repo.commit('test(cli): failing test', { 'test/cli.test.ts': 'x' });
    const result = commitMsg(repo, 'feat(cli): add verify\n');
    expect(result.status).toBe(0);
  });

  it('a test commit pairs once: a second feat is blocked and told the test was already paired', () => {
    const repo = makeRepo();
    onBranch(repo);
    repo.commit('test: a', { 'test/a.test.ts': 'x' });
    repo.commit('feat: a', { 'src/a.ts': 'x' });
    const result = commitMsg(repo, 'feat: b\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('already paired');
  });

  it('judges only the branch since its merge-base with the default branch', () => {
    const repo = makeRepo();
    repo.commit('test: on main', { 'test/a.test.ts': 'x' });
    onBranch(repo);
    expect(commitMsg(repo, 'feat: on branch\n').status).toBe(1);
  });

  it('on the default branch judges history after tdd.since (since itself excluded)', () => {
    const repo = makeRepo();
    repo.commit('test: before adoption', { 'test/a.test.ts': 'x' });
    const since = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.write('.hestai_workspace.yaml', `tdd:\n  since: ${since}\n`);
    expect(commitMsg(repo, 'feat: after adoption\n').status).toBe(1);
    repo.commit('test: after adoption', { 'test/b.test.ts': 'x' });
    expect(commitMsg(repo, 'feat: after adoption\n').status).toBe(0);
  });

  it('on the default branch without tdd.since judges since the root', () => {
    const repo = makeRepo();
    repo.commit('test: a', { 'test/a.test.ts': 'x' });
    expect(commitMsg(repo, 'feat: a\n').status).toBe(0);
  });

  it('applies the configured policy, types and test globs', () => {
    const repo = makeRepo();
    repo.write('.hestai_workspace.yaml', 'tdd:\n  policy: scoped\n  types: [feat, fix]\n  test_globs: ["spec/**"]\n');
    onBranch(repo);
    repo.commit('test(api): in test/ (not a test file here)', { 'test/a.test.ts': 'x' });
    expect(commitMsg(repo, 'fix(api): x\n').status).toBe(1);
    repo.commit('test(api): spec', { 'spec/api_spec.rb': 'x' });
    expect(commitMsg(repo, 'fix(cli): x\n').status).toBe(1);
    expect(commitMsg(repo, 'fix(api): x\n').status).toBe(0);
  });

  it('does not judge real reverts and fixup!/squash! commits', () => {
    const repo = makeRepo();
    onBranch(repo);
    const feat = repo.commit('feat: x', { 'src/x.ts': 'x' });
    for (const message of [
      `Revert "feat: x"\n\nThis reverts commit ${feat}.\n`,
      `Revert "feat: x"\n\nThis reverts commit ${feat.slice(0, 7)}.\n`,
      'fixup! feat: x\n',
      'squash! feat: x\n',
    ]) {
      expect(commitMsg(repo, message).status, message).toBe(0);
    }
  });

  it('judges single-parent "Merge " and "Revert "" headers like any other (no merge in progress, no revert line resolving)', () => {
    const repo = makeRepo();
    onBranch(repo);
    for (const message of [
      "Merge branch 'main' into feat/x\n",
      'Revert "feat: x"\n\nThis reverts commit abc1234.\n',
      'Revert "feat: x"\n',
    ]) {
      const result = commitMsg(repo, message);
      expect(result.status, message).toBe(1);
      expect(result.stderr).toContain('is not a Conventional Commit header');
    }
  });

  it('lets a TDD-Exempt trailer through with a note', () => {
    const repo = makeRepo();
    onBranch(repo);
    const result = commitMsg(repo, 'feat: generated client\n\nTDD-Exempt: generated from the OpenAPI spec\n');
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('generated from the OpenAPI spec');
  });

  it('blocks a header that is not a Conventional Commit', () => {
    const repo = makeRepo();
    const result = commitMsg(repo, 'added things\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('type(scope): subject');
  });

  it('ignores comment lines with core.commentChar and a scissors tail', () => {
    const repo = makeRepo();
    onBranch(repo);
    repo.git(['config', 'core.commentChar', ';']);
    const result = commitMsg(repo, '; Please enter the commit message\nfeat: x\n; trailing\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('feat commit "feat: x"');
    repo.git(['config', '--unset', 'core.commentChar']);
    const scissors = commitMsg(repo, 'docs: y\n# ------------------------ >8 ------------------------\nfeat: x\n');
    expect(scissors.status).toBe(0);
  });

  it('judges an empty message as verify does (git commit --allow-empty-message stores it): blocked, file untouched', () => {
    const repo = makeRepo();
    const result = commitMsg(repo, '# only comments\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the header (first line) is empty');
    expect(result.message).toBe('# only comments\n');
    repo.git(['commit', '--no-verify', '-q', '--allow-empty', '--allow-empty-message', '-m', '']);
    repo.write('.hestai_workspace.yaml', 'verify:\n  trailers: off\n  anchors: off\n');
    const verify = repo.hestai(['verify', '--format', 'json', '--from', 'HEAD~1']);
    expect(verify.status).toBe(1);
    expect(verify.stdout).toContain('the header (first line) is empty');
  });

  it('a header ending in CR (a CRLF message kept verbatim) or holding U+2028 is judged by its type, as verify does', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n' });
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    expect(commitMsg(repo, 'docs: crlf\r\n\r\nbody\r\n').status).toBe(0);
    expect(commitMsg(repo, 'docs: a\u2028b\n').status).toBe(0);
    repo.git(['commit', '--no-verify', '-q', '--allow-empty', '--cleanup=verbatim', '-m', 'docs: crlf\r\n\r\nbody\r']);
    repo.git(['commit', '--no-verify', '-q', '--allow-empty', '-m', 'docs: a\u2028b']);
    const verify = repo.hestai(['verify', '--format', 'json']);
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('pairs only a related test commit: a test of another package does not let a feat of this one through', () => {
    const repo = makeRepo();
    onBranch(repo);
    repo.commit('test(parser): rejects tabs', { 'packages/parser/test/tabs.test.ts': 'x' });
    repo.write('packages/cli/src/json.ts', 'x');
    repo.git(['add', '-A']);
    const result = commitMsg(repo, 'feat(cli): --json\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('test(parser): rejects tabs');
    repo.git(['reset', '-q']);
    repo.write('packages/parser/src/tabs.ts', 'x');
    repo.git(['add', 'packages/parser']);
    expect(commitMsg(repo, 'feat: tabs\n').status).toBe(0);
  });

  it('tdd.policy same-commit: a feat staging a test of what it changes passes the hook', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': 'tdd:\n  policy: same-commit\n' });
    onBranch(repo);
    repo.write('packages/cli/src/json.ts', 'x');
    repo.git(['add', '-A']);
    expect(commitMsg(repo, 'feat(cli): --json\n').status).toBe(1);
    repo.write('packages/cli/test/json.test.ts', 'x');
    repo.git(['add', '-A']);
    expect(commitMsg(repo, 'feat(cli): --json\n').status).toBe(0);
  });
});

describe('commit-msg hook: trailers and bypass', () => {
  it('appends HestAI-Session and HestAI-Anchor for the anchored session, above the comments', () => {
    const repo = makeRepo();
    const { token, anchor } = makeSession(repo.dir);
    const result = commitMsg(repo, 'docs: readme\n\n# comment\n');
    expect(result.status).toBe(0);
    expect(result.message).toBe(
      `docs: readme\n\nHestAI-Session: ${token}\nHestAI-Anchor: ${anchorDigest(anchor!)}\n\n# comment\n`,
    );
  });

  it('adds no trailers when hooks.trailers is false', () => {
    const repo = makeRepo();
    makeSession(repo.dir);
    repo.write('.hestai_workspace.yaml', 'hooks:\n  trailers: false\n');
    expect(commitMsg(repo, 'docs: readme\n').message).toBe('docs: readme\n');
  });

  it('a bypass skips the rules, appends HestAI-Bypass and writes an audit line', () => {
    const repo = makeRepo();
    onBranch(repo);
    const result = commitMsg(repo, 'feat: hotfix\n', { HESTAI_BYPASS: 'prod is down' });
    expect(result.status).toBe(0);
    expect(result.message).toContain('HestAI-Bypass: prod is down');
    expect(result.stderr).toContain('HESTAI_BYPASS');
    const audit = fs
      .readFileSync(workspacePaths(repo.dir).auditLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit[0]).toMatchObject({
      event: 'bypass',
      hook: 'commit-msg',
      reason: 'prod is down',
      header: 'feat: hotfix',
    });
  });

  it('refuses a bypass with an empty reason', () => {
    const repo = makeRepo();
    const result = commitMsg(repo, 'docs: x\n', { HESTAI_BYPASS: ' ' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('reason');
  });

  it('works in a linked worktree where .git is a file', () => {
    const repo = makeRepo();
    const wt = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked', wt]);
    expect(fs.statSync(path.join(wt, '.git')).isFile()).toBe(true);
    expect(commitMsg(repo, 'feat: x\n', {}, wt).status).toBe(1);
    repo.git(['commit', '--no-verify', '--allow-empty', '-q', '-m', 'docs: on main'], {});
    fs.mkdirSync(path.join(wt, 'test'));
    fs.writeFileSync(path.join(wt, 'test/a.test.ts'), 'x');
    repo.git(['add', '-A'], { cwd: wt });
    repo.git(['commit', '--no-verify', '-q', '-m', 'test: a'], { cwd: wt });
    expect(commitMsg(repo, 'feat: x\n', {}, wt).status).toBe(0);
  });

  it('is also reachable as `hestai check commit-msg FILE`', () => {
    const repo = makeRepo();
    onBranch(repo);
    fs.writeFileSync(path.join(repo.dir, 'MSG'), 'feat: x\n');
    const result = repo.hestai(['check', 'commit-msg', 'MSG']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('feat commit');
    // Through the full parser: from a subdirectory (FILE relative to it), and with --cwd from elsewhere.
    fs.mkdirSync(path.join(repo.dir, 'sub'));
    fs.writeFileSync(path.join(repo.dir, 'sub', 'MSG'), 'feat: x\n');
    const sub = repo.hestai(['check', 'commit-msg', 'MSG'], { cwd: path.join(repo.dir, 'sub') });
    expect(sub.stderr).toContain('feat commit');
    expect(sub.status).toBe(1);
    const elsewhere = repo.hestai(['--cwd', repo.dir, 'check', 'commit-msg', 'MSG'], { cwd: repo.home });
    expect(elsewhere.stderr).toContain('feat commit');
    expect(elsewhere.status).toBe(1);
  });
});

describe('commit-msg hook: a test commit must add or change a test file', () => {
  it('warns when the staged test files are only deleted or renamed, as verify does', () => {
    const repo = makeRepo();
    onBranch(repo);
    repo.commit('test: a', { 'test/a.test.ts': 'a\n'.repeat(20) });
    repo.git(['rm', '-q', 'test/a.test.ts']);
    const deleted = commitMsg(repo, 'test: drop a\n');
    expect(deleted.status).toBe(0);
    expect(deleted.stderr).toContain('only deletes or renames');
    repo.git(['reset', '-q', '--hard']);
    repo.git(['mv', 'test/a.test.ts', 'test/b.test.ts']);
    expect(commitMsg(repo, 'test: rename a\n').stderr).toContain('only deletes or renames');
    repo.write('test/b.test.ts', 'changed\n');
    repo.git(['add', '-A']);
    expect(commitMsg(repo, 'test: change b\n').stderr).not.toContain('warning');
  });
});
