import path from 'node:path';
import { readOwnCacheFile, writeJsonAtomic } from '../state/store.js';
import { textKey } from '../util/text-key.js';
import {
  configSources,
  ctimeMs,
  gitConfigList,
  parseConfigSources,
  signature,
  standardConfigFiles,
  type StatKey,
} from './config-files.js';
import { gitDirOf } from './head.js';
import { commonDirOf } from './refs.js';

/** What `commit.cleanup` and `core.commentChar` say. */
export interface CommitMessageConfig {
  /** `core.commentChar` as configured (`#` when unset; may be `auto`). */
  commentChar: string;
  cleanup: 'strip' | 'whitespace' | 'verbatim' | 'scissors' | 'default';
}

const CLEANUPS: readonly string[] = ['strip', 'whitespace', 'verbatim', 'scissors', 'default'];

/** Pure: the message config from git's entries in its order (the last value of a key wins). */
export function messageConfigOf(entries: Iterable<{ key: string; value: string }>): CommitMessageConfig {
  const result: CommitMessageConfig = { commentChar: '#', cleanup: 'default' };
  for (const { key, value } of entries) {
    if (key === 'core.commentchar' && value !== '') result.commentChar = value;
    if (key === 'commit.cleanup' && CLEANUPS.includes(value)) result.cleanup = value as CommitMessageConfig['cleanup'];
  }
  return result;
}

/**
 * The message config, cached between processes (issue 15, Speed: the commit-msg hook reads it on every commit)
 * so that a read starts no git process while no config file changed.
 *
 * The answer is keyed by the repository (worktree root and git dir), by the environment git reads its
 * configuration through, and by the stat signature (see config-files.ts) of every config file git reads or
 * would read if it existed. Never cached: a configuration with `include.*` / `includeIf.*` (a condition such
 * as `onbranch:` changes the answer with no file changing) or with entries from the command line or the
 * environment (`git -c`, `GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`), `GIT_CONFIG` (which only `git config`
 * itself reads) or `GIT_COMMON_DIR` set, a config file changed less than `racyMarginMs` before the read (git's
 * racy rule: a change within the timestamp granularity could hide behind an equal stat), a cache directory
 * inside the repository. The cache file lives in the user cache directory; anything unexpected in it is a miss.
 */

const FORMAT = 1;
const DEFAULT_RACY_MARGIN_MS = 2000;

/**
 * Variables git sets for a hook that differ from commit to commit and never change what git's configuration
 * says (the commit's identity and date, the index it commits, the editor): left out of the key, so the next
 * commit finds the answer. Every other `GIT_*` variable is part of the key.
 */
const PER_COMMIT_ENV = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_INDEX_FILE',
  'GIT_EDITOR',
  'GIT_PREFIX',
  'GIT_REFLOG_ACTION',
]);

/** Variables with which git's configuration does not come from the files alone: never cached. */
const UNCACHEABLE_ENV = ['GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_CONFIG', 'GIT_COMMON_DIR'];

export interface MessageConfigOptions {
  /** Directory for the cache file (the user cache directory); null: never cache. */
  cacheDir: string | null;
  /** Config files changed this recently when git is asked make the answer uncacheable (default 2 s). */
  racyMarginMs?: number;
  /** Real time in ms (compared with file timestamps). */
  now?: () => number;
}

interface Entry {
  format: number;
  key: string;
  stats: Record<string, string>;
  commentChar: string;
  cleanup: CommitMessageConfig['cleanup'];
}

/** An entry holds exactly these keys (anything else: not what this module writes, a miss). */
const ENTRY_KEYS = ['format', 'key', 'stats', 'commentChar', 'cleanup'];
/** A bound on an entry (a key and a signature per config file): a larger file is a miss. */
const MAX_ENTRY_BYTES = 1024 * 1024;

