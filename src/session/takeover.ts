import { appendAudit } from '../audit.js';
import type { WorkspacePaths } from '../paths.js';
import { writeSession, type SessionRecord } from '../records/session.js';

/**
 * CI-I5 "Take Over": each taken-over session becomes STALE and logs `taken_over` by the taker; one
 * `session_takeover` audit line each. The taker's own `took_over` entries are written by the caller (at
 * clock-in they are part of the new record; afterwards {@link resolveConflict} adds them). Call under the
 * sessions lock.
 */
export function markTakenOver(
  paths: WorkspacePaths,
  input: {
    takerId: string;
    taken: readonly SessionRecord[];
    at: string;
    /** `at_clock_in` (on_conflict takeover) or `after_clock_in` (`hestai conflict takeover`, resolve_conflict). */
    decided: 'at_clock_in' | 'after_clock_in';
  },
): void {
  for (const old of input.taken) {
    writeSession(paths, {
      ...old,
      state: 'STALE',
      ownership_log: [...old.ownership_log, { at: input.at, event: 'taken_over', other_session_id: input.takerId }],
    });
    appendAudit(paths, {
      event: 'session_takeover',
      session_id: input.takerId,
      at: input.at,
      previous_session_id: old.session_id,
      previous_role: old.role,
      decided: input.decided,
    });
  }
}

/** Pure: the taker's `took_over` entries for the sessions it takes over. */
export function tookOver(
  taken: readonly { existing_session_id: string }[],
  at: string,
): SessionRecord['ownership_log'] {
  return taken.map((c) => ({ at, event: 'took_over' as const, other_session_id: c.existing_session_id }));
}
