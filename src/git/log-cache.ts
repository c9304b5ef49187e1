import fs from 'node:fs';
import path from 'node:path';
import { readOwnCacheFile, writeFileAtomic } from '../state/store.js';
import { textKey } from '../util/text-key.js';
import { gitDirOf } from './head.js';
import { gitEnvBool } from './env-bool.js';
import { runGit } from './exec.js';
import { historyArgs } from './history.js';
import { logNonce, parseLog, type FileChange, type LogCommit } from './parse.js';
import { commonDirOf, readHead } from './refs.js';

/**
 * The history cache (issue 15, Speed; issue 27: git answers git questions): the hooks' `git log`s
 * (pre-commit's commits since the session start, commit-msg's branch history) answered without the whole
 * log in the common case.
 *
 * One entry per series, i.e. per repository, worktree, branch, kind of log and exclude tips (full shas,
 * resolved from files by the caller): the answer git gave for the series' last tip T. When HEAD is T, that
 * answer is returned with no git process. When HEAD has moved on, ONE git process (`git log HEAD ^T`, the
 * same format) lists the commits since; if they are a short linear chain that reaches T by first parents,
 * with no merge and no exclude tip, the answer for HEAD is T's answer followed by them, which is exactly
 * git's answer when T's answer is non-empty (T is not reachable from the excludes, so neither is any
 * descendant of T), or there are no excludes, or T is the only exclude tip. Nothing is ever derived from
 * git's object files: every commit record in the cache is one git printed.
 * The extended answer is then written back (atomically), so the next commit extends it in turn.
 *
 * Any doubt and git answers the whole log, exactly as before: variables that move the repository, its
 * objects, its history or add configuration; replace refs, grafts, a shallow clone; configuration that
 * changes what this log prints (log.showSignature, i18n.logOutputEncoding, i18n.commitEncoding,
 * diff.orderFile, diff.relative, diff.noPrefix, includes, a sha256 object format), which could differ
 * between the run that wrote T's answer and this one; a cache file that is not exactly what this module
 * writes. The cache files live in the user cache directory, never in the worktree (which a repository or
 * an agent can write), and are read only when their structure is exactly right.
 */

const FORMAT = 2; // 2: no `utc` (nothing is derived from objects)
/** At most this many new commits extend an answer; more and git answers the whole log (and the chain restarts). */
export const MAX_CHAIN = 32;
/** A cache file larger than this is neither read nor written (a history that long: git answers). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** Variables that move the repository, its objects or refs, rewrite history or add configuration. */
const DOUBT_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_GRAFT_FILE',
  'GIT_SHALLOW_FILE',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_QUARANTINE_PATH',
  'GIT_REF_STORAGE',
];

/**
 * Configuration that changes what `history()`'s git log prints, or that this module cannot follow: these
 * words anywhere in a config file (a plain search, so a value or comment that merely contains one also
 * sends the hooks to git: never the other way round).
 */
const DOUBT_CONFIG = /logoutputencoding|commitencoding|showsignature|orderfile|relative|noprefix|objectformat|include/i;

const SHA = /^[0-9a-f]{40}$/;
const ISO = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:Z|[+-][0-9]{2}:[0-9]{2})$/;

/**
 * A cache file this user may trust, or null: a regular file (not a FIFO, a symlink or a directory), owned by
 * this user (not another user's in a shared cache directory), within the size bound; checked on the open
 * descriptor it is read from (readOwnCacheFile).
 */
export const readCacheText = (file: string): string | null => readOwnCacheFile(file, MAX_FILE_BYTES);