function readEntry(file: string, key: string, standard: readonly string[]): Entry | null {
  try {
    const raw = readOwnCacheFile(file, MAX_ENTRY_BYTES);
    if (raw === null) return null;
    const e = JSON.parse(raw) as Partial<Entry> | null;
    if (
      e === null ||
      typeof e !== 'object' ||
      Array.isArray(e) ||
      !Object.keys(e).every((k) => ENTRY_KEYS.includes(k)) ||
      e.format !== FORMAT ||
      e.key !== key ||
      typeof e.stats !== 'object' ||
      e.stats === null ||
      Array.isArray(e.stats) ||
      !Object.values(e.stats).every((sig) => typeof sig === 'string') ||
      !standard.every((f) => Object.hasOwn(e.stats!, f)) ||
      typeof e.commentChar !== 'string' ||
      e.commentChar === '' ||
      typeof e.cleanup !== 'string' ||
      !CLEANUPS.includes(e.cleanup)
    )
      return null;
    return e as Entry;
  } catch {
    return null;
  }
}

/** The `GIT_*` variables (less {@link PER_COMMIT_ENV}), `HOME` and `XDG_CONFIG_HOME`: what the key holds. */
function envKey(env: NodeJS.ProcessEnv): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(env))
    if (
      v !== undefined &&
      ((k.startsWith('GIT_') && !PER_COMMIT_ENV.has(k)) || k === 'HOME' || k === 'XDG_CONFIG_HOME')
    )
      out.push([k, v]);
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

const inside = (dir: string, parent: string) => {
  const rel = path.relative(parent, dir);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
};

/**
 * `core.commentChar` and `commit.cleanup` as git in `root` sees them (git's own environment: process.env), from
 * the cache when no config file changed since they were recorded, else from one git process (and recorded when
 * cacheable). `cached` says whether the answer came from the cache.
 */
export function commitMessageConfig(
  root: string,
  options: MessageConfigOptions = { cacheDir: null },
): { config: CommitMessageConfig; cached: boolean } {
  const env = process.env;
  const gitDir = gitDirOf(root, env);
  const cacheDir =
    options.cacheDir === null || gitDir === null || UNCACHEABLE_ENV.some((k) => env[k] !== undefined)
      ? null
      : options.cacheDir;
  if (cacheDir === null || gitDir === null || inside(cacheDir, root)) return { config: fromGit(root), cached: false };
  const commonDir = commonDirOf(gitDir);
  if (inside(cacheDir, commonDir)) return { config: fromGit(root), cached: false };

  const standard = standardConfigFiles(root, commonDir, gitDir, env);
  const key = JSON.stringify([FORMAT, 'message-config', root, gitDir, commonDir, envKey(env)]);
  // The file is found by a short key of `key` and holds `key` itself, which a read compares whole.
  const file = path.join(cacheDir, 'git', `message-config-${textKey(key)}.json`);
  const entry = readEntry(file, key, standard);
  if (entry !== null && Object.entries(entry.stats).every(([f, sig]) => signature(`S:${f}`) === sig))
    return { config: { commentChar: entry.commentChar, cleanup: entry.cleanup }, cached: true };

  // A miss: ask git (one process tells both the answer and the files it came from), then record it.
  const now = options.now ?? Date.now;
  const started = now();
  const sources = configSources(root, commonDir, gitDir);
  const config = messageConfigOf(sources.entries);
  if (!sources.cacheable) return { config, cached: false };
  try {
    const stats: Record<string, string> = {};
    for (const f of sources.files) stats[f] = signature(`S:${f}` as StatKey);
    const limit = started - (options.racyMarginMs ?? DEFAULT_RACY_MARGIN_MS);
    if (Object.values(stats).some((sig) => (ctimeMs(sig) ?? -Infinity) >= limit)) return { config, cached: false };
    writeJsonAtomic(file, { format: FORMAT, key, stats, ...config } satisfies Entry, {
      within: cacheDir,
      durable: false,
    });
  } catch {
    /* the answer stands; it is just not cached */
  }
  return { config, cached: false };
}

/** The answer without the cache: one git process. */
function fromGit(root: string): CommitMessageConfig {
  return messageConfigOf(parseConfigSources(gitConfigList(root), root, []).entries);
}
