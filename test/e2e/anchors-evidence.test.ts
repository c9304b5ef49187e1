import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, verdictOf, type AnchoredRepo, type VerifyReport } from '../helpers/anchored-repo.js';
import { makeRepo, PROJECT_ROOT, sharedFixture, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 39: hestai/anchors is read as history, with bounded reads. Each attack is a real push by another
// person (a clone of the remote with its own identity, no hooks) to the bare remote, and verify runs in a
// fresh clone as action.yml runs it.

type Report = VerifyReport & { evidence_warnings?: { path: string; message: string; commit?: string }[] };

const MALLORY = {
  GIT_AUTHOR_NAME: 'Mallory',
  GIT_AUTHOR_EMAIL: 'mallory@evil.invalid',
  GIT_COMMITTER_NAME: 'Mallory',
  GIT_COMMITTER_EMAIL: 'mallory@evil.invalid',
};

/**
 * Mallory clones `remote`, checks out hestai/anchors, lets `change` edit its worktree and pushes one
 * ordinary fast-forward commit of it. Returns that commit.
 */
function mallory(repo: TempRepo, remote: string, change: (dir: string) => void): string {
  const dir = path.join(tempDir('hestai-mallory-'), 'clone');
  repo.git(['clone', '-q', '--branch', 'hestai/anchors', `file://${remote}`, dir]);
  change(dir);
  repo.git(['add', '-A'], { cwd: dir });
  repo.git(['commit', '-q', '--no-verify', '-m', 'tidy up the anchors'], { cwd: dir, env: MALLORY });
  const push = repo.git(['push', '-q', 'origin', 'hestai/anchors'], { cwd: dir, allowFail: true });
  expect(push.status, push.stderr).toBe(0);
  return repo.git(['rev-parse', 'HEAD'], { cwd: dir }).stdout.trim();
}

/** Verify in a fresh clone of feat/x, with the anchors fetched as action.yml fetches them. */
function ci(repo: AnchoredRepo): { status: number; report: Report; stderr: string; clone: string } {
  const clone = repo.freshClone('feat/x');
  repo.git(['fetch', '-q', '--no-tags', 'origin', '+refs/heads/hestai/anchors:refs/remotes/origin/hestai/anchors'], {
    cwd: clone,
  });
  return { ...repo.verifyJson(clone), clone } as { status: number; report: Report; stderr: string; clone: string };
}

const warningsAbout = (report: Report, text: string) =>
  (report.evidence_warnings ?? []).filter((w) => w.path.includes(text) || w.message.includes(text));

/** feat/x anchored through the real ceremony, one commit pushed with the hooks: its record is on the remote. */
const pushedBranch = sharedFixture(() => {
  const repo = anchoredRepo();
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  const token = repo.anchor();
  const made = repo.commitHooked('docs: honest work', { 'docs/a.md': 'a\n' });
  expect(made.status, made.stderr).toBe(0);
  const push = repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true });
  expect(push.status, push.stderr).toBe(0);
  const digest = /HestAI-Anchor: sha256:([0-9a-f]{64})/.exec(repo.git(['log', '-1', '--format=%B']).stdout)![1]!;
  return { repo, token, digest };
});

