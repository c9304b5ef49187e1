import { describe, expect, it } from 'vitest';
import { makeRepo, verifyFeatInFreshClone, type TempRepo } from '../helpers/git-repo.js';

// Issue 40 item 6: a `Revert "<header>"` that exactly undoes a commit of the history is a revert, whichever
// sha its body names (the branch sha of a commit that landed rebased is not in the clone).
interface Report {
  commits: { header: string; verdicts: { rule: string; status: string; message: string }[] }[];
}

const verifyClone = (repo: TempRepo) => verifyFeatInFreshClone<Report>(repo);

const header = (report: Report, h: string) =>
  report.commits.find((c) => c.header === h)?.verdicts.find((v) => v.rule === 'header');

function landedRebased(): { repo: TempRepo; landed: string; branchSha: string } {
  const repo = makeRepo();
  repo.commit('chore: config', {
    '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n',
    'docs/a.md': 'one\n',
  });
  repo.git(['checkout', '-q', '-b', 'topic']);
  repo.commit('docs: add the guide', { 'docs/guide.md': 'guide\nmore\n' });
  const branchSha = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  repo.git(['checkout', '-q', 'main']);
  repo.commit('docs: touch a', { 'docs/a.md': 'one\ntwo\n' });
  repo.git(['cherry-pick', branchSha]); // lands rebased: another sha
  const landed = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  repo.git(['branch', '-q', '-D', 'topic']);
  repo.git(['reflog', 'expire', '--expire=now', '--all']);
  repo.git(['gc', '-q', '--prune=now']);
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  return { repo, landed, branchSha };
}

describe('reverts by content', () => {
  it('a Revert "<header>" that undoes a commit of the history passes the header rule though it names another sha', () => {
    const { repo, landed, branchSha } = landedRebased();
    repo.git(['revert', '--no-edit', '--no-commit', landed]);
    repo.git([
      'commit',
      '-q',
      '--no-verify',
      '-m',
      `Revert "docs: add the guide"\n\nThis reverts commit ${branchSha}.`,
    ]);
    const { status, report } = verifyClone(repo);
    expect(header(report, 'Revert "docs: add the guide"')?.status).toBe('skip');
    expect(status).toBe(0);
  });

  it('attack: a Revert "<header>" that changes something else still fails the header rule', () => {
    const { repo, branchSha } = landedRebased();
    repo.commit(`Revert "docs: add the guide"\n\nThis reverts commit ${branchSha}.`, { 'src/backdoor.js': 'open()\n' });
    const { status, report } = verifyClone(repo);
    expect(header(report, 'Revert "docs: add the guide"')?.status).toBe('fail');
    expect(status).toBe(1);
  });

  it('a squash-merged Revert "<header>" (#N) that undoes a squash-merged "<header> (#M)" passes the header rule', () => {
    // semantic-release d3958b80bf: GitHub's squash adds " (#N)" to the original and to the revert's header.
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n' });
    const original = repo.commit('chore(deps): update dependency p-retry to v5 (#2229)', {
      'package.json': '{"dependencies":{"p-retry":"^5.0.0"}}\n',
    });
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.git(['revert', '--no-edit', '--no-commit', original]);
    repo.git(['commit', '-q', '--no-verify', '-m', 'Revert "chore(deps): update dependency p-retry to v5" (#2230)']);
    const { status, report } = verifyClone(repo);
    expect(header(report, 'Revert "chore(deps): update dependency p-retry to v5" (#2230)')?.status).toBe('skip');
    expect(status).toBe(0);
  });

  it('attack: a squash-merged Revert "<header>" (#N) that changes something else still fails the header rule', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n' });
    repo.commit('chore(deps): update dependency p-retry to v5 (#2229)', {
      'package.json': '{"dependencies":{"p-retry":"^5.0.0"}}\n',
    });
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('Revert "chore(deps): update dependency p-retry to v5" (#2230)', { 'src/backdoor.js': 'open()\n' });
    const { status, report } = verifyClone(repo);
    expect(header(report, 'Revert "chore(deps): update dependency p-retry to v5" (#2230)')?.status).toBe('fail');
    expect(status).toBe(1);
  });
});

