/**
 * Merges are judged by what they add (pure): a merge whose result differs from git's automatic merge of
 * its parents outside the conflicts it had to resolve carries changes found in neither parent (an "evil
 * merge"): those changes never passed the commit rules. A clean merge is exempt.
 */
import type { Verdict } from '../tdd/verdict.js';

/** A path where a merge differs from git's re-merge of its parents, beyond resolving its conflicts. */
export interface MergeDifference {
  path: string;
  /** The first differing line ("line N: ..."), when known. */
  detail: string | null;
}

export type MergeEvidence =
  /**
   * Where the merge differs from git's automatic merge of its parents (one at a time for an octopus) beyond
   * resolving the conflicted hunks with lines of their sides (issue 40): a path without a conflict, or a
   * conflicted file changed outside its hunks.
   */
  | { kind: 'recomputed'; parents: number; conflicted: string[]; differences: MergeDifference[] }
  /** An octopus whose parents conflict: git cannot re-compute it. */
  | { kind: 'octopus'; parents: number }
  /** A parent sharing no history with the first parent, and the base's policy does not allow it. */
  | { kind: 'unrelated'; parent: string }
  | { kind: 'unknown'; reason: string };

/** The clause of every merge verdict. */
export const MERGE_CLAUSE = 'real merge (2+ parents): judged by what it adds beyond its parents (issues 11, 24)';

/** The paths named, each with its first differing line when known (at most 20, then the count). */
function named(differences: readonly MergeDifference[]): string {
  const shown = differences.slice(0, 20).map((d) => (d.detail === null ? d.path : `${d.path} (${d.detail})`));
  return shown.join(', ') + (differences.length > 20 ? `, … (${differences.length} in all)` : '');
}

/**
 * `regenerated` tells the paths the base's policy lets a merge regenerate (`verify.merge_regenerated`, issue 40):
 * where the merge differs from git's re-merge there is a warning naming them, not an error.
 */
export function checkMerge(
  sha: string,
  evidence: MergeEvidence,
  regenerated: (path: string) => boolean = () => false,
): Verdict {
  const short = sha.slice(0, 7);
  if (evidence.kind === 'octopus')
    return {
      rule: 'merge',
      clause: MERGE_CLAUSE,
      status: 'fail',
      message: `commit ${short} is an octopus merge of ${evidence.parents} parents that conflict: git cannot re-compute it, so what it adds was never judged. hint: merge the branches one at a time (git merge <branch>), resolving each conflict in its own merge`,
    };
  if (evidence.kind === 'unrelated')
    return {
      rule: 'merge',
      clause: MERGE_CLAUSE,
      status: 'fail',
      message: `commit ${short} merges ${evidence.parent.slice(0, 7)}, a history that shares no commit with its first parent: its files never met the commit rules. hint: bring the code in through judged commits, or allow it in the base's policy (verify.unrelated_histories: allow in .hestai_workspace.yaml)`,
    };
  if (evidence.kind === 'unknown')
    return {
      rule: 'merge',
      clause: MERGE_CLAUSE,
      status: 'fail',
      message: `commit ${short}: the merge could not be re-computed (${evidence.reason}), so what it adds was never judged. hint: run verify with git 2.38 or newer`,
    };
  const bad = evidence.differences.filter((d) => !regenerated(d.path));
  const allowed = evidence.differences.filter((d) => regenerated(d.path));
  const listed = allowed.length === 0 ? '' : ` (verify.merge_regenerated lets it regenerate ${named(allowed)})`;
  if (bad.length === 0 && allowed.length > 0)
    return {
      rule: 'merge',
      clause: MERGE_CLAUSE,
      status: 'warn',
      message: `commit ${short} differs from git's re-merge of its parents in ${named(allowed)}, which the base's policy lets a merge regenerate (verify.merge_regenerated). hint: review them, since a lockfile can name any package`,
    };
  if (bad.length === 0) {
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
  return {
    rule: 'merge',
    clause: MERGE_CLAUSE,
    status: 'fail',
    message: `commit ${short} is an evil merge: it differs from git's re-merge of its parents beyond resolving conflict hunks with their sides' lines, in ${named(bad)}${listed}. hint: commit those changes on their own (so the header, test-first and anchor rules judge them) and redo the merge without them (git merge, resolving only conflicts)`,
  };
}
