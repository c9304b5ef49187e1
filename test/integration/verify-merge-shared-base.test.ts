import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

/**
 * Two pull requests merged one after the other from the same main commit: the second merge's base lies
 * behind the first merge. git before 2.48 loses that base when one `git log --diff-merges=remerge` shows the
 * first merge before re-merging the second (it frees the parents of every commit it has shown), so the
 * re-merge of the second has no base: an evil merge came out clean and a clean one evil. verify's verdict on
 * each merge must be the one git gives the merge on its own, whatever else the range holds.
 */

const CONFIG = 'verify:\n  anchors: "off"\n  trailers: "off"\n';

interface Report {
  ok: boolean;
  commits: { sha: string; header: string; verdicts: { rule: string; status: string; message: string }[] }[];
}

function judged(repo: TempRepo, from: string): { status: number; report: Report } {
  const result = repo.hestai(['verify', '--format', 'json', '--from', from, '--policy', 'HEAD']);
  return { status: result.status, report: JSON.parse(result.stdout) as Report };
}

const mergeVerdict = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'merge');

describe('a merge whose base lies behind an earlier merge of the range', () => {
  it('fails an evil merge that restores a file its branch removed (the second of two PRs from one base)', () => {
    const repo = makeRepo({ initialCommit: false });
    const base = repo.commit('chore: base', {
      '.hestai_workspace.yaml': CONFIG,
      'backdoor.ts': 'export const debugBackdoor = 1;\n',
      'other.txt': '1\n2\n3\n',
    });
    repo.git(['checkout', '-q', '-b', 'docs']);
    repo.commit('chore: other', { 'other.txt': '1\n2\n3\nmore\n' });
    repo.git(['checkout', '-q', 'main']);
    repo.git(['checkout', '-q', '-b', 'remove', base]);
    repo.git(['rm', '-q', 'backdoor.ts']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'fix: remove the debug backdoor']);
    repo.git(['checkout', '-q', 'main']);
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'docs']);
    repo.git(['merge', '-q', '--no-ff', '--no-commit', 'remove']);
    repo.git(['checkout', base, '--', 'backdoor.ts']);
    repo.git(['commit', '-q', '--no-verify', '--no-edit']);
    const { status, report } = judged(repo, base);
    const verdict = mergeVerdict(report, "Merge branch 'remove'");
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toContain('evil merge');
    expect(verdict?.message).toContain('backdoor.ts');
    expect(mergeVerdict(report, "Merge branch 'docs'")?.status).toBe('pass');
    expect(status).toBe(1);
  });

  it('passes a clean merge git made of a change to a file the earlier merge renamed', () => {
    const repo = makeRepo({ initialCommit: false });
    const base = repo.commit('chore: base', {
      '.hestai_workspace.yaml': CONFIG,
      'lib.txt': Array.from({ length: 20 }, (_, i) => `${i + 1}\n`).join(''),
    });
    repo.git(['checkout', '-q', '-b', 'rename']);
    repo.git(['mv', 'lib.txt', 'util.txt']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'refactor: rename lib.txt to util.txt']);
    repo.git(['checkout', '-q', '-b', 'change', base]);
    repo.commit('docs: line 21', {
      'lib.txt': Array.from({ length: 21 }, (_, i) => `${i + 1}\n`).join(''),
    });
    repo.git(['checkout', '-q', 'main']);
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'rename']);
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'change']);
    const { status, report } = judged(repo, base);
    expect(mergeVerdict(report, "Merge branch 'change'")).toMatchObject({
      status: 'pass',
      message: 'clean merge: adds nothing beyond its parents',
    });
    expect(mergeVerdict(report, "Merge branch 'rename'")?.status).toBe('pass');
    expect(report.ok).toBe(true);
    expect(status).toBe(0);
  });

  it('fails a merge that drops the fix its branch made to a file the earlier merge renamed', () => {
    const repo = makeRepo({ initialCommit: false });
    const lines = Array.from({ length: 20 }, (_, i) => `${i + 1}\n`);
    const base = repo.commit('chore: base', { '.hestai_workspace.yaml': CONFIG, 'lib.txt': lines.join('') });
    repo.git(['checkout', '-q', '-b', 'rename']);
    repo.git(['mv', 'lib.txt', 'util.txt']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'refactor: rename lib.txt to util.txt']);
    repo.git(['checkout', '-q', '-b', 'fix', base]);
    repo.commit('docs: check line 7', { 'lib.txt': lines.map((l, i) => (i === 6 ? '7 checked\n' : l)).join('') });
    repo.git(['checkout', '-q', 'main']);
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'rename']);
    repo.git(['merge', '-q', '--no-ff', '--no-commit', 'fix']);
    // The merge keeps the renamed file as it was, without the fix, and brings the old name back.
    repo.write('util.txt', lines.join(''));
    repo.write('lib.txt', lines.join(''));
    repo.git(['add', 'util.txt', 'lib.txt']);
    repo.git(['commit', '-q', '--no-verify', '--no-edit']);
    const { status, report } = judged(repo, base);
    const verdict = mergeVerdict(report, "Merge branch 'fix'");
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toContain('evil merge');
    expect(status).toBe(1);
  });
});
