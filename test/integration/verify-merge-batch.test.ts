import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

/**
 * Issue 25 item 7: the merges of a range are judged without one git process per merge. A merge git re-merges
 * to itself exactly (asked of one `git log --diff-merges=remerge` for all of them) is clean; only the others
 * are re-computed (`git merge-tree`), and a history with one root needs no `git merge-base` to know that
 * the parents of its merges are related. The verdicts are the ones every merge got before.
 */

const CONFIG = 'verify:\n  trailers: off\n  anchors: off\n';

interface Report {
  ok: boolean;
  commits: { sha: string; header: string; verdicts: { rule: string; status: string; message: string }[] }[];
}

/** `hestai verify --format json` with git's trace: the report and the git commands verify ran. */
function traced(repo: TempRepo, args: string[]): { status: number; report: Report; git: string[] } {
  const trace = path.join(tempDir(), 'trace.txt');
  const result = repo.hestai(['verify', '--format', 'json', ...args], { env: { GIT_TRACE: trace } });
  const lines = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').split('\n') : [];
  const git = lines.flatMap((l) => /trace: built-in: git (.*)$/.exec(l)?.[1] ?? []);
  return { status: result.status, report: JSON.parse(result.stdout) as Report, git };
}

const merge = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'merge');

/** Ten clean merges of topic branches, a conflict resolved by taking a side, a kept modify/delete, an evil merge. */
function mergingHistory(): { repo: TempRepo; root: string } {
  const repo = makeRepo({ initialCommit: false });
  const root = repo.commit('chore: config', {
    '.hestai_workspace.yaml': CONFIG,
    'docs/a.md': 'a\nb\nc\n',
    'docs/gone.md': 'x\n',
  });
  for (let i = 0; i < 10; i++) {
    repo.git(['checkout', '-q', '-b', `topic-${i}`]);
    repo.commit(`docs: topic ${i}`, { [`docs/topic-${i}.md`]: `${i}\n` });
    repo.git(['checkout', '-q', 'main']);
    repo.commit(`docs: main ${i}`, { [`docs/main-${i}.md`]: `${i}\n` });
    repo.git(['merge', '-q', '--no-ff', '--no-edit', `topic-${i}`]);
  }
  // A conflict resolved by taking one side.
  repo.git(['checkout', '-q', '-b', 'side']);
  repo.commit('docs: side b', { 'docs/a.md': 'a\nB\nc\n' });
  repo.git(['checkout', '-q', 'main']);
  repo.commit('docs: main b', { 'docs/a.md': 'a\nBB\nc\n' });
  repo.git(['merge', '-q', '--no-edit', 'side'], { allowFail: true });
  repo.write('docs/a.md', 'a\nB\nc\n');
  repo.git(['add', 'docs/a.md']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'Merge branch side (conflict resolved)']);
  // A file deleted on main and changed on the branch, kept by the merge.
  repo.git(['checkout', '-q', '-b', 'keep']);
  repo.commit('docs: change gone', { 'docs/gone.md': 'y\n' });
  repo.git(['checkout', '-q', 'main']);
  repo.git(['rm', '-q', 'docs/gone.md']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'docs: remove gone']);
  repo.git(['merge', '-q', '--no-edit', 'keep'], { allowFail: true });
  repo.git(['add', 'docs/gone.md']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'Merge branch keep (modify/delete kept)']);
  // An evil merge: a clean merge that also changes a file neither parent changed.
  repo.git(['checkout', '-q', '-b', 'evil']);
  repo.commit('docs: evil branch', { 'docs/evil.md': '1\n' });
  repo.git(['checkout', '-q', 'main']);
  repo.commit('docs: main again', { 'docs/more.md': '1\n' });
  repo.git(['merge', '-q', '--no-ff', '--no-commit', 'evil']);
  repo.write('docs/topic-0.md', 'slipped in\n');
  repo.git(['add', 'docs/topic-0.md']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'Merge branch evil']);
  return { repo, root };
}

