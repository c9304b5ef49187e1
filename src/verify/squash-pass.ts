import { openEvidence } from '../evidence/store.js';
import type { CommitFacts } from '../tdd/commit.js';
import type { TddVerdict } from '../tdd/rule.js';
import type { VerifyRun } from './run.js';
import { squashEvidence } from './squash-evidence.js';

/**
 * On the default branch, a commit failing test-first that is the squash of a branch verified test-first
 * (src/verify/squash-evidence.ts) passes: its verdict in `tdd` is replaced by a pass naming that branch.
 */
export async function passSquashes(
  run: Pick<VerifyRun, 'root' | 'config' | 'evidence'>,
  inRange: readonly { f: CommitFacts }[],
  tdd: Map<string, TddVerdict>,
): Promise<void> {
  const failing = inRange
    .map(({ f }) => f)
    .filter((f) => tdd.get(f.sha)?.status === 'fail' && f.parents !== null && f.parentCount === 1);
  if (failing.length === 0) return;
  const squashes = squashEvidence(
    run.root,
    failing.map((f) => ({ sha: f.sha, parent: f.parents![0]! })),
    run.config,
    await changeRecords(run),
  );
  for (const [sha, of] of squashes) {
    const t = tdd.get(sha)!;
    tdd.set(sha, {
      ...t,
      status: 'pass',
      message: `the squash of ${of.branch.replace(/^refs\/heads\//, '')} (tip ${of.tip.slice(0, 7)}, ${of.commits} commit(s)), whose commits pass test-first one by one; matched by ${of.matched_by} through its change record on hestai/anchors`,
      squash_of: of,
    });
  }
}

/** The change records of hestai/anchors, from the run's reader (or, for a caller that gave none, one of its own). */
async function changeRecords(run: Pick<VerifyRun, 'root' | 'evidence'>) {
  if (run.evidence) return run.evidence.changeRecords(run.root);
  const store = openEvidence(run.root);
  try {
    return await store.changeRecords();
  } finally {
    store.close();
  }
}