describe('hestai/anchors is history: a published record stays evidence', () => {
  it('attack: a fast-forward commit deleting a colleague’s records/<digest>.json leaves their branch passing, with a warning naming the commit and its author', () => {
    const { repo, digest } = pushedBranch();
    expect(ci(repo).status).toBe(0);
    const bad = mallory(repo, repo.remote, (dir) => fs.rmSync(path.join(dir, `records/${digest}.json`)));
    const { status, report, stderr } = ci(repo);
    expect(verdictOf(report, 'docs: honest work', 'anchor')?.status, stderr + JSON.stringify(report, null, 1)).toBe(
      'pass',
    );
    expect(status).toBe(0);
    const [warning] = warningsAbout(report, `records/${digest}.json`);
    expect(warning?.message).toContain(bad.slice(0, 7));
    expect(warning?.message).toContain('Mallory');
    expect(warning?.message).toMatch(/delete/);
    expect(report.warnings).toBeGreaterThanOrEqual(1);
  });

  it('attack: a fast-forward merge whose first parent is an empty orphan drops every file; the records still count and the loss is named', () => {
    const { repo, digest } = pushedBranch();
    const dir = path.join(tempDir('hestai-mallory-'), 'clone');
    repo.git(['clone', '-q', '--branch', 'hestai/anchors', `file://${repo.remote}`, dir]);
    const empty = repo.git(['hash-object', '-t', 'tree', '-w', '--stdin'], { cwd: dir, input: '' }).stdout.trim();
    const orphan = repo.git(['commit-tree', empty, '-m', 'start over'], { cwd: dir, env: MALLORY }).stdout.trim();
    const merge = repo.git(['commit-tree', empty, '-p', orphan, '-p', 'HEAD', '-m', 'merge'], {
      cwd: dir,
      env: MALLORY,
    });
    repo.git(['push', '-q', 'origin', `${merge.stdout.trim()}:refs/heads/hestai/anchors`], { cwd: dir });
    const { status, report } = ci(repo);
    expect(verdictOf(report, 'docs: honest work', 'anchor')?.status, JSON.stringify(report, null, 1)).toBe('pass');
    expect(status).toBe(0);
    expect(warningsAbout(report, `records/${digest}.json`)[0]?.message).toMatch(/absent from .*hestai\/anchors/);
  });

  it('attack: overwriting the record in place (same path, other bytes) changes nothing either, and is named', () => {
    const { repo, digest } = pushedBranch();
    const bad = mallory(repo, repo.remote, (dir) => fs.writeFileSync(path.join(dir, `records/${digest}.json`), '{}'));
    const { status, report } = ci(repo);
    expect(verdictOf(report, 'docs: honest work', 'anchor')?.status).toBe('pass');
    expect(status).toBe(0);
    expect(warningsAbout(report, `records/${digest}.json`)[0]?.message).toContain(bad.slice(0, 7));
  });
});

describe('bounded reads: every blob read from hestai/anchors is size-checked and validated first', () => {
  it('attack: a compressible blob over the 1 MiB cap under the victim’s events/ is skipped with a warning naming its path and size; verify and report pass', () => {
    const { repo, token } = pushedBranch();
    // Spaces: a few KB packed, 3 MiB read. The 560 MB blob took verify over 588 s before the cap.
    const size = 3 * 1024 * 1024;
    const name = `events/${token}/${'e'.repeat(64)}.json`;
    mallory(repo, repo.remote, (dir) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), ' '.repeat(size));
    });
    const { status, report, clone } = ci(repo);
    expect(verdictOf(report, 'docs: honest work', 'anchor')?.status).toBe('pass');
    expect(status).toBe(0);
    const [warning] = warningsAbout(report, name);
    expect(warning?.message).toContain(String(size));
    expect(warning?.message).toMatch(/1 MiB/);
    const html = path.join(tempDir(), 'report.html');
    const page = repo.hestai(['report', '--out', html], { cwd: clone });
    expect(page.status, page.stderr).toBe(0);
  });

  it('attack: an event with "reason": {} under the victim’s session is skipped with a warning naming it; hestai report no longer crashes', () => {
    const { repo, token } = pushedBranch();
    const event = JSON.stringify({
      at: new Date().toISOString(),
      context_generated_at: new Date().toISOString(),
      event: 'ack',
      kind: 'hestai.anchor-event',
      reason: {},
      session_id: token,
      version: 1,
    });
    const name = `events/${token}/${createHash('sha256').update(event).digest('hex')}.json`;
    mallory(repo, repo.remote, (dir) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), event);
    });
    const { status, report, clone } = ci(repo);
    expect(status).toBe(0);
    expect(warningsAbout(report, name)[0]?.message).toMatch(/reason/);
    const html = path.join(tempDir(), 'report.html');
    const page = repo.hestai(['report', '--out', html], { cwd: clone });
    expect(page.status, page.stderr).toBe(0);
    const summary = repo.hestai(['report', '--format', 'markdown'], { cwd: clone });
    expect(summary.status, summary.stderr).toBe(0);
  });
});

