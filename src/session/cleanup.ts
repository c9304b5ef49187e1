import path from 'node:path';
import { loadConfig } from '../config/load.js';
import { relativeToRoot } from '../paths.js';
import { withLock } from '../state/store.js';
import { resolveWorkspace } from '../workspace.js';
import { removeGoneHandshakes, sweepSessions, type SweepResult } from './sweep.js';
import { resolveDeps, type SessionDeps } from './deps.js';
import { assertNoSymlinkEscape } from './guard.js';
import { listActiveSessions } from '../records/session.js';
import { anchoredAndFresh, sessionsToMarkStale } from '../records/freshness.js';
import { hasValidAnchor } from '../records/anchor.js';
import { sessionsLock } from '../records/activity.js';
import { recoverLeftovers } from './recover.js';

/** What `hestai cleanup` did: one sweep (its `problems` also name the corrupt sessions), then the handshakes. */
export interface CleanupResponse extends SweepResult {
  /** Pending anchor handshakes of sessions that are gone, removed (a live session's handshake is kept). */
  removed_handshakes: string[];
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
  const result = await withLock(sessionsLock(paths), (): CleanupResponse => {
    recoverLeftovers(paths, at);
    const listed = listActiveSessions(paths);
    const swept = sweepSessions({
      paths,
      sessions: listed.sessions,
      toStale: new Set(
        sessionsToMarkStale(
          listed.sessions,
          now,
          stale_session_hours,
          anchoredAndFresh((id) => hasValidAnchor(paths, id).valid, now, config.freshness.max_age_hours),
        ).map((s) => s.session_id),
      ),
      now,
      retentionDays: archive_retention_days,
    });
    const corrupt = listed.problems.map((p) => ({
      file: relativeToRoot(paths, path.join(paths.active, p.session_id)),
      problem: p.error,
    }));
    return {
      ...swept,
      removed_handshakes: [],
      problems: [...corrupt, ...swept.problems],
      thresholds: { stale_session_hours, archive_retention_days, source: file ? '.hestai_workspace.yaml' : 'defaults' },
    };
  });
  result.removed_handshakes.push(...(await removeGoneHandshakes(paths, at)));
  return result;
}
