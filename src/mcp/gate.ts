import type { ActVerdict, VerdictCode } from '../hooks/session-verdict.js';
import { verdictCode, verdictReason } from '../hooks/session-verdict.js';

/**
 * The tool-gating verdict for one session (seed 001 GATING_MODEL), worded for an agent over MCP. The
 * decision is the hooks' own (`judgeSessionAct`, src/hooks/session-verdict.ts); this only words it.
 */
export interface GateDecision {
  session_id: string;
  unlocked: boolean;
  /** `UNLOCKED`, or why not: the reason code the hooks and `hestai status` report too. */
  code: VerdictCode;
  reason: string;
  /** What to do to unlock; null when unlocked. */
  remedy: string | null;
}

const UNTRACKED = 'An anchor in mode=untracked never unlocks privileged tools: anchor with mode full or lite.';

const ANCHOR_REMEDIES: Record<string, string> = {
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

function remedyFor(sessionId: string, verdict: ActVerdict & { ok: false }): string {
  switch (verdict.code) {
    case 'TERMINAL':
      return terminalRemedy(sessionId);
    case 'STALE':
      return `Regenerate the context and re-read it: \`hestai refresh --session ${sessionId}\`. If a human confirms it is still right, they run \`hestai ack --session ${sessionId} --reason "..."\` (audited).`;
    case 'PROTOCOL':
      return verdict.protocol.code === 'NOT_STARTED'
        ? 'Start the session protocol: call session_start, then meet its start gates (get_blocked_reason lists them).'
        : verdict.protocol.code === 'NO_PROTOCOL'
          ? verdict.protocol.remedy
          : 'Meet each gate in protocol_gate.unmet with the tool call named, then advance_phase; get_blocked_reason lists the gates.';
    case 'NO_ANCHOR':
      return `${ANCHOR_REMEDIES[verdict.anchor.code] ?? ANCHOR_REMEDIES['NO_ANCHOR']} ${UNTRACKED}`;
  }
}

/** Pure: the verdict the hooks give a session, worded for MCP (`anchor_status`, `hestai://session/current`). */
export function gateDecision(sessionId: string, verdict: ActVerdict): GateDecision {
  return {
    session_id: sessionId,
    unlocked: verdict.ok,
    code: verdictCode(verdict),
    reason: verdictReason(verdict, sessionId),
    remedy: verdict.ok ? null : remedyFor(sessionId, verdict),
  };
}