// The squash-merge platform of test/e2e/verify-squash-evidence.test.ts: a developer pushes a test-first branch
// with the real pre-push hook (which publishes its change record), the platform squashes it onto main.
const SQUASH_CONFIG = 'verify:\n  trailers: off\n  anchors: off\n';
function squashPlatform(): { dev: TempRepo; remote: string; before: string; tip: string } {
  const dev = makeRepo();
  const remote = path.join(tempDir(), 'remote.git');
  dev.git(['init', '-q', '--bare', '-b', 'main', remote]);
  dev.git(['remote', 'add', 'origin', remote]);
  const hook = path.join(dev.dir, '.git/hooks/pre-push');
  fs.writeFileSync(hook, `#!/bin/sh\nexec node ${JSON.stringify(path.join(PROJECT_ROOT, 'hooks/pre-push'))} "$@"\n`);
  fs.chmodSync(hook, 0o755);
  dev.commit('chore: config', { '.hestai_workspace.yaml': SQUASH_CONFIG });
  dev.git(['push', '-q', 'origin', 'main']);
  dev.git(['checkout', '-q', '-b', 'feat/json']);
  dev.commit('test(cli): --json prints one document', { 'packages/cli/test/json.test.ts': 'x' });
  const tip = dev.commit('feat(cli): --json prints one document', { 'packages/cli/src/json.ts': 'x' });
  const push = dev.git(['push', '-q', 'origin', 'feat/json'], { allowFail: true });
  expect(push.status, push.stderr).toBe(0);
  const work = path.join(tempDir(), 'platform');
  dev.git(['clone', '-q', '--no-local', remote, work]);
  const before = dev.git(['rev-parse', 'HEAD'], { cwd: work }).stdout.trim();
  dev.git(['merge', '-q', '--squash', 'origin/feat/json'], { cwd: work });
  dev.git(['commit', '-q', '--no-verify', '-m', 'feat(cli): --json prints one document (#12)'], { cwd: work });
  dev.git(['push', '-q', '--no-verify', 'origin', 'main'], { cwd: work });
  return { dev, remote, before, tip };
}

describe('change records are read from history too', () => {
  it('attack: overwriting changes/<tip>.json keeps the squash passing by the record as first published, with a warning naming the overwrite', () => {
    const { dev, remote, before, tip } = squashPlatform();
    const bad = mallory(dev, remote, (dir) => {
      const file = path.join(dir, `changes/${tip}.json`);
      const record = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(file, `${JSON.stringify({ ...record, base: null, patch_id: null, tree: '0'.repeat(40) })}\n`);
    });
    const clone = path.join(tempDir(), 'ci');
    dev.git(['clone', '-q', '--no-local', remote, clone]);
    dev.git(['fetch', '-q', 'origin', '+refs/heads/hestai/anchors:refs/remotes/origin/hestai/anchors'], { cwd: clone });
    const result = dev.hestai(['verify', '--format', 'json', '--from', before, '--to', 'HEAD'], { cwd: clone });
    const report = JSON.parse(result.stdout) as Report;
    const squash = verdictOf(report, 'feat(cli): --json prints one document (#12)', 'test-first');
    expect(squash?.status, JSON.stringify(report, null, 1)).toBe('pass');
    expect(result.status).toBe(0);
    const [warning] = warningsAbout(report, `changes/${tip}.json`);
    expect(warning?.message).toContain(bad.slice(0, 7));
    expect(warning?.message).toContain('Mallory');
  });
});
