import fs from 'node:fs';
import path from 'node:path';
import { textKey } from '../util/text-key.js';
import { readOwnCacheFile, writeJsonAtomic } from '../state/store.js';
import { DEFAULTS } from './defaults.js';
import type { WorkspaceConfig } from './schema.js';

/**
 * Bumped whenever the schema or its defaults change, so an old cache is never trusted. 4: the cache holds the
 * exact text it was validated from (compared whole on read) instead of its sha256, and is named by textKey.
 */
const CACHE_FORMAT = 4;
/** A cache entry holds the config text and the validated config: a larger file is a miss (a full load). */
const MAX_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * The user's cache directory: `$XDG_CACHE_HOME/hestai`, else `$HOME/.cache/hestai`; null without either, and
 * null when it lies inside a git worktree (see insideWorktree). The caches live here, outside every worktree
 * (issue 12, item 3): a repository can commit or hand-edit anything under `.hestai/`, so a cache there could
 * switch rules off for a text it matches.
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const xdg = env['XDG_CACHE_HOME'];
  const home = env['HOME'];
  const dir =
    xdg && path.isAbsolute(xdg)
      ? path.join(xdg, 'hestai')
      : home && path.isAbsolute(home)
        ? path.join(home, '.cache', 'hestai')
        : null;
  return dir === null || insideWorktree(dir) ? null : dir;
}

const worktreeAnswers = new Map<string, boolean>();
/**
 * Whether `dir` or a directory above it holds a `.git` entry: a git worktree, whose files a clone or an agent
 * writes. HOME at a repository's root (common in containers) or XDG_CACHE_HOME pointing into one would make a
 * cloned repository's committed files the caches (git facts and verdicts they
 * believe), so no cache is kept there at all; the hooks then answer as without one. Remembered per process.
 */
function insideWorktree(dir: string): boolean {
  let known = worktreeAnswers.get(dir);
  if (known === undefined) {
    known = false;
    for (let d = dir; ; d = path.dirname(d)) {
      let found: boolean;
      try {
        found = fs.lstatSync(path.join(d, '.git'), { throwIfNoEntry: false }) !== undefined;
      } catch (error) {
        found = (error as NodeJS.ErrnoException).code !== 'ENOTDIR'; // cannot tell: as if inside, no cache
      }
      if (found) {
        known = true;
        break;
      }
      if (path.dirname(d) === d) break;
    }
    worktreeAnswers.set(dir, known);
  }
  return known;
}

/**
 * Where the validated config for this text is cached (named by its text key, src/util/text-key.ts; the file
 * holds the text itself, which a read compares whole); null without a cache dir.
 */
export function configCacheFile(text: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = userCacheDir(env);
  return dir === null ? null : path.join(dir, 'config', `${CACHE_FORMAT}-${textKey(text)}.json`);
}

/** Enumerated values the rules branch on: a value outside these is never taken from a cache. */
const ENUMS: Record<string, readonly string[]> = {
  'tdd.policy': ['paired', 'scoped', 'any', 'same-commit'],
  'anchor.strictness': ['quick', 'default', 'deep'],
  'anchor.constitutions': ['install', 'strict'],
  'verify.trailers': ['off', 'warn', 'error'],
  'verify.bypass': ['warn', 'error'],
};

/** The element shape of arrays whose default is empty (otherwise an empty default means strings). */
const ELEMENTS: Record<string, unknown> = {
  quality_gates: { name: '', command: '', timeout_ms: 0 },
};

/**
 * Pure, free of zod: does `value` have the shape of `template` (the defaults) at every key the defaults
 * name? Same JSON type everywhere, arrays of the same element type, `null` only where the default is null
 * (which then also accepts a string), enums within their values. Keys the defaults do not name (optional
 * keys such as `ai.base_url`) must be strings, numbers, booleans or arrays of strings.
 */
export function sameShape(value: unknown, template: unknown, key = ''): boolean {
  if (template === null) return value === null || typeof value === 'string';
  if (Array.isArray(template)) {
    if (!Array.isArray(value)) return false;
    const sample = ELEMENTS[key] ?? template[0] ?? '';
    return value.every((v) => sameShape(v, sample, `${key}[]`));
  }
  if (typeof template === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const t = template as Record<string, unknown>;
    const v = value as Record<string, unknown>;
    for (const k of Object.keys(t)) if (!(k in v) || !sameShape(v[k], t[k], key ? `${key}.${k}` : k)) return false;
    for (const k of Object.keys(v)) {
      if (k in t) continue;
      const extra = v[k];
      const ok =
        ['string', 'number', 'boolean'].includes(typeof extra) ||
        (Array.isArray(extra) && extra.every((e) => typeof e === 'string'));
      if (!ok) return false;
    }
    return true;
  }
  if (typeof value !== typeof template) return false;
  if (typeof value === 'number' && !Number.isFinite(value)) return false;
  const allowed = ENUMS[key];
  return allowed === undefined || allowed.includes(value as string);
}

/**
 * The validated config for `text` from the user cache, or null when the cache is missing, unreadable,
 * for another text (the cached text must equal `text` exactly) or not of the config's shape (`sameShape` against the defaults). Never
 * throws: a bad cache only means a full (slower) load, which rewrites it.
 */
export function readCachedConfig(
  _root: string,
  text: string,
  env: NodeJS.ProcessEnv = process.env,
): WorkspaceConfig | null {
  try {
    const file = configCacheFile(text, env);
    if (file === null) return null;
    const raw = readOwnCacheFile(file, MAX_CACHE_BYTES);
    if (raw === null) return null;
    const cached = JSON.parse(raw) as { format?: unknown; text?: unknown; config?: unknown } | null;
    if (cached === null || typeof cached !== 'object' || cached.format !== CACHE_FORMAT || cached.text !== text)
      return null;
    if (!sameShape(cached.config, DEFAULTS)) return null;
    return cached.config as WorkspaceConfig;
  } catch {
    return null;
  }
}

/** Stores a config that was just fully validated. Best effort: without a writable cache dir, uncached. */
export function writeCachedConfig(
  _root: string,
  text: string,
  config: WorkspaceConfig,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const file = configCacheFile(text, env);
  if (file === null) return;
  try {
    writeJsonAtomic(file, { format: CACHE_FORMAT, text, config }, { within: path.dirname(path.dirname(file)) });
  } catch {
    /* caching is an optimisation only */
  }
}
