import fs from 'node:fs';
import path from 'node:path';
import { readTextIfExists, writeJsonAtomic } from '../state/store.js';
import { textKey } from '../util/text-key.js';
import { runGit } from './exec.js';
import { gitDirOf } from './head.js';
import { runGitAsync } from './async.js';
import { historyArgs } from './history.js';
import { planLog, readCacheText, validCommit } from './log-cache.js';
import { logNonce, parseLog, splitNul, type LogCommit } from './parse.js';
import { commonDirOf, readHead } from './refs.js';

/**
 * The commits between a base and HEAD (`git log`, `git rev-list --count`), which the session protocol reads
 * on every gate check, cached between processes: keyed by both shas, which name the same commits forever
 * (replace refs or grafts present: never cached; the shallow list is in the key), and through the history
 * series of log-cache.ts. The cache files live in the user cache directory (never the worktree, which a
 * repository or an agent can write); anything unexpected in them is a miss. Whenever HEAD cannot be read
 * from files (see refs.ts), nothing is cached and git answers as before. The work tree's files and status
 * are always git's (`git ls-files`, `git status`): no cache of them.
 */

const FORMAT = 3; // 3: range entries only (the work-tree cache is gone)

export interface SnapshotOptions {
  /** Directory for the cache files (the user cache directory); null: never cache. */
  cacheDir: string | null;
  /**
   * Read the per-HEAD entries but never write them (the hooks: HEAD moves with every commit, so an entry
   * for it would rarely be read). The history series of the commits since a base (log-cache.ts) is written
   * either way: extending it is what lets the next commit's hooks answer with one short git log.
   */
  readOnly?: boolean;
}

/** The environment git sees (runGit passes process.env): every variable that can change its answers. */
function gitEnvKey(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && (k.startsWith('GIT_') || k === 'HOME' || k === 'XDG_CONFIG_HOME')) out[k] = v;
  return out;
}

function writeEntry(cacheDir: string, file: string, value: unknown): void {
  try {
    writeJsonAtomic(file, value, { within: cacheDir, durable: false });
  } catch {
    /* caching is an optimisation only */
  }
}

/** What the session protocol needs about the commits between `base` and HEAD. */
export interface RangeFacts {
  /** Commits reachable from HEAD but not from `base` (all of HEAD's with no base); 0 when unborn. */
  count: number;
  /** Those commits, oldest first, with their changed paths (`history`), when asked for; null if git refused. */
  commits: LogCommit[] | null;
  cached: boolean;
}

/** Replace refs or grafts rewrite history without changing HEAD's sha: with either present, nothing is cached. */
function historyRewritten(commonDir: string): boolean {
  if (fs.existsSync(path.join(commonDir, 'info', 'grafts'))) return true;
  try {
    if (fs.readdirSync(path.join(commonDir, 'refs', 'replace')).length > 0) return true;
  } catch {
    /* no refs/replace */
  }
  return /\srefs\/replace\//.test(readTextIfExists(path.join(commonDir, 'packed-refs')) ?? '');
}

function countArgs(head: string, base: string | null): string[] {
  return ['rev-list', '--count', head, ...(base ? [`^${base}`] : []), '--'];
}

const countOf = (r: { status: number; stdout: string }) => (r.status === 0 ? Number(r.stdout.trim()) || 0 : 0);
const commitsOf = (r: { status: number; stdout: string }, nonce: string) =>
  r.status === 0 ? parseLog(r.stdout, true, nonce) : null;
const logArgs = (head: string, base: string | null, nonce: string) =>
  historyArgs({ revisions: [head, ...(base ? [`^${base}`] : [])] }, nonce);

type RangeEntry = { format: number; key: string; count: number; commits: LogCommit[] | null };

/** Where a range's answer comes from: the cache, or git (the HEAD sha to ask about and where to record it). */
type RangePlan =
  | { kind: 'answer'; facts: RangeFacts }
  | {
      kind: 'git';
      head: string;
      store: ((entry: Omit<RangeEntry, 'format' | 'key'>) => void) | null;
      /** Records git's commits in the history series (log-cache.ts). */
      series: ((commits: LogCommit[]) => void) | null;
    };

