import { existsSync } from 'node:fs';
import { workspacePaths } from '../paths.js';
import { sha256Hex } from '../util/sha256.js';
import { readTextIfExists, writeJsonAtomic } from '../state/store.js';
import { DEFAULTS } from './defaults.js';
import type { WorkspaceConfig } from './schema.js';

/** Bumped whenever the schema or its defaults change, so an old cache is never trusted. */
const CACHE_FORMAT = 1;

/** The cache key of a workspace file's text. */
export function configTextHash(text: string): string {
  return sha256Hex(`hestai-config-cache:${CACHE_FORMAT}\n${text}`);
}

/**
 * The validated config for `text` from `.hestai/cache/config.json`, or null when the cache is missing,
 * unreadable or for another text. Never throws: a bad cache only means a full (slower) load.
 */
export function readCachedConfig(root: string, text: string): WorkspaceConfig | null {
  try {
    const raw = readTextIfExists(workspacePaths(root).configCache);
    if (raw === null) return null;
    const cached = JSON.parse(raw) as { sha256?: unknown; config?: unknown };
    if (cached.sha256 !== configTextHash(text)) return null;
    const config = cached.config as Record<string, unknown> | null;
    if (config === null || typeof config !== 'object') return null;
    for (const key of Object.keys(DEFAULTS)) if (!(key in config)) return null;
    return config as unknown as WorkspaceConfig;
  } catch {
    return null;
  }
}

/** Stores a config that was just fully validated. Best effort: a read-only checkout just stays uncached. */
export function writeCachedConfig(root: string, text: string, config: WorkspaceConfig): void {
  const paths = workspacePaths(root);
  // Only where `hestai init` made (and git-ignored) .hestai/cache/: a read never leaves untracked files.
  if (!existsSync(paths.cache)) return;
  try {
    writeJsonAtomic(paths.configCache, { sha256: configTextHash(text), config });
  } catch {
    /* caching is an optimisation only */
  }
}
