import { blockedError } from '../errors.js';
import { hasValidAnchor, type AnchorCheck, type AnchorRecord } from '../records/anchor.js';
import type { WorkspacePaths } from '../paths.js';

/** The tool-gating verdict for one session (seed 001 GATING_MODEL). */
export interface GateDecision {
  session_id: string;
  unlocked: boolean;
  /** `UNLOCKED`, or why not (the `AnchorCheck` code). */
  code: 'UNLOCKED' | Extract<AnchorCheck, { valid: false }>['code'];
  reason: string;
  /** What to do to unlock; null when unlocked. */
  remedy: string | null;
}

const UNTRACKED = 'An anchor in mode=untracked never unlocks privileged tools: anchor with mode full or lite.';

const REMEDIES: Record<Exclude<GateDecision['code'], 'UNLOCKED'>, string> = {
  INVALID_TOKEN: 'Pass the session_id that clock_in returned (a UUID v4).',
  NO_SESSION: 'Call clock_in to start a session, then anchor it (stage identity → context → proof).',
  NO_ANCHOR: 'Complete the anchor handshake for this session: anchor stage identity → context → proof (or odyssean_anchor with a whole RAPH vector).',
  NOT_VALIDATED: 'Complete the anchor handshake again (stage identity → context → proof); only a passed proof writes a validated anchor.',
  TOKEN_MISMATCH: 'The anchor belongs to another session: ask a human to run `hestai anchor reset --token <session_id>`, then anchor again.',
  TAMPERED: 'anchor.json was edited after validation: ask a human to run `hestai anchor reset --token <session_id>`, then anchor again.',
  CORRUPT: 'A state file is unreadable: ask a human to run `hestai anchor reset --token <session_id>` (or clock_in a new session), then anchor again.',
  SESSION_CLOSED: 'This session is closed: call clock_in to start a new one and anchor it.',
};

/** Pure: the gating verdict for an anchor check. Only a valid anchor unlocks. */
export function gateDecision(sessionId: string, check: AnchorCheck): GateDecision {
  if (check.valid) {
    return { session_id: sessionId, unlocked: true, code: 'UNLOCKED', reason: `session ${sessionId} holds a valid anchor`, remedy: null };
  }
  return { session_id: sessionId, unlocked: false, code: check.code, reason: check.reason, remedy: `${REMEDIES[check.code]} ${UNTRACKED}` };
}

/**
 * The first thing a privileged tool (one that writes state beyond the handshake) does: refuse with
 * `TOOL_LOCKED` (exit 1) and the reason and remedy unless `active/{session_id}/anchor.json` is valid.
 * Returns the anchor when unlocked.
 */
export function requireUnlocked(paths: WorkspacePaths, sessionId: string, tool: string): AnchorRecord {
  const check = hasValidAnchor(paths, sessionId);
  if (check.valid) return check.anchor;
  const decision = gateDecision(sessionId, check);
  throw blockedError(`${tool} is locked for session ${sessionId}: the session is not anchored`, {
    code: 'TOOL_LOCKED',
    details: [`${decision.code}: ${decision.reason}`],
    ...(decision.remedy === null ? {} : { remedy: decision.remedy }),
  });
}
