import { blockedError, type HestaiError } from '../../errors.js';
import type { SessionRecord } from '../../records/session.js';
import { isLive } from '../../records/freshness.js';

/** One live neighbour session (seed 000 §4 `conflict`, plus whether it works on the same focus). */
export interface SessionConflict {
  existing_session_id: string;
  existing_role: string;
  existing_focus: string;
  started_at: string;
  same_focus: boolean;
}

/**
 * Pure (CI-I5): the live sessions (CREATED or ACTIVE) already registered in this worktree, most recent
 * first. Any live neighbour conflicts, since all sessions of a worktree share its FAST layer.
 */
export function detectConflicts(sessions: readonly SessionRecord[], focus: string): SessionConflict[] {
  return sessions
    .filter(isLive)
    .sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at))
    .map((s) => ({
      existing_session_id: s.session_id,
      existing_role: s.role,
      existing_focus: s.focus,
      started_at: s.started_at,
      same_focus: s.focus.trim().toLowerCase() === focus.trim().toLowerCase(),
    }));
}

/** Pure: the refusal of `on_conflict: abort` (exit 1, nothing created). */
export function conflictError(conflicts: readonly SessionConflict[]): HestaiError {
  const c = conflicts[0]!;
  return blockedError(
    `another session is active in this worktree: ${c.existing_session_id} (${c.existing_role}, focus "${c.existing_focus}", started ${c.started_at}); no session was created`,
    {
      code: 'SESSION_CONFLICT',
      details: conflicts.map(
        (x) => `${x.existing_session_id}: ${x.existing_role}, "${x.existing_focus}", started ${x.started_at}`,
      ),
      remedy:
        'Clock in with --on-conflict continue to work alongside it, or --on-conflict takeover to mark it STALE and take over.',
    },
  );
}