// A commit that claims to revert X is one only when reverting X on top of its parent gives exactly its tree:
// the same inverse change elsewhere in the same file is not a revert of X.
describe('reverts are exact inverses', () => {
  const verdict = (report: Report, h: string, rule: string) =>
    report.commits.find((c) => c.header === h)?.verdicts.find((v) => v.rule === rule);

  /** main: config and src/x.ts; feat/x: X, a commit making `line` of x.ts read `b`, then what `after` adds. */
  function claimed(lines: string[], change: (l: string[]) => void, after: (repo: TempRepo, x: string) => void) {
    const repo = makeRepo();
    repo.commit('chore: config', {
      '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n',
      'src/x.ts': `${lines.join('\n')}\n`,
    });
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const next = [...lines];
    change(next);
    const x = repo.commit('feat: make it b (#3)', { 'src/x.ts': `${next.join('\n')}\n` });
    after(repo, x);
    return verifyClone(repo).report;
  }

  it('attack: Revert "<header>" (#N) inverting the same hunk at another line of the file is judged', () => {
    const report = claimed(
      ['a', 'x', 'y', 'z', 'b'],
      (l) => (l[0] = 'b'),
      (repo) => repo.commit('Revert "feat: make it b" (#4)', { 'src/x.ts': 'b\nx\ny\nz\na\n' }),
    );
    const h = 'Revert "feat: make it b" (#4)';
    expect(verdict(report, h, 'header')?.status).toBe('fail');
    expect(verdict(report, h, 'test-first')?.message).not.toContain('revert');
  });

  it('attack: a commit whose body names X but changes another line is judged', () => {
    const report = claimed(
      ['a', 'x', 'y', 'z', 'b'],
      (l) => (l[0] = 'b'),
      (repo, x) => repo.commit(`chore whatever\n\nThis reverts commit ${x}.`, { 'src/x.ts': 'b\nx\ny\nz\na\n' }),
    );
    expect(verdict(report, 'chore whatever', 'header')?.status).toBe('fail');
  });

  it('attack: the inverse applied to a repeated identical block is not a revert of X', () => {
    const block = ['p', 'q', 'r', 'A', 's', 't', 'u'];
    const both = [...block, '-', ...block];
    const report = claimed(
      both,
      (l) => (l[3] = 'B'),
      (repo) => {
        const second = [...both];
        second[3] = 'B';
        second[11] = 'B';
        repo.commit('docs: flip the second block', { 'src/x.ts': `${second.join('\n')}\n` });
        second[11] = 'A';
        repo.commit('Revert "feat: make it b" (#4)', { 'src/x.ts': `${second.join('\n')}\n` });
      },
    );
    expect(verdict(report, 'Revert "feat: make it b" (#4)', 'header')?.status).toBe('fail');
  });

  it('the exact inverse of X in the same setting is a revert, also after a change elsewhere in the file', () => {
    const block = ['p', 'q', 'r', 'A', 's', 't', 'u'];
    const both = [...block, '-', ...block];
    const report = claimed(
      both,
      (l) => (l[3] = 'B'),
      (repo, x) => {
        const later = [...both];
        later[3] = 'B';
        later[11] = 'C';
        repo.commit('docs: change the second block', { 'src/x.ts': `${later.join('\n')}\n` });
        later[3] = 'A';
        repo.commit(`Revert "feat: make it b" (#4)\n\nThis reverts commit ${x}.`, {
          'src/x.ts': `${later.join('\n')}\n`,
        });
      },
    );
    expect(verdict(report, 'Revert "feat: make it b" (#4)', 'header')?.status).toBe('skip');
  });
});
