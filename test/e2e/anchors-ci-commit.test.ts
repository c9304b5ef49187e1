import { describe, expect, it } from 'vitest';
import { anchoredRepo, forgeRecord, forgedCanonical, verdictOf } from '../helpers/anchored-repo.js';

// Issue 18 (seeds 002/003): the positive COMMIT rule (a concrete ARTIFACT, a runnable GATE) is re-run by
// `hestai verify` against the tree of the record's HEAD, not the checkout CI happens to have.

const canonical = (artifact: string, gate: string) =>
  forgedCanonical(
    [
      'L1::[README_NAMES_THE_PROJECT]⇌CTX:README.md:1-1[the title]→TRIGGER[keep it]',
      'L2::[CONFIG_IS_COMMITTED]⇌CTX:.hestai_workspace.yaml[the workspace config]→TRIGGER[keep it]',
    ],
    artifact,
    gate,
  );

describe('verify re-runs the COMMIT rule against the recorded HEAD', () => {
  it('attack: a record with an abstract ARTIFACT, a vague GATE or a directory that did not exist at its HEAD fails; an honest one passes', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const token = repo.anchor();
    expect(repo.commitHooked('docs: honest', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const cases: [string, string, string][] = [
      ['docs: abstract artifact', 'improved code quality', 'npm test'],
      ['docs: vague gate', 'docs/a.md', 'looks good'],
      // lib/ is added by a later commit: the checkout CI makes has it, the record's HEAD does not.
      ['docs: directory only in a later tree', 'lib/x.ts', 'npm test'],
      ['docs: a script the HEAD does not have', 'docs/a.md', './scripts/check.sh'],
      ['docs: concrete', 'docs/a.md > the usage section', 'check:ci/build'],
    ];
    let n = 0;
    for (const [header, artifact, gate] of cases) {
      const digest = forgeRecord(repo, token, head, canonical(artifact, gate));
      repo.commit(`${header}\n\nHestAI-Session: ${token}\nHestAI-Anchor: sha256:${digest}`, {
        [`docs/f${n++}.md`]: 'f\n',
      });
    }
    repo.commit('chore: lib and scripts arrive later', {
      'lib/y.ts': 'export {};\n',
      'scripts/check.sh': 'exit 0\n',
    });
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);

    const { report } = repo.verifyJson(repo.freshClone('feat/x'));
    expect(verdictOf(report, 'docs: honest', 'anchor')?.status).toBe('pass');
    expect(verdictOf(report, 'docs: abstract artifact', 'anchor')?.message).toContain(
      'COMMIT_ARTIFACT_ABSTRACT: line 16: ARTIFACT "improved code quality" is not concrete',
    );
    expect(verdictOf(report, 'docs: vague gate', 'anchor')?.message).toContain(
      'COMMIT_GATE_VAGUE: line 17: GATE "looks good" is not a runnable command or a named check',
    );
    expect(verdictOf(report, 'docs: directory only in a later tree', 'anchor')?.message).toContain(
      'COMMIT_ARTIFACT_NOT_FOUND: line 16: ARTIFACT "lib/x.ts": neither it nor its directory lib exists',
    );
    expect(verdictOf(report, 'docs: a script the HEAD does not have', 'anchor')?.message).toContain(
      'COMMIT_GATE_NOT_FOUND: line 17: GATE "./scripts/check.sh": scripts/check.sh does not exist',
    );
    expect(verdictOf(report, 'docs: concrete', 'anchor')?.status).toBe('pass');
  });
});
