import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { writeTerminalLock } from '../../src/records/terminal.js';
import { anchoredRepo, type AnchoredRepo } from '../helpers/anchored-repo.js';

// Reviewer finding F3: prepare-commit-msg gives trailers only when judgeSessionAct lets the session act,
// as the pre-commit hook does; otherwise it warns with the verdict code and the remedy, and adds nothing.

/** An anchored session on feat/x, and a human's commit on `side` (made past every hook) to cherry-pick. */
function withHumanCommit(): { repo: AnchoredRepo; token: string; human: string } {
  const repo = anchoredRepo();
  repo.git(['checkout', '-q', '-b', 'side', 'main']);
  const human = repo.commit('docs: a human note', { 'docs/human.md': 'human\n' });
  repo.git(['checkout', '-q', '-b', 'feat/x', 'main']);
  const token = repo.anchor();
  return { repo, token, human };
}

const sessionTrailer = (repo: AnchoredRepo) =>
  repo.git(['log', '-1', '--format=%(trailers:key=HestAI-Session,valueonly)']).stdout.trim();

describe('prepare-commit-msg asks the one session verdict', () => {
  it('a STALE session (context 35 h old, no ack): git commit is refused and a cherry-pick gets no trailers, with the verdict and the remedy', () => {
    const { repo, token, human } = withHumanCommit();
    const env = { HESTAI_NOW: new Date(Date.now() + 35 * 3_600_000).toISOString() };
    const refused = repo.commitHooked('docs: stale', { 'docs/stale.md': 's\n' }, env);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('verdict: STALE');
    repo.git(['reset', '-q', '--hard']);
    const pick = repo.git(['cherry-pick', human], { allowFail: true, env });
    expect(pick.status, pick.stderr).toBe(0);
    expect(sessionTrailer(repo)).toBe('');
    expect(pick.stderr).toContain('verdict: STALE');
    expect(pick.stderr).toContain(`hestai refresh --session ${token}`);
  });

  it('a TERMINAL session (its role locked): a cherry-pick gets no trailers and the warning names the reset', () => {
    const { repo, token, human } = withHumanCommit();
    writeTerminalLock(workspacePaths(repo.dir), {
      version: 1,
      role: 'implementation-lead',
      session_id: token,
      stage: 'proof',
      failures: 3,
      at: new Date().toISOString(),
    });
    const pick = repo.git(['cherry-pick', human], { allowFail: true });
    expect(pick.status, pick.stderr).toBe(0);
    expect(sessionTrailer(repo)).toBe('');
    expect(pick.stderr).toContain('verdict: TERMINAL');
    expect(pick.stderr).toContain(`hestai anchor reset --token ${token}`);
  });

  it('a session that may act: the cherry-pick carries its trailers', () => {
    const { repo, token, human } = withHumanCommit();
    const pick = repo.git(['cherry-pick', human], { allowFail: true });
    expect(pick.status, pick.stderr).toBe(0);
    expect(sessionTrailer(repo)).toBe(token);
  });
});
