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