const readText = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** The configuration files git would read (system, global, repository, worktree); null when unsure. */
function configFiles(commonDir: string, gitDir: string, env: NodeJS.ProcessEnv): string[] | null {
  const files: string[] = [];
  const nosystem = env['GIT_CONFIG_NOSYSTEM'];
  const skipSystem = nosystem === undefined ? false : gitEnvBool(nosystem);
  if (skipSystem === null) return null;
  if (!skipSystem) files.push(env['GIT_CONFIG_SYSTEM'] ?? '/etc/gitconfig');
  const home = env['HOME'] ?? '';
  if (env['GIT_CONFIG_GLOBAL'] !== undefined) files.push(env['GIT_CONFIG_GLOBAL']);
  else if (home !== '') {
    files.push(path.join(env['XDG_CONFIG_HOME'] || path.join(home, '.config'), 'git', 'config'));
    files.push(path.join(home, '.gitconfig'));
  } else return null;
  files.push(path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree'));
  return files.filter((f) => f !== '');
}

/** Whether anything in the repository or the environment could make git's log differ from a derived one. */
function doubtful(commonDir: string, gitDir: string, env: NodeJS.ProcessEnv): boolean {
  if (DOUBT_ENV.some((k) => env[k] !== undefined && env[k] !== '')) return true;
  if (fs.existsSync(path.join(commonDir, 'shallow')) || fs.existsSync(path.join(commonDir, 'info', 'grafts')))
    return true;
  try {
    if (fs.readdirSync(path.join(commonDir, 'refs', 'replace')).length > 0) return true;
  } catch {
    /* no refs/replace */
  }
  const packed = readText(path.join(commonDir, 'packed-refs'));
  if (packed !== null && /\srefs\/replace\//.test(packed)) return true;
  const files = configFiles(commonDir, gitDir, env);
  if (files === null) return true;
  return files.some((f) => DOUBT_CONFIG.test(readText(f) ?? ''));
}

/** Every key of `o` is one of `keys`. */
const onlyKeys = (o: object, keys: readonly string[]) => Object.keys(o).every((k) => keys.includes(k));

function validChange(c: unknown): c is FileChange {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return false;
  const x = c as Record<string, unknown>;
  if (!onlyKeys(x, ['status', 'path', 'score']) || typeof x['path'] !== 'string') return false;
  if (x['status'] === 'R' || x['status'] === 'C')
    return Number.isInteger(x['score']) && (x['score'] as number) >= 0 && (x['score'] as number) <= 100;
  return ['A', 'M', 'D', 'T'].includes(x['status'] as string) && !('score' in x);
}

/** Exactly a record `history()` returns (with `--name-status`): the only shape a cache may hold. */
export function validCommit(c: unknown): c is LogCommit {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return false;
  const x = c as Record<string, unknown>;
  const keys = ['sha', 'parents', 'authorDate', 'committerDate', 'message', 'files', 'changes'];
  if (!onlyKeys(x, keys) || !keys.every((k) => k in x)) return false;
  const { sha, parents, authorDate, committerDate, message, files, changes } = x;
  return (
    typeof sha === 'string' &&
    SHA.test(sha) &&
    Array.isArray(parents) &&
    parents.every((p) => typeof p === 'string' && SHA.test(p)) &&
    typeof authorDate === 'string' &&
    ISO.test(authorDate) &&
    typeof committerDate === 'string' &&
    ISO.test(committerDate) &&
    typeof message === 'string' &&
    Array.isArray(files) &&
    Array.isArray(changes) &&
    files.length === changes.length &&
    changes.every((ch, i) => validChange(ch) && ch.path === files[i])
  );
}

interface Entry {
  format: number;
  key: string;
  tip: string;
  excludes: string[];
  commits: LogCommit[];
}

function readEntry(file: string, key: string, excludes: readonly string[]): Entry | null {
  const raw = readCacheText(file);
  if (raw === null) return null;
  try {
    const e = JSON.parse(raw) as unknown;
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return null;
    const x = e as Record<string, unknown>;
    if (!onlyKeys(x, ['format', 'key', 'tip', 'excludes', 'commits'])) return null;
    const { tip, commits } = x;
    if (
      x['format'] !== FORMAT ||
      x['key'] !== key ||
      typeof tip !== 'string' ||
      !SHA.test(tip) ||
      JSON.stringify(x['excludes']) !== JSON.stringify(excludes) ||
      !Array.isArray(commits) ||
      !commits.every(validCommit) ||
      (commits.length > 0 && (commits[commits.length - 1] as LogCommit).sha !== tip) ||
      new Set(commits.map((c: LogCommit) => c.sha)).size !== commits.length
    )
      return null;
    return e as Entry;
  } catch {
    return null;
  }
}

/**
 * The commits from `tip` (exclusive) to `head`, oldest first, from ONE `git log head ^tip` in the log's own
 * format, when they are a linear chain of at most {@link MAX_CHAIN} commits reaching `tip` by first parents
 * with no commit in `stop`; null otherwise (git refused, a merge, a longer or unrelated history).
 */
function chainSince(
  root: string,
  spec: LogSpec,
  head: string,
  tip: string,
  stop: ReadonlySet<string>,
): LogCommit[] | null {
  const nonce = logNonce();
  const args = historyArgs(
    { revisions: [head, `^${tip}`, `--max-count=${MAX_CHAIN + 1}`], topoOrder: spec.kind === 'branch' },
    nonce,
  );
  const result = runGit(args, { cwd: root, okCodes: [128] });
  if (result.status !== 0) return null;
  const chain = parseLog(result.stdout, true, nonce);
  if (chain.length === 0 || chain.length > MAX_CHAIN || chain[chain.length - 1]!.sha !== head) return null;
  let parent = tip;
  for (const c of chain) {
    if (stop.has(c.sha) || c.parents.length !== 1 || c.parents[0] !== parent) return null;
    parent = c.sha;
  }
  return chain;
}

/** What a log is: its kind (which `history()` options) and its exclude tips (full shas, in git's order). */
export interface LogSpec {
  kind: 'range' | 'branch';
  excludes: readonly string[];
}

/**
 * Where a log's answer comes from: the cache (`hit`), or git for `head` (`miss`: then `store` its answer).
 * Null: the cache cannot be used here (see above); ask git as before and store nothing.
 */
export type LogPlan =
  | { kind: 'hit'; head: string; commits: LogCommit[] }
  | { kind: 'miss'; head: string; store: (commits: LogCommit[]) => void };

export function planLog(
  root: string,
  cacheDir: string | null,
  spec: LogSpec,
  env: NodeJS.ProcessEnv = process.env,
): LogPlan | null {
  if (cacheDir === null || !spec.excludes.every((e) => SHA.test(e))) return null;
  const head = readHead(root, env);
  const gitDir = head === null ? null : gitDirOf(root, env);
  if (head === null || head.sha === null || gitDir === null || !SHA.test(head.sha)) return null;
  const headSha = head.sha;
  const commonDir = commonDirOf(gitDir);
  if (doubtful(commonDir, gitDir, env)) return null;
  const excludes = [...new Set(spec.excludes)];
  // The entry holds its whole key text and a read compares it whole; the file is named by a short text key.
  const key = JSON.stringify([FORMAT, 'log', spec.kind, commonDir, gitDir, head.branch, excludes]);
  const file = path.join(cacheDir, 'git', `log-${textKey(key)}.json`);
  const entry = readEntry(file, key, excludes);
  const write = (target: string, text: string) => {
    try {
      writeFileAtomic(target, text, { within: cacheDir, durable: false });
    } catch {
      /* caching is an optimisation only */
    }
  };
  const store = (commits: LogCommit[]): void => {
    if (commits.length > 0 && commits[commits.length - 1]!.sha !== headSha) return;
    const value: Entry = { format: FORMAT, key, tip: headSha, excludes, commits };
    const text = JSON.stringify(value);
    if (text.length <= MAX_FILE_BYTES) write(file, text);
  };
  const miss: LogPlan = { kind: 'miss', head: headSha, store };
  if (entry === null) return miss;
  if (entry.tip === headSha) return { kind: 'hit', head: headSha, commits: entry.commits };
  const provable =
    excludes.length === 0 || entry.commits.length > 0 || (excludes.length === 1 && excludes[0] === entry.tip);
  if (!provable) return miss;
  const chain = chainSince(root, spec, headSha, entry.tip, new Set(excludes));
  if (chain === null) return miss;
  const commits = [...entry.commits, ...chain];
  store(commits);
  return { kind: 'hit', head: headSha, commits };
}
