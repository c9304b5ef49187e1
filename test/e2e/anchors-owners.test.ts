import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, verdictOf, type AnchoredRepo, type VerifyReport } from '../helpers/anchored-repo.js';
import { sharedFixture, tempDir } from '../helpers/git-repo.js';

// Issue 39 items 3 and 4: evidence with an owner. Two developers with real ssh keys made by ssh-keygen: Alice,
// whom the base's .hestai/allowed_signers lists, and Mallory, whom it does not. Each attack is a real push to a
// bare remote and verify runs in a fresh clone as action.yml runs it, first under verify.signatures: warn, then
// after the base moves to required.

type Verdict = { rule: string; status: string; message: string; owner?: { signer: string | null; key: string } };
type Report = VerifyReport & {
  commits: { sha: string; header: string; verdicts: Verdict[] }[];
  evidence_warnings?: { path: string; message: string }[];
};

const MALLORY = {
  GIT_AUTHOR_NAME: 'Mallory',
  GIT_AUTHOR_EMAIL: 'mallory@evil.invalid',
  GIT_COMMITTER_NAME: 'Mallory',
  GIT_COMMITTER_EMAIL: 'mallory@evil.invalid',
};

function sshKey(dir: string, name: string): string {
  const file = path.join(dir, name);
  const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  return file;
}

/** Verify in a fresh clone of `branch`, with the anchors fetched as action.yml fetches them. */
function ci(repo: AnchoredRepo, branch: string): { status: number; report: Report; stderr: string } {
  const clone = repo.freshClone(branch);
  repo.git(['fetch', '-q', '--no-tags', 'origin', '+refs/heads/hestai/anchors:refs/remotes/origin/hestai/anchors'], {
    cwd: clone,
  });
  return repo.verifyJson(clone) as { status: number; report: Report; stderr: string };
}

/** The base moves to `verify.signatures: required` (a commit on main, pushed). */
function requireSignatures(repo: AnchoredRepo, back: string): void {
  repo.git(['checkout', '-q', 'main']);
  const file = path.join(repo.dir, '.hestai_workspace.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('signatures: warn', 'signatures: required'));
  repo.git(['commit', '-q', '--no-verify', '-am', 'chore: require signed evidence']);
  repo.git(['push', '-q', '--no-verify', 'origin', 'main']);
  repo.git(['checkout', '-q', back]);
}

const sig = (report: Report, header: string) => verdictOf(report, header, 'signature') as Verdict | undefined;

/** Alice's branch, anchored and pushed through the hooks with her key; the base lists her key under `warn`. */
const honest = sharedFixture(() => {
  const keys = tempDir('hestai-keys-');
  const alice = sshKey(keys, 'alice');
  const mallory = sshKey(keys, 'mallory');
  const repo = anchoredRepo('verify:\n  signatures: warn\n');
  repo.git(['config', 'gpg.format', 'ssh']);
  repo.git(['config', 'user.signingkey', `${alice}.pub`]);
  repo.write('.hestai/allowed_signers', `alice@example.invalid ${fs.readFileSync(`${alice}.pub`, 'utf8')}`);
  repo.git(['add', '.hestai/allowed_signers']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: alice signs evidence']);
  repo.git(['push', '-q', '--no-verify', 'origin', 'main']);
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  const token = repo.anchor();
  const made = repo.commitHooked('docs: honest work', { 'docs/a.md': 'a\n' });
  expect(made.status, made.stderr).toBe(0);
  const push = repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true });
  expect(push.status, push.stderr).toBe(0);
  const digest = /HestAI-Anchor: sha256:([0-9a-f]{64})/.exec(repo.git(['log', '-1', '--format=%B']).stdout)![1]!;
  return { repo, token, digest, mallory };
});

/** Mallory at the same machine: her key signs, her name commits; Alice's session is clocked out. */
function becomeMallory(repo: AnchoredRepo, token: string, key: string): void {
  repo.hestai(['clock-out', '--session', token]);
  repo.git(['config', 'user.signingkey', `${key}.pub`]);
  repo.git(['config', 'user.name', 'Mallory']);
  repo.git(['config', 'user.email', 'mallory@evil.invalid']);
}

