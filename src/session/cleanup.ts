import fs from 'node:fs';
import path from 'node:path';
import { appendAudit } from '../audit.js';
import { loadConfig } from '../config/load.js';
import { activeDir, relativeToRoot } from '../paths.js';
import { removeStatePath, storageError, withLock } from '../state/store.js';
import { resolveWorkspace } from '../workspace.js';
import { readArchiveEndedAt } from './archive-doc.js';
import { archiveSession, sessionAnchorDigest } from './archive.js';
import { resolveDeps, type SessionDeps } from './deps.js';
import { assertNoSymlinkEscape } from './guard.js';
import { removeOrphanedHandshakes } from '../records/handshake.js';
import { listActiveSessions, writeSession } from '../records/session.js';
import { isArchiveExpired, sessionsToMarkStale } from '../records/freshness.js';
import { sessionsLock } from '../records/activity.js';
import { recoverLeftovers } from './recover.js';

export interface CleanupResponse {
  /** Sessions inactive beyond the threshold, marked STALE by this run. */
  marked_stale: string[];
  /** STALE sessions archived (and removed from active/). */
  archived: { session_id: string; archive_path: string }[];
  /** Archives older than the retention, deleted. */
  deleted_archives: string[];
  kept_archives: number;
  /** Pending anchor handshakes of sessions that are gone, removed (a live session's handshake is kept). */
  removed_handshakes: string[];
  /** Files that could not be judged (never deleted): corrupt sessions, unreadable archives. */
  problems: { file: string; problem: string }[];
  /** Human authority: read from `.hestai_workspace.yaml`, never changed by the tool. */
  thresholds: {
    stale_session_hours: number;
    archive_retention_days: number;
    source: 'defaults' | '.hestai_workspace.yaml';
  };
}

/**
 * `hestai cleanup` (seed 000 §7): marks sessions inactive over `cleanup.stale_session_hours` STALE,
 * archives STALE sessions, deletes archives older than `cleanup.archive_retention_days`, and removes the
 * pending anchor handshakes of sessions that are gone (after the sessions lock is released: a proof takes
 * the handshake lock first and the sessions lock second, so cleanup never holds both).
 */
export async function cleanupSessions(input: { working_dir: string }, deps?: SessionDeps): Promise<CleanupResponse> {
  const { clock } = resolveDeps(deps);
  const workspace = resolveWorkspace(input.working_dir, { requireAbsolute: true });
  const paths = workspace.paths;
  assertNoSymlinkEscape(paths);
  const { config, file } = await loadConfig(workspace.root);
  const now = clock();
  const at = now.toISOString();
  const { stale_session_hours, archive_retention_days } = config.cleanup;
  const result = withLock(sessionsLock(paths), () => {
    recoverLeftovers(paths, at);
    const result: CleanupResponse = {
      marked_stale: [],
      archived: [],
      deleted_archives: [],
      kept_archives: 0,
      removed_handshakes: [],
      problems: [],
      thresholds: { stale_session_hours, archive_retention_days, source: file ? '.hestai_workspace.yaml' : 'defaults' },
    };
    const listed = listActiveSessions(paths);
    for (const p of listed.problems)
      result.problems.push({ file: relativeToRoot(paths, path.join(paths.active, p.session_id)), problem: p.error });
    const toStale = new Set(sessionsToMarkStale(listed.sessions, now, stale_session_hours).map((s) => s.session_id));
    for (const session of listed.sessions) {
      let record = session;
      if (toStale.has(session.session_id)) {
        record = { ...session, state: 'STALE' };
        writeSession(paths, record);
        result.marked_stale.push(session.session_id);
        appendAudit(paths, {
          event: 'session_marked_stale',
          session_id: session.session_id,
          at,
          last_activity: session.last_activity,
        });
      }
      if (record.state !== 'STALE') continue;
      const takenBy = record.ownership_log.find((e) => e.event === 'taken_over');
      const summary = takenBy
        ? `stale: taken over by ${takenBy.other_session_id}`
        : `stale: no activity since ${record.last_activity}`;
      const archivePath = archiveSession(paths, record, {
        ended_at: at,
        summary,
        commits: [],
        anchor_digest: sessionAnchorDigest(paths, record.session_id),
        final_state: 'STALE',
      });
      result.archived.push({ session_id: record.session_id, archive_path: archivePath });
      appendAudit(paths, {
        event: 'session_archived',
        session_id: record.session_id,
        at,
        archive: archivePath,
        reason: summary,
      });
    }
    let names: string[] = [];
    try {
      names = fs.readdirSync(paths.archive).filter((n) => n.endsWith('.oct.md'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storageError(paths.archive, error);
    }
    for (const name of names.sort()) {
      const full = path.join(paths.archive, name);
      const rel = relativeToRoot(paths, full);
      let endedAt: string | null = null;
      try {
        endedAt = readArchiveEndedAt(fs.readFileSync(full, 'utf8'));
      } catch {
        endedAt = null;
      }
      if (endedAt === null) {
        result.problems.push({ file: rel, problem: 'not a readable session archive (no ENDED_AT); kept' });
        continue;
      }
      if (isArchiveExpired(endedAt, now, archive_retention_days)) {
        removeStatePath(full);
        result.deleted_archives.push(rel);
        appendAudit(paths, { event: 'archive_deleted', session_id: null, at, archive: rel, ended_at: endedAt });
      } else result.kept_archives++;
    }
    return result;
  });
  // A session is gone when its directory under active/ is: one with an unreadable record still counts, and
  // its handshake stays until the record is fixed.
  for (const { token, stage } of removeOrphanedHandshakes(paths, (id) => fs.existsSync(activeDir(paths, id)))) {
    result.removed_handshakes.push(token);
    appendAudit(paths, {
      event: 'handshake_removed',
      session_id: token,
      at,
      stage,
      reason: 'its session is no longer active',
    });
  }
  return result;
}
