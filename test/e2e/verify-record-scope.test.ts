import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, verdictOf, type AnchoredRepo } from '../helpers/anchored-repo.js';

// Issue 24 item 4: a proof record is good only for the commits it can honestly cover. Each attack is pushed
// to a bare remote and judged by `hestai verify` (dist/) in a fresh clone of it, as CI runs it.

const CONSTITUTION = '.hestai-sys/agents/implementation-lead.oct.md';

/** The stored record an honest anchor published (the session's last record on hestai/anchors). */
function honestRecord(repo: AnchoredRepo, token: string): Record<string, unknown> {
  const files = repo
    .git(['ls-tree', '-r', '--name-only', 'refs/heads/hestai/anchors', 'records/'])
    .stdout.trim()
    .split('\n');
  for (const file of files) {
    const record = JSON.parse(repo.git(['cat-file', 'blob', `refs/heads/hestai/anchors:${file}`]).stdout) as Record<
      string,
      unknown
    >;
    if (record['session_id'] === token) return record;
  }
  throw new Error(`no record of session ${token}`);
}

/** Publishes `record` into hestai/anchors by hand (no hook, no validation), as a forger would; returns its digest. */
function publish(repo: AnchoredRepo, record: Record<string, unknown>): string {
  const bytes = JSON.stringify(
    Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((k) => [k, record[k]]),
    ),
  );
  const digest = createHash('sha256').update(bytes).digest('hex');
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: bytes }).stdout.trim();
  const tip = repo.git(['rev-parse', 'refs/heads/hestai/anchors']).stdout.trim();
  const env = { GIT_INDEX_FILE: `${repo.dir}/.git/forge-index` };
  repo.git(['read-tree', tip], { env });
  repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},records/${digest}.json`], { env });
  const tree = repo.git(['write-tree'], { env }).stdout.trim();
  repo.git([
    'update-ref',
    'refs/heads/hestai/anchors',
    repo.git(['commit-tree', tree, '-p', tip, '-m', 'forged']).stdout.trim(),
  ]);
  return digest;
}

/** A --no-verify commit carrying `token`'s session and the record `digest`. */
function cite(repo: AnchoredRepo, header: string, token: string, digest: string, file: string): void {
  repo.commit(`${header}\n\nHestAI-Session: ${token}\nHestAI-Anchor: sha256:${digest}`, { [file]: `${header}\n` });
}

describe('a record covers only the commits that descend from its HEAD', () => {
  it('attack: a record whose HEAD is a fabricated orphan commit (empty constitution) or a commit of another branch fails for the commits citing it', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const token = repo.anchor();
    expect(repo.commitHooked('docs: honest', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const honest = honestRecord(repo, token);

    // An orphan commit with a tree the forger chose: every cited file, and an empty constitution.
    const env = { GIT_INDEX_FILE: `${repo.dir}/.git/orphan-index` };
    repo.git(['read-tree', 'HEAD'], { env });
    const empty = repo.git(['hash-object', '-w', '--stdin'], { input: '' }).stdout.trim();
    repo.git(['update-index', '--cacheinfo', `100644,${empty},${CONSTITUTION}`], { env });
    const orphan = repo
      .git(['commit-tree', repo.git(['write-tree'], { env }).stdout.trim(), '-m', 'chore: scratch'])
      .stdout.trim();
    repo.git(['update-ref', 'refs/heads/scratch', orphan]);
    // A real commit of the repository, on a branch the cited commits do not descend from.
    repo.git(['checkout', '-q', '-b', 'side', 'main']);
    const side = repo.commit('docs: elsewhere', { 'docs/side.md': 'side\n' });
    repo.git(['checkout', '-q', 'feat/x']);

    cite(repo, 'docs: cites an orphan HEAD', token, publish(repo, { ...honest, head: orphan }), 'docs/b.md');
    cite(repo, 'docs: cites a HEAD on another branch', token, publish(repo, { ...honest, head: side }), 'docs/c.md');
    for (const ref of ['scratch', 'side', 'feat/x'])
      expect(repo.git(['push', '-q', 'origin', ref], { allowFail: true }).status).toBe(0);

    const { status, report } = repo.verifyJson(repo.freshClone('feat/x'));
    expect(status, JSON.stringify(report, null, 1)).toBe(1);
    expect(verdictOf(report, 'docs: honest', 'anchor')?.status).toBe('pass');
    for (const header of ['docs: cites an orphan HEAD', 'docs: cites a HEAD on another branch']) {
      const verdict = verdictOf(report, header, 'anchor');
      expect(verdict?.status, header).toBe('fail');
      expect(verdict?.message, header).toMatch(/is not an ancestor of the commit/);
    }
  });
});

describe('committer time does not go back along first-parent history beyond the skew (1 h)', () => {
  it('attack: the trailers of a published commit copied onto a new commit with a backdated committer date fail; a clock a few minutes behind passes', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.anchor();
    expect(repo.commitHooked('docs: honest', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const trailers = repo.git(['log', '-1', '--format=%(trailers:only,unfold)']).stdout.trim();
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    const commitAt = (header: string, minutes: number, withTrailers: boolean) => {
      repo.write(`docs/${header.replace(/\W+/g, '-')}.md`, `${header}\n`);
      repo.git(['add', '-A']);
      repo.git(
        [
          '-c',
          'core.hooksPath=/dev/null',
          'commit',
          '-q',
          '--no-verify',
          '-m',
          withTrailers ? `${header}\n\n${trailers}` : header,
        ],
        {
          env: { GIT_COMMITTER_DATE: at(minutes), GIT_AUTHOR_DATE: at(minutes) },
        },
      );
    };
    // The same session an hour later, then a commit from a machine whose clock is ten minutes behind.
    commitAt('docs: an hour later', 60, true);
    commitAt('docs: clock ten minutes behind', 50, true);
    // Someone's work a day and a half later; then the attack: the published trailers on a new commit
    // dated back into the record's window.
    commitAt('docs: a day and a half later', 36 * 60, false);
    commitAt('docs: backdated copy', 120, true);
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);

    const { report } = repo.verifyJson(repo.freshClone('feat/x'));
    for (const header of ['docs: honest', 'docs: an hour later', 'docs: clock ten minutes behind'])
      expect(verdictOf(report, header, 'anchor')?.status, header).toBe('pass');
    const copy = verdictOf(report, 'docs: backdated copy', 'anchor');
    expect(copy?.status).toBe('fail');
    expect(copy?.message).toMatch(/34\.0 h before .* in its first-parent history/);
  });
});

describe('a record is valid for anchor.valid_hours (72 h) after it was anchored, whatever refreshes follow', () => {
  it('attack: refresh events keep a record fresh for days; a commit 80 h after anchoring is refused by the hook and fails verify', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const token = repo.anchor();
    expect(repo.commitHooked('docs: honest', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const trailers = repo.git(['log', '-1', '--format=%(trailers:only,unfold)']).stdout.trim();
    const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    // A refresh every day keeps the context fresh (each is published as an event).
    for (const hours of [23, 46, 69, 79])
      expect(repo.hestai(['refresh', '--session', token], { env: { HESTAI_NOW: at(hours) } }).status).toBe(0);
    const hook = repo.commitHooked('docs: through the hook 80 h later', { 'docs/b.md': 'b\n' }, { HESTAI_NOW: at(80) });
    expect(hook.status, hook.stderr).not.toBe(0);
    expect(hook.stderr).toContain('anchor.valid_hours');
    repo.write('docs/c.md', 'c\n');
    repo.git(['add', '-A']);
    repo.git(
      [
        '-c',
        'core.hooksPath=/dev/null',
        'commit',
        '-q',
        '--no-verify',
        '-m',
        `docs: 80 h after anchoring\n\n${trailers}`,
      ],
      {
        env: { GIT_COMMITTER_DATE: at(80), GIT_AUTHOR_DATE: at(80) },
      },
    );
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);

    const { report } = repo.verifyJson(repo.freshClone('feat/x'));
    expect(verdictOf(report, 'docs: honest', 'anchor')?.status).toBe('pass');
    const late = verdictOf(report, 'docs: 80 h after anchoring', 'anchor');
    expect(late?.status).toBe('fail');
    expect(late?.message).toMatch(/outside the record's validity window .*anchor\.valid_hours 72/);
  });
});
