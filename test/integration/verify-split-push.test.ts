import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

interface Report {
  ok: boolean;
  commits: { sha: string; header: string; verdicts: { rule: string; status: string; message: string }[] }[];
}
const verify = (repo: TempRepo, args: string[]) => {
  const result = repo.hestai(['verify', '--format', 'json', ...args]);
  return { ...result, report: (result.stdout ? JSON.parse(result.stdout) : null) as Report };
};
const testFirst = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'test-first');

/** A repository pushing to a bare remote, as CI sees a `push` event: `--from <the previous tip>`. */
function pushingRepo(): { repo: TempRepo; push: () => string } {
  const repo = makeRepo();
  const remote = path.join(tempDir(), 'remote.git');
  repo.git(['init', '-q', '--bare', '-b', 'main', remote]);
  repo.git(['remote', 'add', 'origin', remote]);
  repo.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n' });
  const push = () => {
    const before = repo.git(['rev-parse', 'origin/main'], { allowFail: true });
    repo.git(['push', '-q', 'origin', 'main']);
    return before.status === 0 ? before.stdout.trim() : '';
  };
  push();
  return { repo, push };
}

describe('verify of a push (--from the previous tip): pairing looks at the ancestry, not the range', () => {
  it('passes a feat whose test commit was pushed in an earlier push', () => {
    const { repo, push } = pushingRepo();
    repo.commit('test(cli): --json prints one document', { 'test/cli.test.ts': 'x' });
    const first = push();
    expect(verify(repo, ['--from', first, '--to', 'HEAD']).status).toBe(0);
    repo.commit('feat(cli): --json prints one document', { 'src/cli.ts': 'x' });
    const second = push();
    const { status, report } = verify(repo, ['--from', second, '--to', 'HEAD']);
    expect(report.commits.map((c) => c.header)).toEqual(['feat(cli): --json prints one document']);
    expect(testFirst(report, 'feat(cli): --json prints one document')?.status).toBe('pass');
    expect(testFirst(report, 'feat(cli): --json prints one document')?.message).toContain(
      'test(cli): --json prints one document',
    );
    expect(status).toBe(0);
  });

  it('still fails a feat with no test before it, and never claims there is none when there is one', () => {
    const { repo, push } = pushingRepo();
    repo.commit('test(a): a', { 'test/a.test.ts': 'x' });
    repo.commit('feat(a): a', { 'src/a.ts': 'x' });
    push();
    repo.commit('feat(a): more of a', { 'src/a.ts': 'y' });
    const second = push();
    const { status, report } = verify(repo, ['--from', second, '--to', 'HEAD']);
    expect(status).toBe(1);
    const message = testFirst(report, 'feat(a): more of a')?.message ?? '';
    expect(message).not.toContain('among its ancestors since the merge base');
    expect(message).toMatch(/already paired with [0-9a-f]{7} "feat\(a\): a"/);
  });
});
