import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir, type TempRepo } from '../helpers/git-repo.js';

interface Verdict {
  rule: string;
  status: string;
  message: string;
  squash_of?: { tip: string; commits: number; matched_by: string };
}
interface Report {
  ok: boolean;
  commits: { sha: string; header: string; verdicts: Verdict[] }[];
}
const testFirst = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'test-first');

const CONFIG = 'verify:\n  trailers: off\n  anchors: off\n';

/**
 * A developer's clone with the real pre-push hook, pushing to a bare remote (the platform), which squashes
 * or rebases the pull request's branch onto main; CI then verifies main's push in a fresh clone.
 */
function platform(): { dev: TempRepo; remote: string; ci: (from: string) => { status: number; report: Report } } {
  const dev = makeRepo();
  const remote = path.join(tempDir(), 'remote.git');
  dev.git(['init', '-q', '--bare', '-b', 'main', remote]);
  dev.git(['remote', 'add', 'origin', remote]);
  const hook = path.join(dev.dir, '.git/hooks/pre-push');
  fs.writeFileSync(hook, `#!/bin/sh\nexec node ${JSON.stringify(path.join(PROJECT_ROOT, 'hooks/pre-push'))} "$@"\n`);
  fs.chmodSync(hook, 0o755);
  dev.commit('chore: config', { '.hestai_workspace.yaml': CONFIG });
  dev.git(['push', '-q', 'origin', 'main']);
  const ci = (from: string) => {
    const clone = path.join(tempDir(), 'ci');
    dev.git(['clone', '-q', '--no-local', remote, clone]);
    dev.git(['fetch', '-q', 'origin', 'refs/heads/hestai/anchors:refs/remotes/origin/hestai/anchors'], {
      cwd: clone,
      allowFail: true,
    });
    const result = dev.hestai(['verify', '--format', 'json', '--from', from, '--to', 'HEAD'], { cwd: clone });
    return { status: result.status, report: JSON.parse(result.stdout) as Report };
  };
  return { dev, remote, ci };
}

/** The platform squashes `branch` onto main (in a scratch clone of the remote) and pushes main. */
function squashOnPlatform(remote: string, dev: TempRepo, branch: string, header: string): string {
  const work = path.join(tempDir(), 'platform');
  dev.git(['clone', '-q', '--no-local', remote, work]);
  const git = (args: string[]) => dev.git(args, { cwd: work });
  const before = git(['rev-parse', 'HEAD']).stdout.trim();
  git(['merge', '-q', '--squash', `origin/${branch}`]);
  git(['commit', '-q', '--no-verify', '-m', header]);
  git(['push', '-q', '--no-verify', 'origin', 'main']);
  return before;
}

