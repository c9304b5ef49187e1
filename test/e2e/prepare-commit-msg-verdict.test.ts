import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
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

  // Speed (issue 38 item 1): git commit runs commit-msg after prepare-commit-msg, and commit-msg writes the
  // same trailers, so there prepare-commit-msg loads only its small entry; where commit-msg does not run
  // (a cherry-pick, --no-verify) it loads the judge. Linux only: the hook reads git's command line in /proc.
  it.skipIf(process.platform !== 'linux')(
    'a plain git commit leaves the trailers to commit-msg: prepare-commit-msg loads under 64 KB of bundles; a cherry-pick and a --no-verify commit load the judge',
    () => {
      const { repo, token, human } = withHumanCommit();
      const dir = tempDir('hestai-probe-');
      const out = path.join(dir, 'loaded.jsonl');
      const probe = path.join(dir, 'probe.cjs');
      fs.writeFileSync(
        probe,
        [
          "process.on('exit', () => {",
          "  if (!/prepare-commit-msg$/.test(process.argv[1] || '')) return;",
          "  const fs = require('node:fs');",
          '  const bytes = Object.keys(require.cache).filter((f) => /dist[\\/]hooks[\\/]/.test(f)).reduce((n, f) => n + fs.statSync(f).size, 0);',
          `  fs.appendFileSync(${JSON.stringify(out)}, JSON.stringify({ bytes }) + '\\n');`,
          '});',
          '',
        ].join('\n'),
      );
      const env = { NODE_OPTIONS: `--require ${probe}` };
      const loaded = () =>
        fs
          .readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { bytes: number }).bytes);
      const plain = repo.commitHooked('docs: plain', { 'docs/plain.md': 'p\n' }, env);
      expect(plain.status, plain.stderr).toBe(0);
      expect(sessionTrailer(repo)).toBe(token);
      expect(loaded()).toHaveLength(1);
      expect(loaded()[0]).toBeLessThan(64 * 1024);
      const pick = repo.git(['cherry-pick', human], { allowFail: true, env });
      expect(pick.status, pick.stderr).toBe(0);
      expect(sessionTrailer(repo)).toBe(token);
      repo.write('docs/skip.md', 's\n');
      repo.git(['add', '-A']);
      const skipped = repo.git(['commit', '-q', '--no-verify', '-m', 'docs: skip'], { allowFail: true, env });
      expect(skipped.status, skipped.stderr).toBe(0);
      expect(sessionTrailer(repo)).toBe(token);
      expect(loaded()).toHaveLength(3);
      expect(loaded()[1]).toBeGreaterThan(64 * 1024);
      expect(loaded()[2]).toBeGreaterThan(64 * 1024);
    },
  );
});
