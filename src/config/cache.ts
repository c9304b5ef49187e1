import fs from 'node:fs';
import path from 'node:path';

/**
 * The user's cache directory: `$XDG_CACHE_HOME/hestai`, else `$HOME/.cache/hestai`; null without either, and
 * null when its real path (symlinks resolved) lies inside a git worktree (see insideWorktree). Nothing that
 * decides is cached here (issue 27): no config, protocol, anchor or git history (the hooks ask git), since an
 * agent running as the user can write this directory, and a cache must never make a hook pass what it
 * would block without it.
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
  return dir === null || insideWorktree(realDir(dir)) ? null : dir;
}

/** The real path of `dir`: of its nearest existing ancestor, joined with the rest (a cache dir not made yet). */
function realDir(dir: string): string {
  let rest = '';
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      return path.join(fs.realpathSync(d), rest);
    } catch {
      if (path.dirname(d) === d) return dir;
      rest = path.join(path.basename(d), rest);
    }
  }
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