describe('signed evidence: verify.signatures with the base’s allowed signers', () => {
  it('the honest branch passes under warn and under required; the signature verdict names its owner', () => {
    const { repo } = honest();
    for (const mode of ['warn', 'required']) {
      if (mode === 'required') requireSignatures(repo, 'feat/x');
      const { status, report, stderr } = ci(repo, 'feat/x');
      const v = sig(report, 'docs: honest work');
      expect(v?.status, `${mode}: ${stderr}${JSON.stringify(report, null, 1)}`).toBe('pass');
      expect(v?.owner?.signer).toBe('alice@example.invalid');
      expect(v?.owner?.key).toMatch(/^SHA256:/);
      expect(status).toBe(0);
    }
  });

  it('attack: a record signed by a key the base does not list warns under warn and fails under required, naming the commit, the record and the reason', () => {
    const { repo, token, mallory } = honest();
    becomeMallory(repo, token, mallory);
    repo.git(['checkout', '-q', 'main']);
    repo.git(['checkout', '-q', '-b', 'feat/m']);
    repo.anchor();
    expect(repo.commitHooked('docs: mallory work', { 'docs/m.md': 'm\n' }).status).toBe(0);
    expect(repo.git(['push', '-q', 'origin', 'feat/m'], { allowFail: true }).status).toBe(0);
    const sha = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const digest = /HestAI-Anchor: sha256:([0-9a-f]{64})/.exec(repo.git(['log', '-1', '--format=%B']).stdout)![1]!;
    const warned = ci(repo, 'feat/m');
    expect(sig(warned.report, 'docs: mallory work')?.status, warned.stderr).toBe('warn');
    expect(warned.status).toBe(0);
    requireSignatures(repo, 'feat/m');
    const { status, report } = ci(repo, 'feat/m');
    const v = sig(report, 'docs: mallory work');
    expect(v?.status).toBe('fail');
    expect(v?.message).toContain(sha.slice(0, 7));
    expect(v?.message).toContain(`records/${digest}.json`);
    expect(v?.message).toMatch(/allowed_signers at the base does not list/);
    expect(status).toBe(1);
  });

  it('attack: Alice’s trailers replayed on a commit forked from her record’s HEAD, pushed with the hooks under Mallory’s key, warn under warn and fail under required', () => {
    const { repo, token, digest, mallory } = honest();
    const recordHead = repo.git(['rev-parse', 'main~0']).stdout.trim();
    const trailers = repo.git(['log', '-1', '--format=%(trailers:only,unfold)', 'feat/x']).stdout.trim();
    becomeMallory(repo, token, mallory);
    repo.git(['checkout', '-q', '-b', 'feat/r', recordHead]);
    repo.write('docs/r.md', 'replayed\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', `docs: replayed work\n\n${trailers}`], { env: MALLORY });
    expect(repo.git(['log', '-1', '--format=%B']).stdout).toContain(`sha256:${digest}`);
    expect(repo.git(['push', '-q', 'origin', 'feat/r'], { allowFail: true }).status).toBe(0);
    const warned = ci(repo, 'feat/r');
    expect(verdictOf(warned.report, 'docs: replayed work', 'anchor')?.status, warned.stderr).toBe('pass');
    expect(sig(warned.report, 'docs: replayed work')?.status).toBe('warn');
    requireSignatures(repo, 'feat/r');
    const { status, report } = ci(repo, 'feat/r');
    const v = sig(report, 'docs: replayed work');
    expect(v?.status).toBe('fail');
    expect(v?.message).toMatch(/no coverage record signed by the session's owner alice@example\.invalid/);
    expect(status).toBe(1);
  });

  it('attack: a forged INCOMPLETE protocol run for Alice’s session warns under warn; under required it does not count and her branch passes', () => {
    const { repo, token } = honest();
    const run = JSON.stringify({
      commit_sha: null,
      commits: [],
      ended_at: new Date().toISOString(),
      forced: ['BINDING/read_context'],
      kind: 'hestai.protocol-run',
      outcome: 'INCOMPLETE',
      protocol_sha256: 'f'.repeat(64),
      session_id: token,
      started_at: new Date(Date.now() - 60_000).toISOString(),
      starting_commit: null,
      version: 1,
      violations: [{ phase: 'BINDING', requirement: 'read_context', severity: 'MUST' }],
    });
    const name = `protocol/${token}/${createHash('sha256').update(run).digest('hex')}.json`;
    const dir = path.join(tempDir('hestai-mallory-'), 'clone');
    repo.git(['clone', '-q', '--branch', 'hestai/anchors', `file://${repo.remote}`, dir]);
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), run);
    repo.git(['add', '-A'], { cwd: dir });
    repo.git(['commit', '-q', '--no-verify', '-m', `hestai: protocol run ${token} (INCOMPLETE)`], {
      cwd: dir,
      env: MALLORY,
    });
    expect(repo.git(['push', '-q', 'origin', 'hestai/anchors'], { cwd: dir, allowFail: true }).status).toBe(0);
    const warned = ci(repo, 'feat/x');
    expect(verdictOf(warned.report, 'docs: honest work', 'protocol')?.status, warned.stderr).toBe('warn');
    const w = sig(warned.report, 'docs: honest work');
    expect(w?.status).toBe('warn');
    expect(w?.message).toContain(name);
    requireSignatures(repo, 'feat/x');
    const { status, report } = ci(repo, 'feat/x');
    expect(verdictOf(report, 'docs: honest work', 'protocol')).toBeUndefined();
    expect(sig(report, 'docs: honest work')?.message).toMatch(/does not count/);
    expect(report.commits.flatMap((c) => c.verdicts).filter((x) => x.status === 'fail')).toEqual([]);
    expect(status).toBe(0);
  });

  it('a rebase-merge and a squash of Alice’s branch by the host, onto a main that moved, stay covered under required (by patch-id)', () => {
    const { repo } = honest();
    requireSignatures(repo, 'feat/x');
    const before = repo.git(['rev-parse', 'main']).stdout.trim();
    const host = path.join(tempDir('hestai-host-'), 'clone');
    repo.git(['clone', '-q', `file://${repo.remote}`, host]);
    const HOST = { ...MALLORY, GIT_COMMITTER_NAME: 'Host', GIT_COMMITTER_EMAIL: 'host@example.invalid' };
    repo.git(['checkout', '-q', '-b', 'rebased', 'origin/feat/x'], { cwd: host });
    repo.git(['rebase', '-q', 'origin/main'], { cwd: host, env: HOST });
    repo.git(['push', '-q', '--no-verify', 'origin', 'rebased:refs/heads/rebased'], { cwd: host });
    const message = repo.git(['log', '-1', '--format=%B', 'origin/feat/x'], { cwd: host }).stdout;
    repo.git(['checkout', '-q', '-b', 'squashed', 'origin/main'], { cwd: host });
    repo.git(['merge', '-q', '--squash', 'origin/feat/x'], { cwd: host, env: HOST });
    repo.git(['commit', '-q', '--no-verify', '-m', message.replace('docs: honest work', 'docs: honest work (#1)')], {
      cwd: host,
      env: HOST,
    });
    repo.git(['push', '-q', '--no-verify', 'origin', 'squashed:refs/heads/squashed'], { cwd: host });
    for (const [branch, header] of [
      ['rebased', 'docs: honest work'],
      ['squashed', 'docs: honest work (#1)'],
    ] as const) {
      const clone = repo.freshClone(branch);
      repo.git(
        ['fetch', '-q', '--no-tags', 'origin', '+refs/heads/hestai/anchors:refs/remotes/origin/hestai/anchors'],
        {
          cwd: clone,
        },
      );
      const { report, stderr } = repo.verifyJson(clone, ['--from', before]);
      const v = sig(report as Report, header);
      expect(v?.status, `${branch}: ${stderr}${JSON.stringify(report, null, 1)}`).toBe('pass');
    }
  });
});
