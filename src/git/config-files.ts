import fs from 'node:fs';
import path from 'node:path';
import { gitEnvBool } from './env-bool.js';
import { runGit } from './exec.js';
import { splitNul } from './parse.js';

/**
 * What the caches of git facts (snapshot.ts, message-config.ts) key an answer that depends on git's
 * configuration by: the files git reads its configuration from, each by its stat signature, and whether the
 * configuration can change without any of those files changing (then nothing is cached).
 */

/** `L:` lstat (work-tree entries), `S:` stat (config and ignore files, which may be links). */
export type StatKey = `${'L' | 'S'}:${string}`;

/**
 * A file's stat signature: mode, inode, size, mtime and ctime in ns (a ctime cannot be set back by a user,
 * so `touch -d` does not hide a change), or `missing`.
 */
export function signature(key: StatKey): string {
  const file = key.slice(2);
  try {
    const s = key[0] === 'L' ? fs.lstatSync(file, { bigint: true }) : fs.statSync(file, { bigint: true });
    return `${s.mode}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return 'missing';
  }
}

/** The ctime in ms of a signature, or null for a missing entry. */
export function ctimeMs(sig: string): number | null {
  if (sig === 'missing') return null;
  const ns = sig.slice(sig.lastIndexOf(':') + 1);
  return Number(BigInt(ns) / 1_000_000n);
}

/**
 * The config files git reads in a repository whether they exist or not (a file that appears later changes
 * git's answer): the global one (`GIT_CONFIG_GLOBAL`, else `~/.gitconfig` and `$XDG_CONFIG_HOME/git/config`
 * or `~/.config/git/config`), the system one (`GIT_CONFIG_SYSTEM`, else `/etc/gitconfig`; none with
 * `GIT_CONFIG_NOSYSTEM` true as git parses it), the repository's `config` in its common dir and the worktree's `config.worktree`
 * (read with `extensions.worktreeConfig`; always listed). Absolute paths, relative ones resolved against `root`.
 */
export function standardConfigFiles(
  root: string,
  commonDir: string,
  gitDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const home = env['HOME'] ?? '';
  const xdg = env['XDG_CONFIG_HOME'] || path.join(home, '.config');
  const files = new Set<string>();
  for (const f of [
    env['GIT_CONFIG_GLOBAL'] ?? path.join(home, '.gitconfig'),
    ...(env['GIT_CONFIG_GLOBAL'] === undefined ? [path.join(xdg, 'git', 'config')] : []),
    // Skipped only when git skips it: GIT_CONFIG_NOSYSTEM true as git parses it (`0`, `false`, empty: read).
    // A value git refuses keeps the file listed (a longer list only keys the cache more strictly).
    ...(gitEnvBool(env['GIT_CONFIG_NOSYSTEM'] ?? '') === true ? [] : [env['GIT_CONFIG_SYSTEM'] ?? '/etc/gitconfig']),
    path.join(commonDir, 'config'),
    path.join(gitDir, 'config.worktree'),
  ])
    if (f !== '') files.add(path.resolve(root, f));
  return [...files];
}

export interface ConfigSources {
  /** The standard config files and every file git read its configuration from. */
  files: string[];
  /** Every entry git read, in git's order (the last of a key wins), keys lower-cased as git prints them. */
  entries: Array<{ key: string; value: string }>;
  /** `core.excludesfile` / `core.attributesfile` (the last one), or null. */
  excludes: string | null;
  attributes: string | null;
  /**
   * False when the configuration can change without any of `files` changing: an `include.*` / `includeIf.*`
   * (its target may appear later, its condition change with the branch) or configuration from the command
   * line or the environment (`git -c`, `GIT_CONFIG_COUNT`).
   */
  cacheable: boolean;
}

/** Pure: parses `git config -z --list --show-origin` output (`origin\0key\nvalue\0` records). */
export function parseConfigSources(output: string, root: string, standard: readonly string[]): ConfigSources {
  const fields = splitNul(output);
  const files = new Set(standard);
  const entries: ConfigSources['entries'] = [];
  let excludes: string | null = null;
  let attributes: string | null = null;
  let cacheable = true;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i]!;
    const entry = fields[i + 1]!;
    if (origin.startsWith('file:')) files.add(path.resolve(root, origin.slice(5)));
    else cacheable = false;
    const nl = entry.indexOf('\n');
    const key = (nl === -1 ? entry : entry.slice(0, nl)).toLowerCase();
    if (key.startsWith('include.') || key.startsWith('includeif.')) cacheable = false;
    const value = nl === -1 ? '' : entry.slice(nl + 1);
    entries.push({ key, value });
    if (key === 'core.excludesfile') excludes = value;
    if (key === 'core.attributesfile') attributes = value;
  }
  return { files: [...files], entries, excludes, attributes, cacheable };
}

/** `git config -z --list --show-origin` in `root`: every entry of git's configuration with its origin. */
export function gitConfigList(root: string): string {
  return runGit(['config', '-z', '--list', '--show-origin'], { cwd: root, okCodes: [1] }).stdout;
}

/** {@link parseConfigSources} of one `git config -z --list --show-origin` in `root`. */
export function configSources(root: string, commonDir: string, gitDir: string): ConfigSources {
  return parseConfigSources(gitConfigList(root), root, standardConfigFiles(root, commonDir, gitDir));
}
