import type { AnchorCheck } from '../records/anchor.js';

/** The tool-gating verdict for one session (seed 001 GATING_MODEL). */
export interface GateDecision {
  session_id: string;
  unlocked: boolean;
  /** `UNLOCKED`, or why not (the `AnchorCheck` code). */
  code: 'UNLOCKED' | 'TERMINAL' | Extract<AnchorCheck, { valid: false }>['code'];
  reason: string;
  /** What to do to unlock; null when unlocked. */
  remedy: string | null;
}

const UNTRACKED = 'An anchor in mode=untracked never unlocks privileged tools: anchor with mode full or lite.';

const REMEDIES: Record<Exclude<GateDecision['code'], 'UNLOCKED' | 'TERMINAL'>, string> = {
  INVALID_TOKEN: 'Pass the session_id that clock_in returned (a UUID v4).',
  NO_SESSION: 'Call clock_in to start a session, then anchor it (stage identity → context → proof).',
  NO_ANCHOR:
    'Complete the anchor handshake for this session: anchor stage identity → context → proof (or odyssean_anchor with a whole RAPH vector).',
  NOT_VALIDATED:
    'Complete the anchor handshake again (stage identity → context → proof); only a passed proof writes a validated anchor.',
  TOKEN_MISMATCH:
    'The anchor belongs to another session: ask a human to run `hestai anchor reset --token <session_id>`, then anchor again.',
  TAMPERED:
    'anchor.json was edited after validation: ask a human to run `hestai anchor reset --token <session_id>`, then anchor again.',
  CORRUPT:
    'A state file is unreadable: ask a human to run `hestai anchor reset --token <session_id>` (or clock_in a new session), then anchor again.',
  SESSION_CLOSED: 'This session is closed: call clock_in to start a new one and anchor it.',
  EXPIRED:
    'The anchor is older than anchor.valid_hours: anchor this session again (stage identity → context → proof) for a new proof record.',
};

/** What a terminal handshake means and who can lift it (never the agent: retrying cannot help). */
export function terminalRemedy(sessionId: string): string {
  return (
    `Stop retrying: the handshake is locked after the last allowed retry failed, and no tool call can reopen it. A human must review the failed submissions and run ` +
    `\`hestai anchor reset --token ${sessionId} --reason "..."\` (audited); then call anchor with stage identity again. Until then commits are blocked. ` +
    'You can still call clock_out to close this session (archived as unanchored).'
  );
}

/**
 * Pure: the gating verdict for an anchor check. Only a valid anchor of a session whose handshake is not
 * terminal unlocks; a terminal handshake is reported as TERMINAL (whatever the anchor), as the hooks judge it.
 */
export function gateDecision(sessionId: string, check: AnchorCheck, terminal = false): GateDecision {
  if (terminal) {
    return {
      session_id: sessionId,
      unlocked: false,
      code: 'TERMINAL',
      reason: `the anchor handshake of session ${sessionId} is terminal (locked after the last allowed retry failed)`,
      remedy: terminalRemedy(sessionId),
    };
  }
  if (check.valid) {
    return {
      session_id: sessionId,
      unlocked: true,
      code: 'UNLOCKED',
      reason: `session ${sessionId} holds a valid anchor`,
      remedy: null,
    };
  }
  return {
    session_id: sessionId,
    unlocked: false,
    code: check.code,
    reason: check.reason,
    remedy: `${REMEDIES[check.code]} ${UNTRACKED}`,
  };
}
