import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { storageError } from '../state/store.js';

/**
 * Refuses state directories that are symlinks leading outside the worktree (a symlink escape would make
 * hestai write session state somewhere else on disk).
 */
export function assertNoSymlinkEscape(paths: WorkspacePaths): void {
  const root = fs.realpathSync(paths.root);
  for (const dir of [paths.hestai, paths.sessions, paths.active, paths.archive, paths.pending, paths.audit, paths.context, paths.state]) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(dir);
    } catch {
      continue;
    }
    if (!stat.isSymbolicLink()) continue;
    let target: string;
    try {
      target = fs.realpathSync(dir);
    } catch {
      target = '(dangling)';
    }
    const rel = path.relative(root, target);
    if (target === '(dangling)' || rel.startsWith('..') || path.isAbsolute(rel)) {
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
