import { userCacheDir } from '../config/cache.js';
import { usageError } from '../errors.js';
import { readHeadBranch } from '../git/head.js';
import { history } from '../git/history.js';
import { planLog } from '../git/log-cache.js';
import type { LogCommit } from '../git/parse.js';
import { readRef } from '../git/refs.js';
import { currentBranch } from '../git/repo.js';

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
 * ONE git process.
 *
 * - On a branch other than the default one: the commits not reachable from the default branch
 *   (`HEAD ^refs/heads/<default>`, i.e. since the merge-base; `origin/<default>` when there is no local one).
 * - On the default branch itself: everything after `tdd.since`, or the whole history when it is unset.
 * - `tdd.since` is excluded in both cases. An unborn branch has no history.
 *
 * Usually with at most one short git process: the answer is kept in the history cache (src/git/log-cache.ts,
 * in `cacheDir`, the user cache directory) and extended by git's log of the few commits made since;
 * whenever that cannot be proven to be git's answer, git answers the whole log as before.
 */
export function branchHistory(
  root: string,
  scope: BranchScope,
  env: NodeJS.ProcessEnv = process.env,
  cacheDir: string | null = userCacheDir(env),
): LogCommit[] {
  const head = readHeadBranch(root, env) ?? { branch: currentBranch(root) };
  const cached = cacheDir === null ? null : cachedBranchHistory(root, scope, head.branch, cacheDir, env);
  if (cached !== null) return cached;
  const since = scope.since ? [`^${scope.since}`] : [];
  const attempts: string[][] =
    head.branch === scope.defaultBranch
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
  if ('error' in history(root, { revisions: ['HEAD', '-n', '1'] })) return []; // unborn branch: nothing yet
  throw usageError(`tdd.since ${scope.since} is not a commit in this repository`, {
    code: 'CONFIG_INVALID',
    remedy: 'Set tdd.since in .hestai_workspace.yaml to the sha of an existing commit (git log --oneline), or remove it; in CI fetch the full history (fetch-depth: 0).',
  });
}

/**
 * The first of {@link branchHistory}'s attempts through the history cache, with its exclude tips read from
 * files (the default branch's ref, `tdd.since` as a full sha) and git asked about those exact shas on a
 * miss; null when the cache cannot be used or git refused (the attempts then run as before).
 */
function cachedBranchHistory(
  root: string,
  scope: BranchScope,
  branch: string | null,
  cacheDir: string,
  env: NodeJS.ProcessEnv,
): LogCommit[] | null {
  if (scope.noMerges === true) return null;
  const since = scope.since;
  if (since !== null && !/^[0-9a-f]{40}$/.test(since)) return null;
  const excludes: string[] = since === null ? [] : [since];
  if (branch !== scope.defaultBranch) {
    const base = readRef(root, `refs/heads/${scope.defaultBranch}`, env);
    if (base === null) return null;
    excludes.unshift(base);
  }
  const plan = planLog(root, cacheDir, { kind: 'branch', excludes }, env);
  if (plan === null) return null;
  if (plan.kind === 'hit') return plan.commits;
  const result = history(root, { revisions: [plan.head, ...excludes.map((e) => `^${e}`)], topoOrder: true });
  if (!('commits' in result)) return null;
  plan.store(result.commits);
  return result.commits;
}
