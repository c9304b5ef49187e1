/**
 * Merges are judged by what they add (pure): a merge whose result differs from git's automatic merge of
 * its parents outside the conflicts it had to resolve carries changes found in neither parent (an "evil
 * merge"): those changes never passed the commit rules. A clean merge is exempt.
 */
import type { Verdict } from '../tdd/verdict.js';

export type MergeEvidence =
  /** Paths the merge changed beyond git's automatic merge (conflict resolutions excluded). */
  | { kind: 'two-parent'; added: string[]; conflicted: string[] }
  | { kind: 'octopus'; parents: number }
  | { kind: 'unknown'; reason: string };

/** The clause of every merge verdict. */
export const MERGE_CLAUSE = 'real merge (2 parents): judged by what it adds beyond its parents (issue 11)';

export function checkMerge(sha: string, evidence: MergeEvidence): Verdict {
  const short = sha.slice(0, 7);
  if (evidence.kind === 'octopus')
    return {
      rule: 'merge',
      clause: MERGE_CLAUSE,
      status: 'warn',
      message: `commit ${short} is an octopus merge of ${evidence.parents} parents: what it adds cannot be compared with an automatic merge; review it by hand`,
    };
  if (evidence.kind === 'unknown')
    return {
      rule: 'merge',
      clause: MERGE_CLAUSE,
      status: 'warn',
      message: `commit ${short}: the merge could not be re-computed (${evidence.reason}); review it by hand`,
    };
  if (evidence.added.length === 0) {
    return {
      rule: 'merge',
      clause: MERGE_CLAUSE,
      status: 'pass',
      message:
        evidence.conflicted.length === 0
          ? 'clean merge: adds nothing beyond its parents'
          : `merge: only resolves conflicts in ${evidence.conflicted.join(', ')}`,
    };
  }
  const shown =
    evidence.added.slice(0, 20).join(', ') +
    (evidence.added.length > 20 ? `, … (${evidence.added.length} in all)` : '');
  return {
    rule: 'merge',
    clause: MERGE_CLAUSE,
    status: 'fail',
    message: `commit ${short} is an evil merge: it introduces changes found in neither parent, in ${shown}. hint: commit those changes on their own (so the header, test-first and anchor rules judge them) and redo the merge without them (git merge, resolving only conflicts)`,
  };
}