describe('verify judges the merges of a range in one git process', () => {
  it('re-computes only the merges git does not re-merge to themselves, with the verdicts they had', () => {
    const { repo, root } = mergingHistory();
    const { status, report, git } = traced(repo, ['--from', root]);
    expect(status).toBe(1);
    for (let i = 0; i < 10; i++)
      expect(merge(report, `Merge branch 'topic-${i}'`)).toMatchObject({
        status: 'pass',
        message: 'clean merge: adds nothing beyond its parents',
      });
    expect(merge(report, 'Merge branch side (conflict resolved)')).toMatchObject({
      status: 'pass',
      message: 'merge: only resolves conflicts in docs/a.md',
    });
    expect(merge(report, 'Merge branch keep (modify/delete kept)')).toMatchObject({
      status: 'pass',
      message: 'merge: only resolves conflicts in docs/gone.md',
    });
    expect(merge(report, 'Merge branch evil')?.status).toBe('fail');
    expect(merge(report, 'Merge branch evil')?.message).toContain('evil merge');
    expect(merge(report, 'Merge branch evil')?.message).toContain('docs/topic-0.md');
    // 13 merges: git's remerge of each (one git log for all) says what each adds, no git merge-tree per
    // merge; one git cat-file --batch reads the resolved files of them all; one root means no git merge-base.
    expect(git.filter((c) => c.startsWith('merge-tree ')).length).toBe(0);
    expect(git.filter((c) => c.startsWith('diff-tree ') && !c.includes('--stdin')).length).toBe(0);
    expect(git.filter((c) => /^cat-file (--buffer )?--batch$/.test(c)).length).toBeLessThanOrEqual(1);
    // (at most one: the base of the branch test-first looks from, src/verify/pairing-context.ts)
    expect(git.filter((c) => c.startsWith('merge-base ') && !c.includes('--is-ancestor')).length).toBeLessThanOrEqual(
      1,
    );
    expect(git.filter((c) => c.includes('--diff-merges=remerge')).length).toBe(1);
  });

  it('reads the paths of remerged conflicts as git quotes them (spaces, quotes, non-ASCII), with the verdicts merge-tree gave', () => {
    const repo = makeRepo({ initialCommit: false });
    const root = repo.commit('chore: config', { '.hestai_workspace.yaml': CONFIG });
    const odd = ['docs/a "quoted" name.md', 'docs/ünïcode b.md', 'docs/tab\there.md'];
    repo.commit('docs: base', Object.fromEntries(odd.map((f) => [f, 'a\nb\nc\n'])));
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('docs: side', Object.fromEntries(odd.map((f) => [f, 'a\nSIDE\nc\n'])));
    repo.git(['checkout', '-q', 'main']);
    repo.commit('docs: main', Object.fromEntries(odd.map((f) => [f, 'a\nMAIN\nc\n'])));
    repo.git(['merge', '-q', '--no-edit', 'side'], { allowFail: true });
    // The first two resolved by taking a side, the third with a line neither side has.
    repo.write(odd[0]!, 'a\nSIDE\nc\n');
    repo.write(odd[1]!, 'a\nMAIN\nc\n');
    repo.write(odd[2]!, 'a\nINVENTED\nc\n');
    repo.git(['add', '--', ...odd]);
    repo.git(['commit', '-q', '--no-verify', '-m', 'Merge branch side (odd names)']);
    const { report, git } = traced(repo, ['--from', root]);
    const verdict = merge(report, 'Merge branch side (odd names)');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toContain('evil merge');
    expect(verdict?.message).toContain(odd[2]);
    expect(verdict?.message).not.toContain(odd[0]);
    expect(verdict?.message).not.toContain(odd[1]);
    expect(git.filter((c) => c.startsWith('merge-tree ')).length).toBe(0);
  });

  it("reads a batch's judged files with one git process: the messages come from the walk that orders the range, the config changes from one path-limited walk", () => {
    const { repo, root } = mergingHistory();
    repo.commit('test(cli): a flag', { 'test/cli.test.ts': '1\n' });
    repo.commit('feat(cli): a flag', { 'src/cli.ts': '1\n' });
    const { status, git } = traced(repo, ['--from', root]);
    expect(status).toBe(1); // the evil merge
    // (the merges' sides, read with `diff-tree --raw`, are not files of judged commits: issue 40 item 2)
    const readers = git.filter(
      (c) => /^(log|diff-tree) /.test(c) && c.includes('--stdin') && !c.includes('remerge') && !c.includes('--raw'),
    );
    expect(readers).toHaveLength(1);
    expect(git.filter((c) => /^rev-list .*--children.*--format=/.test(c))).toHaveLength(1);
    expect(
      git.filter((c) => /^rev-list --full-history .* -- \.hestai_workspace\.yaml \.hestai\/protocol\.yaml$/.test(c)),
    ).toHaveLength(1);
  });

  it('still refuses a merge of an unrelated history (a second root), asking git which parents are related', () => {
    const { repo, root } = mergingHistory();
    repo.git(['checkout', '-q', '--orphan', 'other']);
    repo.git(['rm', '-rq', '--cached', '.']);
    repo.commit('docs: another history', { 'docs/other.md': '1\n' });
    repo.git(['checkout', '-q', '-f', 'main']);
    repo.git(['merge', '-q', '--no-edit', '--allow-unrelated-histories', 'other']);
    const { report } = traced(repo, ['--from', root]);
    expect(merge(report, "Merge branch 'other'")?.status).toBe('fail');
    expect(merge(report, "Merge branch 'other'")?.message).toContain('shares no commit with its first parent');
    expect(merge(report, "Merge branch 'topic-3'")?.message).toBe('clean merge: adds nothing beyond its parents');
  });
});
