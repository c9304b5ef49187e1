import path from 'node:path';
import type { WorkspacePaths } from '../paths.js';
import { withLock } from '../state/store.js';
import { isLive, readSession, writeSession } from './session.js';

/** The lock every read-modify-write of session records takes (clock-in, ack, refresh, clock-out, cleanup). */
export function sessionsLock(paths: WorkspacePaths): string {
  return path.join(paths.locks, 'sessions');
}

/**
 * Seed §7: once its agent is bound (the anchor promoted), a session is working: CREATED → ACTIVE, with
 * `last_activity` at that instant (or later). A session that is no longer live (STALE, COMPLETED) is left
 * alone.
 */
export async function markSessionWorking(paths: WorkspacePaths, sessionId: string, at: string): Promise<void> {
  await withLock(sessionsLock(paths), () => {
    const session = readSession(paths, sessionId);
    if (session === null || !isLive(session)) return;
    // Never backwards: a refresh or an acknowledgment may have recorded a later instant meanwhile.
    writeSession(paths, {
      ...session,
      state: 'ACTIVE',
      last_activity: at > session.last_activity ? at : session.last_activity,
    });
  });
}
