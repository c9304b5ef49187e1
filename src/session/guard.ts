import fs from 'node:fs';
import path from 'node:path';
import { isHestaiError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { assertSafeStatePath, ensureStateDir } from '../state/store.js';

/**
 * Where `dir` leads when it is a symlink out of the worktree whose real path is `realRoot`: its real target,
 * or `(dangling)` when the link is broken (writing through it would create the target wherever it points).
 * Null when `dir` is missing, not a symlink, or a symlink that stays inside. (Only for reporting: every
 * write refuses any symlink under `.hestai/`, wherever it points; see src/state/safe-path.ts.)
 */
export function symlinkEscape(realRoot: string, dir: string): string | null {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    return null; // a parent is not a directory: nothing can be written through dir, and the write will say so
  }
  if (!stat?.isSymbolicLink()) return null;
  let target: string;
  try {
    target = fs.realpathSync(dir);
  } catch {
    return '(dangling)';
  }
  const rel = path.relative(realRoot, target);
  return rel.startsWith('..') || path.isAbsolute(rel) ? target : null;
}

/**
 * Fails early, before any work, when a state directory is a symlink or not a directory: the same rule
 * every write applies (the store's `assertSafeStatePath`), checked up front so a command does not do half
 * its work first.
 */
export function assertNoSymlinkEscape(paths: WorkspacePaths): void {
  const entries: [string, 'dir' | 'file'][] = [
    paths.hestai,
    paths.sessions,
    paths.active,
    paths.archive,
    paths.pending,
    paths.locks,
    paths.audit,
    paths.context,
    paths.state,
    paths.cache,
  ].map((d) => [d, 'dir']);
  for (const [entry, kind] of [...entries, [paths.auditLog, 'file'] as [string, 'file']]) {
    try {
      assertSafeStatePath(entry, kind);
    } catch (error) {
      // A plain file where a directory goes is a storage problem the write itself reports; here only links.
      if (!isHestaiError(error) || error.code !== 'STORAGE') throw error;
    }
  }
}

/** Creates a directory (and parents), mapping failures to a clear storage error. */
export const ensureDir = ensureStateDir;
