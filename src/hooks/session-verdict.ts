import type { AnchorCheck } from '../records/anchor.js';
import type { WorkspaceConfig } from '../config/schema.js';
import type { WorkspacePaths } from '../paths.js';
import type { SessionRecord } from '../records/session.js';
import { ageHoursAt, contextAgeHours, isContextStale, isOlderAt } from '../records/freshness.js';
import { handshakeIsTerminal } from './handshake.js';

/** Why a session may not change the worktree now, or that it may. */
export type SessionVerdict =
  | { ok: true; ageHours: number }
  | { ok: false; code: 'NO_ANCHOR'; anchor: AnchorCheck & { valid: false } }
  | { ok: false; code: 'TERMINAL' }
  | { ok: false; code: 'STALE'; ageHours: number; limitHours: number };

/**
 * The one place that decides whether a session may change the worktree (docs/design.md §1 rules 1 and 2): it
 * must hold a valid anchor, its handshake must not be terminal, and its context must be fresh or
 * acknowledged for this generation (`isContextStale`). The pre-commit hook and the agent-runtime hooks
 * (PreToolUse, `hestai check tool-use`) both ask here and only word the answer. Reads state, writes nothing.
 */
export function judgeSession(
  paths: WorkspacePaths,
  session: SessionRecord,
  anchor: AnchorCheck,
  config: WorkspaceConfig,
  now: Date,
): SessionVerdict {
  // Terminal first: a fresh session of a locked role has no anchor, and anchoring is not what it needs.
  if (handshakeIsTerminal(paths, session.session_id, session.role)) return { ok: false, code: 'TERMINAL' };
  if (!anchor.valid) return { ok: false, code: 'NO_ANCHOR', anchor };
  // An anchor covers commits for anchor.valid_hours after it was validated, as verify judges its record.
  if (isOlderAt(anchor.anchor.validated_at, now.getTime(), config.anchor.valid_hours)) {
    const anchoredHours = ageHoursAt(anchor.anchor.validated_at, now.getTime());
    return {
      ok: false,
      code: 'NO_ANCHOR',
      anchor: {
        valid: false,
        code: 'EXPIRED',
        reason: `it was validated ${Math.floor(anchoredHours)} h ago (${anchor.anchor.validated_at}), longer than anchor.valid_hours (${config.anchor.valid_hours} h) covers`,
      },
    };
  }
  const limitHours = config.freshness.max_age_hours;
  const ageHours = contextAgeHours(session, now);
  if (isContextStale(session, now, limitHours)) return { ok: false, code: 'STALE', ageHours, limitHours };
  return { ok: true, ageHours };
}
