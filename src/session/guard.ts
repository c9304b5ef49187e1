import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { storageError } from '../state/store.js';

/**
 * Where `dir` leads when it is a symlink out of the worktree whose real path is `realRoot`: its real target,
 * or `(dangling)` when the link is broken (writing through it would create the target wherever it points).
 * Null when `dir` is missing, not a symlink, or a symlink that stays inside.
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
 * Refuses state directories that are symlinks leading outside the worktree (a symlink escape would make
 * hestai write session state somewhere else on disk).
 */
export function assertNoSymlinkEscape(paths: WorkspacePaths): void {
  const root = fs.realpathSync(paths.root);
  for (const dir of [paths.hestai, paths.sessions, paths.active, paths.archive, paths.pending, paths.audit, paths.context, paths.state]) {
    const target = symlinkEscape(root, dir);
    if (target !== null) {
      throw usageError(`${dir} is a symlink to ${target}, outside the worktree (refused: state stays inside the repository)`, {
        file: dir,
        code: 'PATH_TRAVERSAL',
        remedy: `Remove the symlink ${dir}; hestai creates the directory itself.`,
      });
    }
  }
}

/** Creates a directory (and parents), mapping failures to a clear storage error. */
export function ensureDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw storageError(dir, error);
  }
}
