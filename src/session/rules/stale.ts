import { blockedError, type HestaiError } from '../../errors.js';
import type { SessionRecord } from '../../records/session.js';

/**
 * Pure: seed 000 §7's offer ("Stale session on clock_in: offer to clean up or continue (agent decides)").
 * Thrown before anything is written: the caller clocks in again with its choice.
 */
export function staleOfferError(stale: readonly SessionRecord[], role: string, staleHours: number): HestaiError {
  return blockedError(
    `${stale.length} session(s) in this worktree have had no activity for over ${staleHours} h: ${stale.map((s) => s.session_id).join(', ')}; no session was created`,
    {
      code: 'STALE_SESSIONS',
      details: stale.map(
        (s) => `${s.session_id} (${s.role}, focus "${s.focus}", last activity ${s.last_activity}, ${s.state})`,
      ),
      remedy: `Choose, with your other arguments: hestai clock-in --role ${role} --on-stale cleanup (mark them STALE and archive them), or hestai clock-in --role ${role} --on-stale continue (leave them as they are).`,
    },
  );
}
