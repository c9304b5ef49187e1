import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { verdictOf, type VerifyReport } from '../helpers/anchored-repo.js';

// Issue 24 item 1: the base decides, even which base. Each attack is pushed to a bare remote and judged by
// `hestai verify` (dist/) in a fresh clone, with the environment GitHub Actions gives the action.

const STRICT = 'verify:\n  anchors: off\n  trailers: off\n';

function adopted(): { repo: TempRepo; remote: string; main: string } {
  const repo = makeRepo();
  const main = repo.commit('chore: adopt', { '.hestai_workspace.yaml': STRICT });
  const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
  repo.git(['init', '-q', '--bare', remote]);
  repo.git(['remote', 'add', 'origin', remote]);
  repo.git(['push', '-q', 'origin', 'main']);
  return { repo, remote, main };
}

/** A fresh clone with every branch fetched (as actions/checkout with fetch-depth: 0). */
function freshClone(repo: TempRepo, remote: string, branch: string): string {
  const clone = path.join(tempDir('hestai-ci-'), 'clone');
  repo.git(['clone', '-q', '--branch', branch, `file://${remote}`, clone]);
  return clone;
}

/** The GitHub Actions environment for an event: GITHUB_EVENT_NAME and the event payload file. */
function eventEnv(name: string, payload: unknown): NodeJS.ProcessEnv {
  const file = path.join(tempDir('hestai-event-'), 'event.json');
  fs.writeFileSync(file, JSON.stringify(payload));
  return { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: name, GITHUB_EVENT_PATH: file };
}

function verify(repo: TempRepo, cwd: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const result = repo.hestai(['verify', '--format', 'json', ...args], { cwd, env });
  return { ...result, report: JSON.parse(result.stdout) as VerifyReport & { range: { from: string | null } } };
}

describe('the base decides which base', () => {
  it('attack: a branch that sets tdd.default_branch: no-such-branch is still judged from origin/HEAD and fails its untested feat', () => {
    const { repo, remote, main } = adopted();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('chore: my own base', {
      '.hestai_workspace.yaml': `tdd:\n  default_branch: no-such-branch\ncommit:\n  ignore: [".*"]\n${STRICT}`,
    });
    repo.commit('feat: untested', { 'src/a.ts': 'x' });
    repo.git(['push', '-q', 'origin', 'feat/x']);
    const clone = freshClone(repo, remote, 'feat/x');
    const { status, report } = verify(repo, clone);
    expect(status).toBe(1);
    expect(report.range.from).toBe(main);
    expect(verdictOf(report, 'feat: untested', 'test-first')?.status).toBe('fail');
  });

  it('attack: the same branch on the detached merge commit actions/checkout makes for a pull request fails from the event base sha', () => {
    const { repo, remote, main } = adopted();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('chore: my own base', {
      '.hestai_workspace.yaml': `tdd:\n  default_branch: no-such-branch\ncommit:\n  ignore: [".*"]\n${STRICT}`,
    });
    const head = repo.commit('feat: untested', { 'src/a.ts': 'x' });
    repo.git(['push', '-q', 'origin', 'feat/x']);
    const clone = freshClone(repo, remote, 'main');
    repo.git(['fetch', '-q', 'origin', 'feat/x'], { cwd: clone });
    repo.git(['checkout', '-q', '--detach', main], { cwd: clone });
    repo.git(['merge', '-q', '--no-ff', '--no-verify', '-m', `Merge ${head} into ${main}`, head], { cwd: clone });
    // actions/checkout does not set origin/HEAD: the event is the only source of the base.
    repo.git(['remote', 'set-head', 'origin', '-d'], { cwd: clone });
    const env = eventEnv('pull_request', { pull_request: { base: { sha: main }, head: { sha: head } } });
    const { status, report } = verify(repo, clone, [], env);
    expect(status).toBe(1);
    expect(report.range.from).toBe(main);
    expect(verdictOf(report, 'feat: untested', 'test-first')?.status).toBe('fail');
  });

  it('attack: a push straight to main that turns the checks off in its own config is judged by event.before', () => {
    const { repo, remote, main } = adopted();
    repo.commit('chore: relax', {
      '.hestai_workspace.yaml': `commit:\n  ignore: [".*"]\n${STRICT}`,
    });
    repo.commit('feat: untested', { 'src/a.ts': 'x' });
    repo.git(['push', '-q', 'origin', 'main']);
    const clone = freshClone(repo, remote, 'main');
    const env = eventEnv('push', {
      before: main,
      after: repo.git(['rev-parse', 'HEAD']).stdout.trim(),
      repository: { default_branch: 'main' },
    });
    const { status, report } = verify(repo, clone, [], env);
    expect(status).toBe(1);
    expect(report.range.from).toBe(main);
    expect(verdictOf(report, 'feat: untested', 'test-first')?.status).toBe('fail');
  });

  it('a push that creates a branch (event.before all zeros) is judged from the default branch tip', () => {
    const { repo, remote, main } = adopted();
    repo.git(['checkout', '-q', '-b', 'feat/new']);
    repo.commit('chore: relax', { '.hestai_workspace.yaml': `commit:\n  ignore: [".*"]\n${STRICT}` });
    repo.commit('feat: untested', { 'src/a.ts': 'x' });
    repo.git(['push', '-q', 'origin', 'feat/new']);
    const clone = freshClone(repo, remote, 'feat/new');
    const env = eventEnv('push', { before: '0'.repeat(40), repository: { default_branch: 'main' } });
    const { status, report } = verify(repo, clone, [], env);
    expect(status).toBe(1);
    expect(report.range.from).toBe(main);
    expect(report.commits.map((c) => c.header)).toEqual(['chore: relax', 'feat: untested']);
  });

  it('a base that cannot be resolved is an error (exit 2) with the remedy, never the branch judging itself', () => {
    const { repo, remote } = adopted();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('feat: untested', { 'src/a.ts': 'x' });
    repo.git(['push', '-q', 'origin', 'feat/x']);
    const clone = freshClone(repo, remote, 'feat/x');
    repo.git(['remote', 'set-head', 'origin', '-d'], { cwd: clone });
    const text = repo.hestai(['verify'], { cwd: clone });
    expect(text.status).toBe(2);
    expect(text.stderr).toContain('--from');
    expect(text.stderr).toContain('git remote set-head origin --auto');
    // The remedy works.
    expect(repo.git(['remote', 'set-head', 'origin', '--auto'], { cwd: clone }).status).toBe(0);
    expect(repo.hestai(['verify'], { cwd: clone }).status).toBe(1);
    const event = eventEnv('pull_request', { pull_request: { base: { sha: 'f'.repeat(40) } } });
    const missing = repo.hestai(['verify'], { cwd: clone, env: event });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('fetch-depth: 0');
  });

  it('auditing the default branch from tdd.since reads the policy from --policy (what .ci/run does)', () => {
    const repo = makeRepo();
    const old = repo.commit('feat: before adoption');
    repo.commit('chore: adopt', { '.hestai_workspace.yaml': `tdd:\n  since: ${old}\n${STRICT}` });
    repo.commit('test: a', { 'test/a.test.ts': 'x' });
    repo.commit('feat: a', { 'src/a.ts': 'x' });
    const ok = verify(repo, repo.dir, ['--from', old, '--policy', 'HEAD']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.report.commits.map((c) => c.header)).toEqual(['chore: adopt', 'test: a', 'feat: a']);
    // Without --policy the base (a tree with no config) judges: the defaults want trailers.
    expect(verify(repo, repo.dir, ['--from', old]).status).toBe(1);
  });
});
