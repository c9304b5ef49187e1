import { runGitAsync } from './async.js';
import { historyArgs } from './history.js';
import { logNonce, parseLog, splitNul, type LogCommit } from './parse.js';

/**
 * The commits between a base and HEAD (`git log`, `git rev-list --count`), which the session protocol reads
 * on its gate checks, and the work tree's files (`git ls-files`): always git's answer, one process each.
 * No cache (issue 27, "No cache decides"): an agent running as the user can write any cache file, and these
 * facts decide gates such as `tests_first`.
 */

/** What the session protocol needs about the commits between `base` and HEAD. */
export interface RangeFacts {
  /** Commits reachable from HEAD but not from `base` (all of HEAD's with no base); 0 when unborn. */
  count: number;
  /** Those commits, oldest first, with their changed paths (`history`), when asked for; null if git refused. */
  commits: LogCommit[] | null;
}

function countArgs(base: string | null): string[] {
  return ['rev-list', '--count', 'HEAD', ...(base ? [`^${base}`] : []), '--'];
}

const countOf = (r: { status: number; stdout: string }) => (r.status === 0 ? Number(r.stdout.trim()) || 0 : 0);
const commitsOf = (r: { status: number; stdout: string }, nonce: string) =>
  r.status === 0 ? parseLog(r.stdout, true, nonce) : null;
const logArgs = (base: string | null, nonce: string) =>
  historyArgs({ revisions: ['HEAD', ...(base ? [`^${base}`] : [])] }, nonce);

/** The commits between `base` and HEAD (their number, and with `commits` the commits themselves), from git processes that do not block the caller. */
export async function rangeFactsAsync(
  root: string,
  base: string | null,
  needs: { commits: boolean },
): Promise<RangeFacts> {
  const nonce = logNonce();
  const commits = needs.commits
    ? commitsOf(await runGitAsync(logArgs(base, nonce), { cwd: root, okCodes: [128] }), nonce)
    : null;
  const count =
    commits !== null ? commits.length : countOf(await runGitAsync(countArgs(base), { cwd: root, okCodes: [128] }));
  return { count, commits };
}

/** The work tree's files (tracked, and untracked not ignored) from an asynchronous git process. */
export async function workTreeFilesAsync(root: string): Promise<string[]> {
  return splitNul(
    (await runGitAsync(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root })).stdout,
  );
}
