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
