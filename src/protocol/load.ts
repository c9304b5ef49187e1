import path from 'node:path';
import { userCacheDir } from '../config/cache.js';
import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { readOwnCacheFile, readTextIfExists, writeJsonAtomic } from '../state/store.js';
import { sha256Hex } from '../util/sha256.js';
import { textKey } from '../util/text-key.js';
import { isProtocol } from './shape.js';
import type { Protocol } from './types.js';

/**
 * Bumped whenever the schema or its defaults change, so an old cache is never trusted. 3: the cache holds the
 * exact text it was validated from (compared whole on read) instead of its sha256, and is named by textKey.
 */
const CACHE_FORMAT = 3;
/** A cache entry holds the protocol text and the validated protocol: a larger file is a miss (a full load). */
const MAX_CACHE_BYTES = 8 * 1024 * 1024;

export interface LoadedProtocol {
  protocol: Protocol;
  file: string;
  /** sha256 of the file's text: recorded in the run so a changed protocol is visible. */
  sha256: string;
  /** The file's text (sealed into a run at its start: the run is judged by this version). */
  text: string;
}

/**
 * Where the validated protocol for this text is cached: the user cache directory
 * (`~/.cache/hestai/protocol/<format>-<text key>.json`, src/util/text-key.ts; the file holds the text itself,
 * which a read compares whole), never the worktree, which a repository or an agent can write (as the config
 * cache, src/config/cache.ts). Null without a cache directory.
 */
export function protocolCacheFile(text: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = userCacheDir(env);
  return dir === null ? null : path.join(dir, 'protocol', `${CACHE_FORMAT}-${textKey(text)}.json`);
}

/**
 * Protocols this process already read from the cache or validated, by their exact text (the validated
 * protocol is a function of the text alone): a hook or server that loads the file twice reads the cache once.
 */
const validated = new Map<string, Protocol>();
const remember = (text: string, protocol: Protocol) => {
  if (validated.size >= 16) validated.clear(); // a long-lived server sees few texts; never many kept
  validated.set(text, protocol);
};

/** A loaded protocol whose `sha256` (only the run's start and views need it) is computed when first read. */
function loaded(protocol: Protocol, file: string, text: string): LoadedProtocol {
  let sha256: string | undefined;
  return {
    protocol,
    file,
    text,
    get sha256() {
      return (sha256 ??= sha256Hex(text));
    },
  };
}

/** The cached protocol for `text`, or null when missing, for another text or not of a protocol's shape. */
function readCached(text: string, env: NodeJS.ProcessEnv): Protocol | null {
  const known = validated.get(text);
  if (known !== undefined) return known;
  try {
    const file = protocolCacheFile(text, env);
    if (file === null) return null;
    const raw = readOwnCacheFile(file, MAX_CACHE_BYTES);
    if (raw === null) return null;
    const cached = JSON.parse(raw) as { format?: unknown; text?: unknown; protocol?: unknown } | null;
    if (cached === null || typeof cached !== 'object' || cached.format !== CACHE_FORMAT || cached.text !== text)
      return null;
    if (!isProtocol(cached.protocol)) return null;
    remember(text, cached.protocol);
    return cached.protocol;
  } catch {
    return null;
  }
}

function writeCached(text: string, protocol: Protocol, env: NodeJS.ProcessEnv): void {
  const file = protocolCacheFile(text, env);
  if (file === null) return;
  try {
    writeJsonAtomic(file, { format: CACHE_FORMAT, text, protocol }, { within: path.dirname(path.dirname(file)) });
  } catch {
    /* caching is an optimisation only */
  }
}

/** Formats validation problems the way the workspace config does: `file:line:col: key: message`. */
export function protocolError(
  file: string,
  errors: ReadonlyArray<{ key: string; line?: number; column?: number; message: string }>,
) {
  const details = errors.map(
    (e) =>
      `${file}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: ${e.key ? `${e.key}: ` : ''}${e.message}`,
  );
  return usageError(`invalid session protocol ${file} (${errors.length} problem${errors.length === 1 ? '' : 's'})`, {
    file,
    details,
    code: 'PROTOCOL_INVALID',
    remedy: 'Fix the keys listed above (see "Session protocol" in the README for every key and check type).',
  });
}

/**
 * Loads and validates `.hestai/protocol.yaml`; null when the workspace has none. The text is the only
 * source of phases, gates and levels (never the session state). A valid file is cached in the user cache
 * directory keyed by its text (`protocolCacheFile`) and validated on read (`isProtocol`), so the hooks read
 * it without yaml or zod; a cache that disagrees or is malformed is ignored and rewritten.
 */
export async function loadProtocol(
  paths: WorkspacePaths,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LoadedProtocol | null> {
  const file = paths.protocol;
  const text = readTextIfExists(file);
  if (text === null) return null;
  return protocolFromText(text, file, env);
}

/**
 * The protocol of `text` (a run's sealed copy of the file it started with, or the file itself), through the
 * same validated cache; `file` names it in errors.
 */
export async function protocolFromText(
  text: string,
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LoadedProtocol> {
  const cached = readCached(text, env);
  if (cached !== null) return loaded(cached, file, text);
  const { validateProtocolText } = await import('./validate.js');
  const { protocol, errors } = validateProtocolText(text);
  if (protocol === null) throw protocolError(file, errors);
  writeCached(text, protocol, env);
  remember(text, protocol);
  return loaded(protocol, file, text);
}

/** {@link protocolFromText} when its validated form is cached (synchronously), else null. */
export function cachedProtocolFromText(
  text: string,
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): LoadedProtocol | null {
  const cached = readCached(text, env);
  return cached === null ? null : loaded(cached, file, text);
}

/** Like {@link loadProtocol}, but a missing file is a usage error with the remedy. */
export async function requireProtocol(
  paths: WorkspacePaths,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LoadedProtocol> {
  const loaded = await loadProtocol(paths, env);
  if (loaded === null) {
    throw usageError(`no session protocol: ${paths.protocol} does not exist`, {
      file: paths.protocol,
      code: 'PROTOCOL_MISSING',
      remedy:
        'Run `hestai init` to install the default protocol, or copy templates/protocol/seed-004.yaml to .hestai/protocol.yaml.',
    });
  }
  return loaded;
}
