import { usageError } from '../errors.js';
import { readTextIfExists } from '../state/store.js';
import { DEFAULTS } from './defaults.js';
import type { WorkspaceConfig } from './schema.js';
import { workspacePaths } from '../paths.js';
import { readCachedConfig, writeCachedConfig } from './cache.js';

export interface LoadedConfig {
  config: WorkspaceConfig;
  /** Absolute path of the workspace file, or null when the defaults are in use. */
  file: string | null;
}

/**
 * Loads `.hestai_workspace.yaml` from a worktree root. Without the file, the defaults are returned and
 * neither yaml nor zod is loaded (the hook path stays small). With it, every problem is reported at once
 * in one `HestaiError` (exit 2) naming the file, each key path and line. A valid file's config is cached
 * in the user cache directory (`~/.cache/hestai/config/<sha256 of the text>.json`, never in the worktree,
 * see cache.ts), validated on read, and read back on the next load of the same text.
 */
export async function loadConfig(root: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const file = workspacePaths(root).workspaceConfig;
  const text = readTextIfExists(file);
  if (text === null) return { config: structuredClone(DEFAULTS) as WorkspaceConfig, file: null };
  // The same text validated before: no yaml or zod to load (every command, not only the hooks).
  const cached = readCachedConfig(root, text, env);
  if (cached !== null) return { config: cached, file };
  const { validateConfigText } = await import('./validate.js');
  const { config, errors } = validateConfigText(text);
  if (config === null) {
    const details = errors.map(
      (e) =>
        `${file}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: ${e.key ? `${e.key}: ` : ''}${e.message}`,
    );
    throw usageError(`invalid workspace config ${file} (${errors.length} problem${errors.length === 1 ? '' : 's'})`, {
      file,
      details,
      code: 'CONFIG_INVALID',
      remedy: 'Fix the keys listed above (see "Configuration" in the README for every key and its default).',
    });
  }
  writeCachedConfig(root, text, config, env);
  return { config, file };
}

/**
 * Validates workspace-config text that is not the worktree's file (e.g. the file at a commit, for
 * `hestai verify`'s policy from the base): null text means the defaults; an invalid file is an error
 * naming `where`. Never cached (the cache is keyed to the worktree file).
 */
export async function configFromText(text: string | null, where: string): Promise<WorkspaceConfig> {
  if (text === null) return structuredClone(DEFAULTS) as WorkspaceConfig;
  const { validateConfigText } = await import('./validate.js');
  const { config, errors } = validateConfigText(text);
  if (config === null) {
    throw usageError(`invalid workspace config ${where} (${errors.length} problem${errors.length === 1 ? '' : 's'})`, {
      file: where,
      details: errors.map((e) => `${where}${e.line ? `:${e.line}` : ''}: ${e.key ? `${e.key}: ` : ''}${e.message}`),
      code: 'CONFIG_INVALID',
      remedy:
        'verify reads its policy from the base of the range: fix the file there (or pass --from a base whose file is valid).',
    });
  }
  return config;
}