describe('the squash of a branch verified test-first passes on the default branch, by the change record of its push', () => {
  it('a squash (real git merge --squash) of a test-first branch whose push published its change record passes', () => {
    const { dev, remote, ci } = platform();
    dev.git(['checkout', '-q', '-b', 'feat/json']);
    dev.commit('test(cli): --json prints one document', { 'packages/cli/test/json.test.ts': 'x' });
    dev.commit('feat(cli): --json prints one document', { 'packages/cli/src/json.ts': 'x' });
    const push = dev.git(['push', '-q', 'origin', 'feat/json'], { allowFail: true });
    expect(push.status, push.stderr).toBe(0);
    const before = squashOnPlatform(remote, dev, 'feat/json', 'feat(cli): --json prints one document (#12)');
    const { status, report } = ci(before);
    const v = testFirst(report, 'feat(cli): --json prints one document (#12)');
    expect(v?.status, JSON.stringify(report, null, 1)).toBe('pass');
    expect(v?.squash_of).toMatchObject({ commits: 2, matched_by: 'tree' });
    expect(status).toBe(0);
  });

  it('matched by git patch-id when main moved on before the squash', () => {
    const { dev, remote, ci } = platform();
    dev.git(['checkout', '-q', '-b', 'feat/json']);
    dev.commit('test(cli): --json', { 'packages/cli/test/json.test.ts': 'x' });
    dev.commit('feat(cli): --json', { 'packages/cli/src/json.ts': 'x' });
    dev.git(['push', '-q', 'origin', 'feat/json']);
    // main moves on (another pull request) before this one is squashed: the trees differ, the change does not
    const work = path.join(tempDir(), 'mover');
    dev.git(['clone', '-q', '--no-local', remote, work]);
    fs.writeFileSync(path.join(work, 'NOTES.md'), 'x\n');
    dev.git(['add', '-A'], { cwd: work });
    dev.git(['commit', '-q', '--no-verify', '-m', 'docs: notes'], { cwd: work });
    dev.git(['push', '-q', '--no-verify', 'origin', 'main'], { cwd: work });
    const base = squashOnPlatform(remote, dev, 'feat/json', 'feat(cli): --json, after notes (#12)');
    const { report } = ci(base);
    const v = testFirst(report, 'feat(cli): --json, after notes (#12)');
    expect(v?.status, JSON.stringify(report, null, 1)).toBe('pass');
    expect(v?.squash_of?.matched_by).toBe('patch-id');
  });

  it('not otherwise: a squash of a branch that was not test-first, or of one never pushed with the hook, fails', () => {
    const { dev, remote, ci } = platform();
    dev.git(['checkout', '-q', '-b', 'feat/untested']);
    dev.commit('feat(cli): --yaml', { 'packages/cli/src/yaml.ts': 'x' });
    dev.commit('test(cli): --yaml', { 'packages/cli/test/yaml.test.ts': 'x' });
    dev.git(['push', '-q', 'origin', 'feat/untested']);
    const before = squashOnPlatform(remote, dev, 'feat/untested', 'feat(cli): --yaml (#13)');
    const { status, report } = ci(before);
    expect(testFirst(report, 'feat(cli): --yaml (#13)')?.status).toBe('fail');
    expect(status).toBe(1);

    dev.git(['checkout', '-q', 'main']);
    dev.git(['pull', '-q', 'origin', 'main']);
    dev.git(['checkout', '-q', '-b', 'feat/unpublished']);
    dev.commit('test(cli): --toml', { 'packages/cli/test/toml.test.ts': 'x' });
    dev.commit('feat(cli): --toml', { 'packages/cli/src/toml.ts': 'x' });
    dev.git(['push', '-q', '--no-verify', 'origin', 'feat/unpublished']);
    const again = squashOnPlatform(remote, dev, 'feat/unpublished', 'feat(cli): --toml (#14)');
    expect(testFirst(ci(again).report, 'feat(cli): --toml (#14)')?.status).toBe('fail');
  });

  it('a rebase merge keeps each commit test-first: verify of the push passes', () => {
    const { dev, remote, ci } = platform();
    dev.git(['checkout', '-q', '-b', 'feat/json']);
    dev.commit('test(cli): --json', { 'packages/cli/test/json.test.ts': 'x' });
    dev.commit('feat(cli): --json', { 'packages/cli/src/json.ts': 'x' });
    const work = path.join(tempDir(), 'platform');
    dev.git(['clone', '-q', '--no-local', remote, work]);
    fs.writeFileSync(path.join(work, 'NOTES.md'), 'x\n');
    dev.git(['add', '-A'], { cwd: work });
    dev.git(['commit', '-q', '--no-verify', '-m', 'docs: notes'], { cwd: work });
    dev.git(['push', '-q', 'origin', 'main'], { cwd: work });
    dev.git(['push', '-q', '--no-verify', 'origin', 'feat/json']);
    dev.git(['fetch', '-q', 'origin'], { cwd: work });
    const before = dev.git(['rev-parse', 'HEAD'], { cwd: work }).stdout.trim();
    dev.git(['checkout', '-q', '-b', 'rebased', 'origin/feat/json'], { cwd: work });
    dev.git(['rebase', '-q', 'main'], { cwd: work });
    dev.git(['checkout', '-q', 'main'], { cwd: work });
    dev.git(['merge', '-q', '--ff-only', 'rebased'], { cwd: work });
    dev.git(['push', '-q', 'origin', 'main'], { cwd: work });
    const { status, report } = ci(before);
    expect(report.commits.map((c) => c.header)).toEqual(['test(cli): --json', 'feat(cli): --json']);
    expect(status).toBe(0);
  });
});
