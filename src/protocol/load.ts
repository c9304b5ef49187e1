import { existsSync } from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { readTextIfExists, writeJsonAtomic } from '../state/store.js';
import { sha256Hex } from '../util/sha256.js';
import type { Protocol } from './types.js';

/** Bumped whenever the schema or its defaults change, so an old cache is never trusted. */
const CACHE_FORMAT = 1;

export interface LoadedProtocol {
  protocol: Protocol;
  file: string;
  /** sha256 of the file's text: recorded in the run so a changed protocol is visible. */
  sha256: string;
}

export function protocolCacheFile(paths: WorkspacePaths): string {
  return path.join(paths.cache, 'protocol.json');
}

function cacheKey(text: string): string {
  return sha256Hex(`hestai-protocol-cache:${CACHE_FORMAT}\n${text}`);
}

function readCached(paths: WorkspacePaths, text: string): Protocol | null {
  try {
    const raw = readTextIfExists(protocolCacheFile(paths));
    if (raw === null) return null;
    const cached = JSON.parse(raw) as { sha256?: unknown; protocol?: unknown };
    if (cached.sha256 !== cacheKey(text)) return null;
    const protocol = cached.protocol as Protocol | null;
    if (protocol === null || typeof protocol !== 'object' || protocol.version !== 1 || !Array.isArray(protocol.phases))
      return null;
    return protocol;
  } catch {
    return null;
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
 * source of phases, gates and levels (never the session state). A valid file is cached in
 * `.hestai/cache/protocol.json` keyed by its text, so the pre-commit hook reads it without yaml or zod.
 */
export async function loadProtocol(paths: WorkspacePaths): Promise<LoadedProtocol | null> {
  const file = paths.protocol;
  const text = readTextIfExists(file);
  if (text === null) return null;
  const sha256 = sha256Hex(text);
  const cached = readCached(paths, text);
  if (cached !== null) return { protocol: cached, file, sha256 };
  const { validateProtocolText } = await import('./validate.js');
  const { protocol, errors } = validateProtocolText(text);
  if (protocol === null) throw protocolError(file, errors);
  if (existsSync(paths.cache)) {
    try {
      writeJsonAtomic(protocolCacheFile(paths), { sha256: cacheKey(text), protocol });
    } catch {
      /* caching is an optimisation only */
    }
  }
  return { protocol, file, sha256 };
}

/** Like {@link loadProtocol}, but a missing file is a usage error with the remedy. */
export async function requireProtocol(paths: WorkspacePaths): Promise<LoadedProtocol> {
  const loaded = await loadProtocol(paths);
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
