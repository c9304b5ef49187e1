import { isHestaiError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { assertSafeStatePath } from '../state/store.js';

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
