import fs from 'node:fs';
import path from 'node:path';
import { readOwnCacheFile, readTextIfExists, writeJsonAtomic } from '../state/store.js';
import { sha256Hex } from '../util/sha256.js';
import { textKey } from '../util/text-key.js';
import { configSources, ctimeMs, signature, type StatKey } from './config-files.js';
import { git, runGit } from './exec.js';
import { gitDirOf } from './head.js';
import { runGitAsync } from './async.js';
import { historyArgs } from './history.js';
import { planLog, readCacheText, validCommit } from './log-cache.js';
import { logNonce, parseLog, parseStatusZ, splitNul, type LogCommit } from './parse.js';
import { commonDirOf, readHead, type HeadState } from './refs.js';

/**
 * Git facts the session protocol reads on every gate check, cached between processes so that a read
 * starts no git process while nothing changed (issue 15, Speed):
 *
 * - the work tree's file list (`git ls-files --cached --others --exclude-standard`) and, when asked, its
 *   uncommitted paths (`git status`), valid while HEAD, the index, every directory git walks, every ignore
 *   and attribute source and every config file are exactly as they were (inode, size, mtime and ctime; a
 *   ctime cannot be set back by a user, so `touch -d` does not hide a change);
 * - the commits between a base and HEAD (`git log`, `git rev-list --count`): keyed by both shas, which name
 *   the same commits forever (replace refs or grafts present: never cached; the shallow list is in the key).
 *
 * A snapshot with any entry changed less than `racyMarginMs` before it was taken is not cached (git's racy
 * rule: a change within the file system's timestamp granularity could hide behind an equal stat). The cache
 * files live in the user cache directory (never the worktree, which a repository or an agent can write);
 * anything unexpected in them is a miss. Whenever HEAD cannot be read from files (see refs.ts), nothing
 * is cached and git answers as before.
 */

const FORMAT = 2; // 2: the standard config files are keys, and a configuration with includes is never cached
const DEFAULT_RACY_MARGIN_MS = 2000;
/**
 * A snapshot whose check would stat more entries than this is not cached: beyond it, stat-ing every entry
 * in JavaScript costs about what git's own scan does, so git answers (large repositories, mostly with
 * git_clean, which needs every file).
 */
const MAX_ENTRIES = 20_000;

export interface SnapshotOptions {
  /** Directory for the cache files (the user cache directory); null: never cache. */
  cacheDir: string | null;
  /**
   * Read the per-HEAD entries but never write them (the hooks: HEAD moves with every commit, so an entry
   * for it would rarely be read). The history series of the commits since a base (log-cache.ts) is written
   * either way: extending it is what lets the next commit's hooks answer without git.
   */
  readOnly?: boolean;
  /** Entries changed this recently when a snapshot is taken make it uncacheable (default 2 s). */
  racyMarginMs?: number;
  /** Real time in ms (not the injectable clock: this is compared with file timestamps). */
  now?: () => number;
}

export interface WorkTreeSnapshot {
  /** Tracked and untracked (not ignored) files. */
  files: string[];
  /** Uncommitted paths (staged, unstaged, untracked), when asked for. */
  dirty: string[] | null;
  /** Whether the answer came from the cache (no git process). */
  cached: boolean;
}

/** The environment git sees (runGit passes process.env): every variable that can change its answers. */
function gitEnvKey(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && (k.startsWith('GIT_') || k === 'HOME' || k === 'XDG_CONFIG_HOME')) out[k] = v;
  return out;
}

interface Entry {
  format: number;
  key: string;
  head: HeadState;
  stats: Record<string, string>;
  files: string[];
  dirty: string[] | null;
}

/** The work-tree cache holds every tracked path: a larger file is a miss (git answers). */
const MAX_ENTRY_BYTES = 32 * 1024 * 1024;

function readEntry(file: string, key: string): Entry | null {
  try {
    const raw = readOwnCacheFile(file, MAX_ENTRY_BYTES);
    if (raw === null) return null;
    const e = JSON.parse(raw) as Partial<Entry> | null;
    if (
      e === null ||
      typeof e !== 'object' ||
      e.format !== FORMAT ||
      e.key !== key ||
      typeof e.head !== 'object' ||
      e.head === null ||
      typeof e.stats !== 'object' ||
      e.stats === null ||
      !Array.isArray(e.files) ||
      !e.files.every((f) => typeof f === 'string') ||
      !(e.dirty === null || (Array.isArray(e.dirty) && e.dirty.every((f) => typeof f === 'string')))
    )
      return null;
    return e as Entry;
  } catch {
    return null;
  }
}

function writeEntry(cacheDir: string, file: string, value: unknown): void {
  try {
    writeJsonAtomic(file, value, { within: cacheDir, durable: false });
  } catch {
    /* caching is an optimisation only */
  }
}

const sameHead = (a: HeadState, b: HeadState) => a.sha === b.sha && a.branch === b.branch;

function expandHome(p: string): string {
  const home = process.env['HOME'] ?? '';
  return p.startsWith('~/') ? path.join(home, p.slice(2)) : p;
}

