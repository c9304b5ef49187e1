/**
 * Which sessions a worktree knows: live ones (`.hestai/sessions/active/{id}/session.json`) and archived
 * ones (`.hestai/sessions/archive/{stamp}-{id}.oct.md`). The anchor's BIND rule receives this as a
 * lookup (`SessionLookup`) to check that `AUTHORITY::DELEGATED[parent]` names a real session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { activeDir, type WorkspacePaths } from '../paths.js';
import { UUID_V4 } from '../util/validate.js';
import { SESSION_FILE } from './session.js';

/** A lookup over this worktree's sessions; the archive directory is listed once, on first use. */
export function sessionLookup(paths: WorkspacePaths): (sessionId: string) => 'live' | 'archived' | null {
  let archived: Set<string> | null = null;
  return (sessionId) => {
    if (!UUID_V4.test(sessionId)) return null;
    if (fs.existsSync(path.join(activeDir(paths, sessionId), SESSION_FILE))) return 'live';
    if (archived === null) {
      archived = new Set();
      let names: string[] = [];
      try {
        names = fs
          .readdirSync(paths.archive, { withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name);
      } catch {
        names = [];
      }
      for (const name of names) {
        const m = /-([0-9a-f-]{36})\.oct\.md$/.exec(name);
        if (m && UUID_V4.test(m[1]!)) archived.add(m[1]!);
      }
    }
    return archived.has(sessionId) ? 'archived' : null;
  };
}
