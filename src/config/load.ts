import { usageError } from '../errors.js';
import { readTextIfExists } from '../state/store.js';
import { DEFAULTS } from './defaults.js';
import { fastConfig } from './fast.js';
import type { WorkspaceConfig } from './schema.js';
import { parseYamlSubset } from './yaml-subset.js';
import { workspacePaths } from '../paths.js';

export interface LoadedConfig {
  config: WorkspaceConfig;
  /** Absolute path of the workspace file, or null when the defaults are in use. */
  file: string | null;
}

/**
 * A valid config read without yaml and zod (yaml-subset.ts, fast.ts: each held equal to them by a property
 * test), or null when the text is outside the YAML subset or the mirror does not accept it: then yaml and
 * zod decide, and report every problem. Nothing is remembered between runs.
 */
function fastFromText(text: string): WorkspaceConfig | null {
  const parsed = parseYamlSubset(text);
  return parsed === null ? null : fastConfig(parsed.value ?? {});
}

/**
 * Loads `.hestai_workspace.yaml` from a worktree root. Without the file, the defaults are returned; with a
 * valid one written in the usual subset of YAML, neither yaml nor zod is loaded (the hook path stays small).
 * Otherwise every problem is reported at once in one `HestaiError` (exit 2) naming the file, each key path
 * and line. Never cached (issue 27): a cache an agent can write must not decide a hook's verdict.
 */
export async function loadConfig(root: string, _env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const file = workspacePaths(root).workspaceConfig;
  const text = readTextIfExists(file);
  if (text === null) return { config: structuredClone(DEFAULTS) as WorkspaceConfig, file: null };
  const fast = fastFromText(text);
  if (fast !== null) return { config: fast, file };
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
  return { config, file };
}

/**
 * Validates workspace-config text that is not the worktree's file (e.g. the file at a commit, for
 * `hestai verify`'s policy from the base): null text means the defaults; an invalid file is an error
 * naming `where`. Never cached (the cache is keyed to the worktree file).
 */
export async function configFromText(text: string | null, where: string): Promise<WorkspaceConfig> {
  if (text === null) return structuredClone(DEFAULTS) as WorkspaceConfig;
  const fast = fastFromText(text);
  if (fast !== null) return fast;
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