function planRange(
  root: string,
  base: string | null,
  needs: { commits: boolean },
  options: Pick<SnapshotOptions, 'cacheDir' | 'readOnly'>,
): RangePlan {
  const head = readHead(root);
  const gitDir = head === null ? null : gitDirOf(root);
  // Unreadable without git: HEAD is resolved by git, as before, and nothing is cached.
  if (head === null || gitDir === null) return { kind: 'git', head: 'HEAD', store: null, series: null };
  if (head.sha === null)
    return { kind: 'answer', facts: { count: 0, commits: needs.commits ? [] : null, cached: false } };
  const commonDir = commonDirOf(gitDir);
  if (options.cacheDir === null || historyRewritten(commonDir))
    return { kind: 'git', head: head.sha, store: null, series: null };
  const cacheDir = options.cacheDir;
  const shallow = readTextIfExists(path.join(commonDir, 'shallow')) ?? '';
  // The entry holds its whole key text, compared whole on read; the file is named by a short text key.
  const key = JSON.stringify([FORMAT, 'range', commonDir, head.sha, base, shallow, gitEnvKey()]);
  const file = path.join(cacheDir, 'git', `range-${textKey(key)}.json`);
  try {
    const raw = readCacheText(file);
    const e = raw === null ? null : (JSON.parse(raw) as RangeEntry | null);
    // Exactly what this module writes: git's own records, and a count that agrees with them.
    if (
      e !== null &&
      typeof e === 'object' &&
      !Array.isArray(e) &&
      Object.keys(e).every((k) => ['format', 'key', 'count', 'commits'].includes(k)) &&
      e.format === FORMAT &&
      e.key === key &&
      Number.isInteger(e.count) &&
      e.count >= 0 &&
      (e.commits === null ||
        (Array.isArray(e.commits) && e.commits.every(validCommit) && e.commits.length === e.count)) &&
      (!needs.commits || e.commits !== null)
    )
      return { kind: 'answer', facts: { count: e.count, commits: needs.commits ? e.commits : null, cached: true } };
  } catch {
    /* a miss */
  }
  // The commits since the base: derived from the series' last answer when HEAD has moved on by a few commits.
  const series =
    needs.commits && (base === null || /^[0-9a-f]{40}$/.test(base))
      ? planLog(root, cacheDir, { kind: 'range', excludes: base === null ? [] : [base] })
      : null;
  if (series?.kind === 'hit' && series.head === head.sha)
    return { kind: 'answer', facts: { count: series.commits.length, commits: series.commits, cached: true } };
  return {
    kind: 'git',
    head: head.sha,
    store: options.readOnly === true ? null : (entry) => writeEntry(cacheDir, file, { format: FORMAT, key, ...entry }),
    series: series?.kind === 'miss' && series.head === head.sha ? series.store : null,
  };
}

/**
 * The commits between `base` and HEAD (their number, and with `commits` the commits themselves), cached by
 * the pair of shas. HEAD is read once and every git call names that sha, so the answer is of one HEAD.
 */
export function rangeFacts(
  root: string,
  base: string | null,
  needs: { commits: boolean },
  options: Pick<SnapshotOptions, 'cacheDir' | 'readOnly'>,
): RangeFacts {
  const plan = planRange(root, base, needs, options);
  if (plan.kind === 'answer') return plan.facts;
  const nonce = logNonce();
  const commits = needs.commits
    ? commitsOf(runGit(logArgs(plan.head, base, nonce), { cwd: root, okCodes: [128] }), nonce)
    : null;
  const count =
    commits !== null ? commits.length : countOf(runGit(countArgs(plan.head, base), { cwd: root, okCodes: [128] }));
  if (!needs.commits || commits !== null) plan.store?.({ count, commits });
  if (commits !== null) plan.series?.(commits);
  return { count, commits, cached: false };
}

/** {@link rangeFacts} with an asynchronous git process, to run beside the other git calls of a hook. */
export async function rangeFactsAsync(
  root: string,
  base: string | null,
  needs: { commits: boolean },
  options: Pick<SnapshotOptions, 'cacheDir' | 'readOnly'>,
): Promise<RangeFacts> {
  const plan = planRange(root, base, needs, options);
  if (plan.kind === 'answer') return plan.facts;
  const nonce = logNonce();
  const commits = needs.commits
    ? commitsOf(await runGitAsync(logArgs(plan.head, base, nonce), { cwd: root, okCodes: [128] }), nonce)
    : null;
  const count =
    commits !== null
      ? commits.length
      : countOf(await runGitAsync(countArgs(plan.head, base), { cwd: root, okCodes: [128] }));
  if (!needs.commits || commits !== null) plan.store?.({ count, commits });
  if (commits !== null) plan.series?.(commits);
  return { count, commits, cached: false };
}

/** The work tree's files (tracked, and untracked not ignored) from an asynchronous git process. */
export async function workTreeFilesAsync(root: string): Promise<string[]> {
  return splitNul(
    (await runGitAsync(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root })).stdout,
  );
}
