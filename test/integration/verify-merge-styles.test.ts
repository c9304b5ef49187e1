import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

interface Verdict {
  rule: string;
  status: string;
  message: string;
  paired_with?: { sha: string; header: string; relation: string }[];
}
interface Report {
  ok: boolean;
  commits: { sha: string; header: string; verdicts: Verdict[] }[];
}
const verify = (repo: TempRepo, args: string[] = []) => {
  const result = repo.hestai(['verify', '--format', 'json', ...args]);
  return { ...result, report: (result.stdout ? JSON.parse(result.stdout) : null) as Report };
};
const testFirst = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'test-first');

const CONFIG = (policy: string) => `tdd:\n  policy: ${policy}\nverify:\n  trailers: off\n  anchors: off\n`;

/** main with the policy committed, and a pull request's branch made test-first, commit by commit. */
function pullRequest(policy: string): { repo: TempRepo; tip: string } {
  const repo = makeRepo();
  repo.commit('chore: config', { '.hestai_workspace.yaml': CONFIG(policy) });
  repo.git(['checkout', '-q', '-b', 'feat/json']);
  repo.commit('test(cli): --json prints one document', { 'packages/cli/test/json.test.ts': 'x' });
  repo.commit('feat(cli): --json prints one document', { 'packages/cli/src/json.ts': 'x' });
  repo.git(['checkout', '-q', 'main']);
  return { repo, tip: repo.git(['rev-parse', 'main']).stdout.trim() };
}

describe('test-first per change, per merge style', () => {
  it('verify --format json shows each pairing with its relation', () => {
    const { repo } = pullRequest('paired');
    repo.git(['checkout', '-q', 'feat/json']);
    const { status, report } = verify(repo);
    expect(status).toBe(0);
    const v = testFirst(report, 'feat(cli): --json prints one document')!;
    const test = report.commits.find((c) => c.header.startsWith('test(cli)'))!;
    expect(v.paired_with).toEqual([
      { sha: test.sha, header: 'test(cli): --json prints one document', relation: 'same scope (cli)' },
    ]);
  });

  it('tdd.policy same-commit: the squash of the branch (real git merge --squash) passes on main', () => {
    const { repo, tip } = pullRequest('same-commit');
    repo.git(['merge', '-q', '--squash', 'feat/json']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'feat(cli): --json prints one document (#12)']);
    const { status, report } = verify(repo, ['--from', tip, '--to', 'HEAD']);
    expect(testFirst(report, 'feat(cli): --json prints one document (#12)')?.status).toBe('pass');
    expect(status).toBe(0);
  });

  it('the default policy fails that squash with a remedy that fits a squash (no git rebase -i)', () => {
    const { repo, tip } = pullRequest('paired');
    repo.git(['merge', '-q', '--squash', 'feat/json']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'feat(cli): --json prints one document (#12)']);
    const json = verify(repo, ['--from', tip, '--to', 'HEAD']);
    expect(json.status).toBe(1);
    const message = testFirst(json.report, 'feat(cli): --json prints one document (#12)')?.message ?? '';
    expect(message).toContain('already on the default branch');
    expect(message).toContain('same-commit');
    const text = repo.hestai(['verify', '--from', tip, '--to', 'HEAD']);
    expect(text.status).toBe(1);
    expect(text.stdout).not.toContain('rebase -i');
    expect(text.stdout).toContain('docs/enforcement.md');
  });
});
