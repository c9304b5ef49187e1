import fs from 'node:fs';
import path from 'node:path';
import { appendAudit } from '../audit.js';
import { activeDir, type WorkspacePaths } from '../paths.js';
import { activeSessionIds } from '../records/session.js';
import { removeStatePath, sweepTempFiles } from '../state/store.js';

/** What `recoverLeftovers` cleaned up. */
export interface Recovered {
  /** Staging directories of clock-ins killed before they published. */
  staging: string[];
  /** Temporary files of writers killed before their rename. */
  temp_files: string[];
  /** Sessions whose clock-out was killed after archiving: their active directory is now removed. */
  finished_clock_outs: string[];
}

/** The archive file of a session, if one was written (`<stamp>-<session id>.oct.md`), else null. */
export function archiveOf(paths: WorkspacePaths, sessionId: string): string | null {
  try {
    const name = fs.readdirSync(paths.archive).find((n) => n.endsWith(`-${sessionId}.oct.md`));
    return name === undefined ? null : path.join(paths.archive, name);
  } catch {
    return null;
  }
}

/**
 * Issue 12, item 6: the next run cleans what a kill left. Call it holding the sessions lock (clock-in,
 * clock-out and cleanup do): under that lock no staging directory is in use, and a session with an
 * archive is one whose clock-out was interrupted after the archive was verified, so its active directory
 * is removed (audited as `clock_out_completed`). Never throws: what cannot be removed stays for next time.
 */
export function recoverLeftovers(paths: WorkspacePaths, at: string): Recovered {
  const recovered: Recovered = { staging: [], temp_files: [], finished_clock_outs: [] };
  let names: string[] = [];
  try {
    names = fs.readdirSync(paths.active);
  } catch {
    names = [];
  }
  for (const name of names) {
    if (!name.startsWith('.staging-')) continue;
    try {
      removeStatePath(path.join(paths.active, name));
      recovered.staging.push(name);
    } catch {
      /* next time */
    }
  }
  const ids = activeSessionIds(paths);
  recovered.temp_files = sweepTempFiles([
    paths.active,
    paths.state,
    paths.archive,
    paths.audit,
    ...ids.map((id) => activeDir(paths, id)),
  ]);
  for (const id of ids) {
    const archive = archiveOf(paths, id);
    if (archive === null) continue;
    try {
      removeStatePath(activeDir(paths, id));
      recovered.finished_clock_outs.push(id);
      appendAudit(paths, {
        event: 'clock_out_completed',
        session_id: id,
        at,
        archive: path.relative(paths.root, archive),
        reason: 'a clock-out was interrupted after archiving',
      });
    } catch {
      /* next time */
    }
  }
  return recovered;
}
