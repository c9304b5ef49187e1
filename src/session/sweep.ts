import fs from 'node:fs';
import path from 'node:path';
import { appendAudit } from '../audit.js';
import { activeDir, relativeToRoot, type WorkspacePaths } from '../paths.js';
import { removeOrphanedHandshakes } from '../records/handshake.js';
import { removeStatePath, storageError } from '../state/store.js';
import { readArchiveEndedAt } from './archive-doc.js';
import { archiveSession, sessionAnchorDigest } from './archive.js';
import { writeSession, type SessionRecord } from '../records/session.js';
import { isArchiveExpired } from '../records/freshness.js';

/** What one sweep did (seed 000 §7): the work of `hestai cleanup`, which every clock-in also does. */
export interface SweepResult {
  /** Sessions inactive beyond the threshold, marked STALE by this sweep. */
  marked_stale: string[];
  /** STALE sessions archived (and removed from active/). */
  archived: { session_id: string; archive_path: string }[];
  /** Archives older than the retention, deleted. */
  deleted_archives: string[];
  kept_archives: number;
  /** Files that could not be judged (never deleted): unreadable archives. */
  problems: { file: string; problem: string }[];
}

/** Pure: the end time an archive's name carries (`20260110T113005Z-<id>.oct.md`), or null. */
export function archiveNameTime(name: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-/.exec(name);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Marks `toStale` STALE, archives every STALE session of `sessions`, and deletes archives older than the
 * retention. Runs under the sessions lock (the caller holds it). An archive whose name says it ended
 * within the retention is kept without being read (the name is written from its ENDED_AT); any other is
 * judged by its ENDED_AT, and kept when that cannot be read. `by` names the clock-in that swept, if any.
 */
export function sweepSessions(input: {
  paths: WorkspacePaths;
  sessions: readonly SessionRecord[];
  toStale: ReadonlySet<string>;
  now: Date;
  retentionDays: number;
  by?: string;
}): SweepResult {
  const { paths, now } = input;
  const at = now.toISOString();
  const by = input.by === undefined ? {} : { by_session_id: input.by };
  const result: SweepResult = { marked_stale: [], archived: [], deleted_archives: [], kept_archives: 0, problems: [] };
  for (const session of input.sessions) {
    let record = session;
    if (input.toStale.has(session.session_id)) {
      record = { ...session, state: 'STALE' };
      writeSession(paths, record);
      result.marked_stale.push(session.session_id);
      appendAudit(paths, {
        event: 'session_marked_stale',
        session_id: session.session_id,
        at,
        last_activity: session.last_activity,
        ...by,
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
      ...by,
    });
  }
  let names: string[] = [];
  try {
    names = fs.readdirSync(paths.archive).filter((n) => n.endsWith('.oct.md'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storageError(paths.archive, error);
  }
  for (const name of names.sort()) {
    const named = archiveNameTime(name);
    if (named !== null && !isArchiveExpired(new Date(named).toISOString(), now, input.retentionDays)) {
      result.kept_archives++;
      continue;
    }
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
    if (isArchiveExpired(endedAt, now, input.retentionDays)) {
      removeStatePath(full);
      result.deleted_archives.push(rel);
      appendAudit(paths, { event: 'archive_deleted', session_id: null, at, archive: rel, ended_at: endedAt, ...by });
    } else result.kept_archives++;
  }
  return result;
}

/**
 * Removes the pending anchor handshakes of sessions that are gone (audited); returns their tokens. Call it
 * after the sessions lock is released: a proof takes the handshake lock first and the sessions lock second.
 * A session is gone when its directory under active/ is: one with an unreadable record still counts, and
 * its handshake stays until the record is fixed.
 */
export async function removeGoneHandshakes(paths: WorkspacePaths, at: string): Promise<string[]> {
  const removed: string[] = [];
  for (const { token, stage } of await removeOrphanedHandshakes(paths, (id) => fs.existsSync(activeDir(paths, id)))) {
    removed.push(token);
    appendAudit(paths, {
      event: 'handshake_removed',
      session_id: token,
      at,
      stage,
      reason: 'its session is no longer active',
    });
  }
  return removed;
}
