import { usageError } from '../errors.js';
import { headState, type HeadState } from '../git/head.js';
import { history } from '../git/history.js';
import type { LogCommit } from '../git/parse.js';

export interface BranchScope {
  /** `tdd.default_branch`. */
  defaultBranch: string;
  /** `tdd.since`: this commit and everything before it is not judged. */
  since: string | null;
  /** Leave merges out (the hook). */
  noMerges?: boolean;
}

/**
 * The commits of the current branch since its base, parents before children (HEAD last), usually with
 * ONE git process, always git's answer (no cache: issue 27, "No cache decides"). Which branch HEAD is on
 * is git's answer too (`head`, from {@link headState}: the commit-msg hook asks once for HEAD and MERGE_HEAD).
 *
 * - On a branch other than the default one: the commits not reachable from the default branch
 *   (`HEAD ^refs/heads/<default>`, i.e. since the merge-base; `origin/<default>` when there is no local one).
 * - On the default branch itself: everything after `tdd.since`, or the whole history when it is unset.
 * - `tdd.since` is excluded in both cases. An unborn branch has no history.
 */
export function branchHistory(root: string, scope: BranchScope, head: HeadState = headState(root)): LogCommit[] {
  if (head.unborn) return []; // an unborn branch: nothing yet
  const since = scope.since ? [`^${scope.since}`] : [];
  const attempts: string[][] =
    head.ref === `refs/heads/${scope.defaultBranch}`
      ? [['HEAD', ...since]]
      : [
          ['HEAD', `^refs/heads/${scope.defaultBranch}`, ...since],
          ['HEAD', `^refs/remotes/origin/${scope.defaultBranch}`, ...since],
          ['HEAD', ...since],
        ];
  for (const revisions of attempts) {
    const result = history(root, { revisions, noMerges: scope.noMerges ?? false, topoOrder: true });
    if ('commits' in result) return result.commits;
  }
  throw usageError(`tdd.since ${scope.since} is not a commit in this repository`, {
    code: 'CONFIG_INVALID',
    remedy:
      'Set tdd.since in .hestai_workspace.yaml to the sha of an existing commit (git log --oneline), or remove it; in CI fetch the full history (fetch-depth: 0).',
  });
}