/**
 * The directories git walks for untracked files: every directory under `root` except `.git`, wholly ignored
 * ones (`ignoredDirs`, as `git ls-files --others --ignored --directory` reports them) and the insides of
 * nested repositories; with the `.gitignore` / `.gitattributes` files in them.
 */
function walk(root: string, ignoredDirs: ReadonlySet<string>): { dirs: string[]; rules: string[] } {
  const dirs: string[] = [];
  const rules: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const abs = rel === '' ? root : path.join(root, rel);
    dirs.push(abs);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    if (rel !== '' && entries.some((e) => e.name === '.git')) continue; // a nested repository
    for (const e of entries) {
      if (e.name === '.git') continue;
      if (e.name === '.gitignore' || e.name === '.gitattributes') rules.push(path.join(abs, e.name));
      if (!e.isDirectory()) continue;
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (!ignoredDirs.has(`${child}/`)) stack.push(child);
    }
  }
  return { dirs, rules };
}

function gitStatus(root: string): string[] {
  return parseStatusZ(
    git(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: root }),
  ).map((e) => e.path);
}

function workTreeFilesFromGit(root: string): string[] {
  return splitNul(git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root }));
}

/**
 * The work tree's files (and, with `dirty`, its uncommitted paths) from the cache when nothing git looks at
 * changed since they were recorded, else from git (and recorded when the work tree is quiet).
 */
export function workTreeSnapshot(root: string, needs: { dirty: boolean }, options: SnapshotOptions): WorkTreeSnapshot {
  const head = options.cacheDir === null ? null : readHead(root);
  const gitDir = head === null ? null : gitDirOf(root);
  if (options.cacheDir === null || head === null || gitDir === null) {
    return { files: workTreeFilesFromGit(root), dirty: needs.dirty ? gitStatus(root) : null, cached: false };
  }
  const env = gitEnvKey();
  const key = sha256Hex(JSON.stringify([FORMAT, 'worktree', root, gitDir, env]));
  const file = path.join(options.cacheDir, 'git', `${key}.json`);
  const entry = readEntry(file, key);
  if (
    entry !== null &&
    sameHead(entry.head, head) &&
    (!needs.dirty || entry.dirty !== null) &&
    Object.entries(entry.stats).every(([k, sig]) => signature(k as StatKey) === sig)
  ) {
    return { files: entry.files, dirty: needs.dirty ? entry.dirty : null, cached: true };
  }

  // A miss: ask git, then record what its answer depends on, unless something changed too recently.
  const now = options.now ?? Date.now;
  const started = now();
  const files = workTreeFilesFromGit(root);
  const dirty = needs.dirty ? gitStatus(root) : null;
  const snapshot = { files, dirty, cached: false };
  try {
    const ignored = new Set(
      splitNul(
        git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { cwd: root }),
      ).filter((p) => p.endsWith('/')),
    );
    const commonDir = commonDirOf(gitDir);
    const config = configSources(root, commonDir, gitDir);
    if (!config.cacheable) return snapshot;
    const xdg = process.env['XDG_CONFIG_HOME'] || path.join(process.env['HOME'] ?? '', '.config');
    const indexFile = process.env['GIT_INDEX_FILE']
      ? path.resolve(root, process.env['GIT_INDEX_FILE'])
      : path.join(gitDir, 'index');
    const keys: StatKey[] = [
      `L:${indexFile}`,
      `S:${path.join(commonDir, 'info', 'exclude')}`,
      `S:${path.join(commonDir, 'info', 'attributes')}`,
      `S:${config.excludes === null ? path.join(xdg, 'git', 'ignore') : path.resolve(root, expandHome(config.excludes))}`,
      `S:${config.attributes === null ? path.join(xdg, 'git', 'attributes') : path.resolve(root, expandHome(config.attributes))}`,
      ...config.files.map((f): StatKey => `S:${f}`),
    ];
    const tree = walk(root, ignored);
    keys.push(...tree.dirs.map((d): StatKey => `L:${d}`), ...tree.rules.map((r): StatKey => `L:${r}`));
    if (dirty !== null) {
      for (const f of files) {
        const k: StatKey = `L:${path.join(root, f)}`;
        keys.push(k);
      }
    }
    if (keys.length > MAX_ENTRIES) return snapshot;
    const stats: Record<string, string> = {};
    for (const k of keys) stats[k] = signature(k);
    const limit = started - (options.racyMarginMs ?? DEFAULT_RACY_MARGIN_MS);
    const racy = Object.values(stats).some((sig) => (ctimeMs(sig) ?? -Infinity) >= limit);
    // A tracked directory is a submodule: its status depends on another repository; not cached.
    const isDir = (sig: string | undefined) =>
      sig !== undefined &&
      sig !== 'missing' &&
      (Number(sig.split(':')[0]) & fs.constants.S_IFMT) === fs.constants.S_IFDIR;
    const submodule = dirty !== null && files.some((f) => isDir(stats[`L:${path.join(root, f)}`]));
    const after = readHead(root);
    if (!racy && !submodule && after !== null && sameHead(after, head))
      writeEntry(options.cacheDir, file, { format: FORMAT, key, head, stats, files, dirty } satisfies Entry);
  } catch {
    /* the answer stands; it is just not cached */
  }
  return snapshot;
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
