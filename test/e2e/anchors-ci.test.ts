import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeRepo, sharedFixture } from '../helpers/git-repo.js';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, forgeRecord, forgedCanonical, verdictOf } from '../helpers/anchored-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

// Issue 11: every attack is run as a team would meet it: real hooks, real `git push` to a bare remote,
// and `hestai verify` in a fresh clone of that remote (what CI sees).

// The start of most tests: an adopted repository with a remote, on branch feat/x, anchored through the real
// CLI ceremony. Built once; each test gets its own copy.
const anchoredOnBranch = sharedFixture(() => {
  const repo = anchoredRepo();
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  return { repo, token: repo.anchor() };
});

describe('anchors that CI can verify', () => {
  it('an anchored commit pushed with plain git push verifies in a fresh clone: the pre-push hook published its record', () => {
    const { repo, token } = anchoredOnBranch();
    const made = repo.commitHooked('docs: anchored work', { 'docs/a.md': 'a\n' });
    expect(made.status, made.stderr).toBe(0);
    const message = repo.git(['log', '-1', '--format=%B']).stdout;
    expect(message).toContain(`HestAI-Session: ${token}`);
    expect(message).toMatch(/HestAI-Anchor: sha256:[0-9a-f]{64}/);
    const push = repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true });
    expect(push.status, push.stderr).toBe(0);
    expect(repo.git(['--git-dir', repo.remote, 'rev-parse', '--verify', 'refs/heads/hestai/anchors']).status).toBe(0);

    const clone = repo.freshClone('feat/x');
    const { status, report, stderr } = repo.verifyJson(clone);
    expect(status, stderr + JSON.stringify(report, null, 1)).toBe(0);
    expect(verdictOf(report, 'docs: anchored work', 'anchor')?.status).toBe('pass');
  });

  it('the proof record is a git blob named by its sha256 on hestai/anchors: canonical anchor, role, tier, mode, HEAD, times; acks and refreshes follow as events', () => {
    const repo = anchoredRepo();
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const token = repo.anchor();
    const anchor = JSON.parse(
      fs.readFileSync(path.join(repo.dir, '.hestai/sessions/active', token, 'anchor.json'), 'utf8'),
    ) as { record_digest: string; canonical_anchor: string; validated_at: string };
    expect(anchor.record_digest).toMatch(/^[0-9a-f]{64}$/);
    const stored = repo.git([
      'cat-file',
      'blob',
      `refs/heads/hestai/anchors:records/${anchor.record_digest}.json`,
    ]).stdout;
    expect(createHash('sha256').update(stored).digest('hex')).toBe(anchor.record_digest);
    const record = JSON.parse(stored) as Record<string, unknown>;
    expect(record).toMatchObject({
      kind: 'hestai.anchor-proof',
      session_id: token,
      role: 'implementation-lead',
      tier: 'default',
      mode: 'full',
      head,
      anchored_at: anchor.validated_at,
      canonical_anchor: anchor.canonical_anchor,
      acknowledgments: [],
      resets: [],
    });
    expect(record['context_generated_at']).toMatch(/^\d{4}-/);
    // The recorded HEAD is data in the record, not a parent of the anchors commit (issue 24): it reaches CI
    // only with the branch that contains it.
    expect(
      repo.git(['merge-base', '--is-ancestor', head, 'refs/heads/hestai/anchors'], { allowFail: true }).status,
    ).not.toBe(0);
    // An acknowledgment is accepted only for stale context: a day later.
    const dayLater = { HESTAI_NOW: new Date(Date.now() + 25 * 3_600_000).toISOString() };
    expect(repo.hestai(['ack', '--reason', 'reviewed: still accurate'], { env: dayLater }).status).toBe(0);
    expect(repo.hestai(['refresh']).status).toBe(0);
    const events = repo
      .git(['ls-tree', '-r', '--name-only', 'refs/heads/hestai/anchors', `events/${token}`])
      .stdout.trim()
      .split('\n');
    expect(events).toHaveLength(2);
    const kinds = events
      .map(
        (e) =>
          (JSON.parse(repo.git(['cat-file', 'blob', `refs/heads/hestai/anchors:${e}`]).stdout) as { event: string })
            .event,
      )
      .sort();
    expect(kinds).toEqual(['ack', 'refresh']);
  });

  it('hestai init installs the pre-push hook, plain and through husky', () => {
    const plain = makeRepo();
    expect(plain.hestai(['init', '--no-husky']).status).toBe(0);
    expect(fs.readFileSync(path.join(plain.dir, '.git/hooks/pre-push'), 'utf8')).toContain('# hestai pre-push');
    const husky = makeRepo();
    husky.write('.husky/pre-commit', 'echo lint\n');
    expect(husky.hestai(['init']).status).toBe(0);
    expect(fs.readFileSync(path.join(husky.dir, '.husky/pre-push'), 'utf8')).toContain('# hestai pre-push');
    const status = husky.hestai(['--json', 'doctor']);
    expect(status.stdout).not.toMatch(/pre-push will not run/);
  });

  it('attack: a hand-written session.json + anchor.json with a self-computed hash passes the hooks but fails verify', () => {
    const { repo } = anchoredOnBranch();
    expect(repo.commitHooked('docs: honest', { 'docs/a.md': 'a\n' }).status).toBe(0);
    // The forger writes the files the hooks read, sealed with the writer's own hash: no clock-in, no handshake.
    const fake = makeSession(repo.dir);
    const forged = repo.commitHooked('docs: forged anchor', { 'docs/b.md': 'b\n' }, { HESTAI_SESSION: fake.token });
    expect(forged.status, forged.stderr).toBe(0);
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);

    const { status, report } = repo.verifyJson(repo.freshClone('feat/x'));
    expect(status).toBe(1);
    expect(verdictOf(report, 'docs: honest', 'anchor')?.status).toBe('pass');
    const verdict = verdictOf(report, 'docs: forged anchor', 'anchor');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toMatch(/no proof record/);
    expect(verdict?.message).toMatch(/commit [0-9a-f]{7}, anchor sha256:[0-9a-f]{64}/);
    expect(verdict?.message).toContain('hint:');
  });

  it('attack: --no-verify commits with made-up trailers, or none, fail verify (verify.anchors defaults to error)', () => {
    const { repo, token } = anchoredOnBranch();
    expect(repo.commitHooked('docs: honest', { 'docs/a.md': 'a\n' }).status).toBe(0);
    repo.commit(`docs: short made-up digest\n\nHestAI-Session: ${token}\nHestAI-Anchor: sha256:0000000000000000`, {
      'docs/b.md': 'b\n',
    });
    repo.commit(`docs: long made-up digest\n\nHestAI-Session: ${token}\nHestAI-Anchor: sha256:${'0'.repeat(64)}`, {
      'docs/c.md': 'c\n',
    });
    repo.commit('docs: no trailers at all', { 'docs/d.md': 'd\n' });
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);

    const { status, report } = repo.verifyJson(repo.freshClone('feat/x'));
    expect(status).toBe(1);
    expect(verdictOf(report, 'docs: honest', 'anchor')?.status).toBe('pass');
    for (const header of ['docs: short made-up digest', 'docs: long made-up digest', 'docs: no trailers at all']) {
      expect(verdictOf(report, header, 'anchor')?.status, header).toBe('fail');
    }
    expect(verdictOf(report, 'docs: no trailers at all', 'anchor')?.message).toContain('no HestAI-Anchor trailer');
  });

  it('attack: a record forged into hestai/anchors whose citations do not exist at its HEAD, or of another session, fails', () => {
    const { repo, token } = anchoredOnBranch();
    expect(repo.commitHooked('docs: honest', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const canonical = forgedCanonical(
      [
        'L1::[NEVER_READ_THE_CODE]⇌CTX:src/does-not-exist.ts:1-9[invented]→TRIGGER[pretend]',
        'L2::[MADE_UP_RANGE]⇌CTX:README.md:40-90[invented]→TRIGGER[pretend]',
      ],
      'src/work.ts',
    );
    const digest = forgeRecord(repo, token, head, canonical);
    repo.commit(`docs: forged record\n\nHestAI-Session: ${token}\nHestAI-Anchor: sha256:${digest}`, {
      'docs/b.md': 'b\n',
    });
    repo.commit(
      `docs: someone else's record\n\nHestAI-Session: 6f1c2a8e-1b2c-4d3e-8f90-0a1b2c3d4e5f\nHestAI-Anchor: sha256:${digest}`,
      { 'docs/c.md': 'c\n' },
    );
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);

    const { status, report } = repo.verifyJson(repo.freshClone('feat/x'));
    expect(status).toBe(1);
    const forged = verdictOf(report, 'docs: forged record', 'anchor');
    expect(forged?.status).toBe('fail');
    expect(forged?.message).toContain('TENSION_CTX_NOT_FOUND');
    expect(forged?.message).toContain('TENSION_CTX_RANGE');
    expect(verdictOf(report, "docs: someone else's record", 'anchor')?.message).toMatch(/belongs to session/);
  });

  it('freshness is re-checked from the record: a commit over max_age_hours after the context generation fails until an acknowledgment is published; one before anchored_at fails', () => {
    const { repo } = anchoredOnBranch();
    expect(repo.commitHooked('docs: fresh', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const trailers = repo.git(['log', '-1', '--format=%(trailers:only,unfold)']).stdout.trim();
    const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const late = (header: string, hours: number, file: string) => {
      repo.write(file, `${header}\n`);
      repo.git(['add', '-A']);
      repo.git(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--no-verify', '-m', `${header}\n\n${trailers}`], {
        env: { GIT_COMMITTER_DATE: at(hours) },
      });
    };
    late('docs: a day later', 26, 'docs/b.md');
    late('docs: before the anchor', -2, 'docs/c.md');
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);
    const before = repo.verifyJson(repo.freshClone('feat/x')).report;
    expect(verdictOf(before, 'docs: fresh', 'anchor')?.status).toBe('pass');
    expect(verdictOf(before, 'docs: a day later', 'anchor')?.message).toMatch(
      /h old when committed, over freshness.max_age_hours 24/,
    );
    expect(verdictOf(before, 'docs: before the anchor', 'anchor')?.message).toMatch(/before the anchor was validated/);
    expect(repo.hestai(['ack', '--reason', 'still accurate a day later'], { env: { HESTAI_NOW: at(25) } }).status).toBe(
      0,
    );
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);
    const after = repo.verifyJson(repo.freshClone('feat/x')).report;
    expect(verdictOf(after, 'docs: a day later', 'anchor')?.status).toBe('pass');
    expect(verdictOf(after, 'docs: before the anchor', 'anchor')?.status).toBe('fail');
  });

  it('a clone without the anchors branch is an error naming how to fetch it, never a silent pass', () => {
    const { repo } = anchoredOnBranch();
    expect(repo.commitHooked('docs: anchored work', { 'docs/a.md': 'a\n' }).status).toBe(0);
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);
    const clone = repo.freshClone('feat/x', ['--single-branch']);
    // A single-branch clone has no origin/HEAD: the base is named, as the action does from the event.
    const base = ['--from', repo.git(['rev-parse', 'main']).stdout.trim()];
    const strict = repo.verifyJson(clone, base);
    expect(strict.status).toBe(1);
    expect(verdictOf(strict.report, 'docs: anchored work', 'anchor')?.message).toContain(
      'git fetch origin hestai/anchors',
    );
    repo.git(['fetch', '-q', 'origin', 'main:refs/remotes/origin/main'], { cwd: clone });
    const fetched = repo.git(['fetch', '-q', 'origin', 'hestai/anchors:refs/remotes/origin/hestai/anchors'], {
      cwd: clone,
      allowFail: true,
    });
    expect(fetched.status, fetched.stderr).toBe(0);
    expect(repo.verifyJson(clone, base).status).toBe(0);
  });

  it('anchors.publish: false: the pre-push hook publishes nothing and verify says the anchors cannot be checked', () => {
    const repo = anchoredRepo('anchors:\n  publish: false\n');
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.anchor();
    expect(repo.commitHooked('docs: anchored work', { 'docs/a.md': 'a\n' }).status).toBe(0);
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);
    expect(
      repo.git(['--git-dir', repo.remote, 'rev-parse', '--verify', '-q', 'refs/heads/hestai/anchors'], {
        allowFail: true,
      }).status,
    ).not.toBe(0);
    const { report } = repo.verifyJson(repo.freshClone('feat/x'));
    const verdict = verdictOf(report, 'docs: anchored work', 'anchor');
    expect(verdict?.status).toBe('warn');
    expect(verdict?.message).toContain('anchors cannot be checked');
  });
});
