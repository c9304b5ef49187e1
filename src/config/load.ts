import { usageError } from '../errors.js';
import { readTextIfExists } from '../state/store.js';
import { DEFAULTS } from './defaults.js';
import type { WorkspaceConfig } from './schema.js';
import { workspacePaths } from '../paths.js';

export interface LoadedConfig {
  config: WorkspaceConfig;
  /** Absolute path of the workspace file, or null when the defaults are in use. */
  file: string | null;
}

/**
 * The config a workspace file's text holds (yaml and the zod schema); an invalid file is one `HestaiError`
 * (exit 2) naming `where`, each key path and line (and column, with `columns`), with `remedy`.
 */
async function parseConfig(
  text: string,
  where: string,
  { remedy, columns }: { remedy: string; columns: boolean },
): Promise<WorkspaceConfig> {
  // yaml and the schema load only when a file is there to validate (a hook bundle initialises them lazily).
  const { validateConfigText } = await import('./validate.js');
  const { config, errors } = validateConfigText(text);
  if (config !== null) return config;
  throw usageError(`invalid workspace config ${where} (${errors.length} problem${errors.length === 1 ? '' : 's'})`, {
    file: where,
    details: errors.map(
      (e) =>
        `${where}${e.line ? `:${e.line}${columns && e.column ? `:${e.column}` : ''}` : ''}: ${e.key ? `${e.key}: ` : ''}${e.message}`,
    ),
    code: 'CONFIG_INVALID',
    remedy,
  });
}

/**
 * Loads `.hestai_workspace.yaml` from a worktree root: the defaults without the file, else `parseConfig`. Never cached (issue 27): a cache an agent can write must not
 * decide a hook's verdict.
 */
export async function loadConfig(root: string, _env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const file = workspacePaths(root).workspaceConfig;
  const text = readTextIfExists(file);
  if (text === null) return { config: structuredClone(DEFAULTS) as WorkspaceConfig, file: null };
  const remedy = 'Fix the keys listed above (see "Configuration" in the README for every key and its default).';
  return { config: await parseConfig(text, file, { remedy, columns: true }), file };
}

/**
 * Validates workspace-config text that is not the worktree's file (e.g. the file at a commit, for
 * `hestai verify`'s policy from the base): null text means the defaults; an invalid file is an error
 * naming `where`.
 */
export async function configFromText(text: string | null, where: string): Promise<WorkspaceConfig> {
  if (text === null) return structuredClone(DEFAULTS) as WorkspaceConfig;
  return parseConfig(text, where, {
    remedy:
      'verify reads its policy from the base of the range: fix the file there (or pass --from a base whose file is valid).',
    columns: false,
  });
}
