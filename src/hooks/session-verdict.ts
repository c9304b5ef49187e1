import type { AnchorCheck } from '../records/anchor.js';
import type { WorkspaceConfig } from '../config/schema.js';
import type { WorkspacePaths } from '../paths.js';
import type { SessionRecord } from '../records/session.js';
import type { HookGateVerdict } from '../protocol/hook-run.js';
import { ageHoursAt, contextAgeHours, isContextStale, isOlderAt } from '../records/freshness.js';
import { handshakeIsTerminal } from './handshake.js';

/** Why a session may not change the worktree now, or that it may. */
export type SessionVerdict =
  | { ok: true; ageHours: number }
  | { ok: false; code: 'NO_ANCHOR'; anchor: AnchorCheck & { valid: false } }
  | { ok: false; code: 'TERMINAL' }
  | { ok: false; code: 'STALE'; ageHours: number; limitHours: number };

/** The verdict with the session protocol's gates (`protocol.enforce`) judged too. */
export type ActVerdict = SessionVerdict | { ok: false; code: 'PROTOCOL'; protocol: HookGateVerdict & { ok: false } };

/**
 * The reason code every surface reports for a verdict (the git hooks and agent hooks print `verdict: CODE`,
 * `hestai status --json` and MCP `anchor_status` return it as `code`): `UNLOCKED`, `NO_SESSION`, the anchor's
 * own code (`NO_ANCHOR`, `EXPIRED`, `TAMPERED`, ...), `TERMINAL`, `STALE`, or the protocol's (`NOT_STARTED`,
 * `GATE_UNMET`, `NO_PROTOCOL`).
 */
export type VerdictCode =
  | 'UNLOCKED'
  | 'NO_SESSION'
  | Extract<AnchorCheck, { valid: false }>['code']
  | 'TERMINAL'
  | 'STALE'
  | Extract<HookGateVerdict, { ok: false }>['code'];

/** Pure: the reason code of a verdict (see {@link VerdictCode}). */
export function verdictCode(verdict: ActVerdict): VerdictCode {
  if (verdict.ok) return 'UNLOCKED';
  switch (verdict.code) {
    case 'NO_ANCHOR':
      return verdict.anchor.code;
    case 'PROTOCOL':
      return verdict.protocol.code;
    default:
      return verdict.code;
  }
}

/**
 * Pure: the part of {@link judgeSession} no config decides, or the valid anchor when the session holds one and
 * is not terminal (then the config decides).
 */
function judgeHeld(anchor: AnchorCheck, terminal: boolean): SessionVerdict | (AnchorCheck & { valid: true }) {
  // Terminal first: a fresh session of a locked role has no anchor, and anchoring is not what it needs.
  if (terminal) return { ok: false, code: 'TERMINAL' };
  if (!anchor.valid) return { ok: false, code: 'NO_ANCHOR', anchor };
  return anchor;
}

/**
 * The one place that decides whether a session may change the worktree (docs/design.md §1 rules 1 and 2): it
 * must hold a valid anchor validated within anchor.valid_hours, its handshake (or its role) must not be
 * terminal, and its context must be fresh or acknowledged for this generation (`isContextStale`). The
 * pre-commit hook, the agent-runtime hooks, `hestai status` and the MCP server all ask here (or through
 * {@link judgeSessionAct}) and only word the answer. Reads state, writes nothing.
 */
export function judgeSession(
  paths: WorkspacePaths,
  session: SessionRecord,
  anchor: AnchorCheck,
  config: WorkspaceConfig,
  now: Date,
  /** Whether the handshake or the role is terminal, when the caller already read it. */
  terminal: boolean = handshakeIsTerminal(paths, session.session_id, session.role),
): SessionVerdict {
  const held = judgeHeld(anchor, terminal);
  if ('ok' in held) return held;
  // An anchor covers commits for anchor.valid_hours after it was validated, as verify judges its record.
  if (isOlderAt(held.anchor.validated_at, now.getTime(), config.anchor.valid_hours)) {
    const anchoredHours = ageHoursAt(held.anchor.validated_at, now.getTime());
    return {
      ok: false,
      code: 'NO_ANCHOR',
      anchor: {
        valid: false,
        code: 'EXPIRED',
        reason: `it was validated ${Math.floor(anchoredHours)} h ago (${held.anchor.validated_at}), longer than anchor.valid_hours (${config.anchor.valid_hours} h) covers`,
      },
    };
  }
  const limitHours = config.freshness.max_age_hours;
  const ageHours = contextAgeHours(session, now);
  if (isContextStale(session, now, limitHours)) return { ok: false, code: 'STALE', ageHours, limitHours };
  return { ok: true, ageHours };
}

/**
 * {@link judgeSession}, then, when it allows and the workspace sets `protocol.enforce`, the protocol's rule
 * for an agent's act (`judgeAgentProtocol`, moment `edit`: the blocking gates of the start-stage phases).
 * What the agent hooks, `hestai status` and MCP (`anchor_status`, `hestai://session/current`) report; the
 * pre-commit hook asks `judgeSession` and then the protocol's commit rule (the current phase's gates).
 */
export async function judgeSessionAct(
  paths: WorkspacePaths,
  session: SessionRecord,
  /** The workspace config, or its loader: asked only when the config can change the verdict (`judgeHeld`). */
  source: WorkspaceConfig | (() => Promise<WorkspaceConfig>),
  env: NodeJS.ProcessEnv,
  now: Date,
  known: {
    anchor?: AnchorCheck;
    terminal?: boolean;
    /** The protocol's verdict when the caller already judged it (null: not enforced). */
    protocol?: HookGateVerdict | null;
    /** How this project calls hestai, for the protocol's remedies. */
    cli?: string;
  } = {},
): Promise<ActVerdict> {
  const anchor = known.anchor ?? (await import('../records/anchor.js')).hasValidAnchor(paths, session.session_id);
  const terminal = known.terminal ?? handshakeIsTerminal(paths, session.session_id, session.role);
  const held = judgeHeld(anchor, terminal);
  if ('ok' in held) return held;
  const config = typeof source === 'function' ? await source() : source;
  const verdict = judgeSession(paths, session, anchor, config, now, terminal);
  if (!verdict.ok || !config.protocol.enforce) return verdict;
  const protocol =
    known.protocol !== undefined
      ? known.protocol
      : await (
          await import('../protocol/agent-gate.js')
        ).judgeAgentProtocol(paths, config, session, env, now, 'edit', known.cli);
  return protocol === null || protocol.ok ? verdict : { ok: false, code: 'PROTOCOL', protocol };
}

/** Pure: one sentence on why the verdict is what it is, for `hestai status` and MCP. */
export function verdictReason(verdict: ActVerdict, sessionId: string): string {
  if (verdict.ok) return `session ${sessionId} holds a valid anchor and its context is fresh or acknowledged`;
  switch (verdict.code) {
    case 'NO_ANCHOR':
      return `session ${sessionId} has no valid anchor: ${verdict.anchor.reason}`;
    case 'TERMINAL':
      return `the anchor handshake of session ${sessionId} is terminal (locked after the last allowed retry failed)`;
    case 'STALE':
      return `the context of session ${sessionId} is ${Math.floor(verdict.ageHours)} h old, older than freshness.max_age_hours (${verdict.limitHours} h), and is not acknowledged`;
    case 'PROTOCOL':
      return verdict.protocol.reason;
  }
}
