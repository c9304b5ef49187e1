/**
 * `hestai anchor reset`: a human reopens a terminal handshake. Audited and published to `hestai/anchors`
 * (CI sees every reset); the only way to clear retries and a role's terminal lock (src/records/terminal.ts).
 * That a person runs it (a terminal, or `--yes`) is the CLI's check: this use case is the library call.
 */
import { appendAudit } from '../audit.js';
import { publishProofEvent } from '../records/proof-publish.js';
import { blockedError } from '../errors.js';
import { relativeToRoot } from '../paths.js';
import { context, type AnchorDeps } from './handshake.js';
import {
  handshakeFile,
  readHandshake,
  withHandshakeLock,
  writeHandshake,
  type HandshakeRecord,
} from '../records/handshake.js';
import { readSession } from '../records/session.js';
import {
  listTerminalLocks,
  readTerminalLock,
  removeTerminalLock,
  terminalLockFile,
  type TerminalLock,
} from '../records/terminal.js';
import { parseToken } from './inputs.js';

export interface ResetResult {
  token: string;
  reset: true;
  /** The pending handshake before the reset (null when it is gone, e.g. deleted or cleaned up). */
  previous: Pick<HandshakeRecord, 'stage' | 'retries' | 'terminal' | 'terminal_stage'> | null;
  /** The role lock lifted by this reset (null when the role was not locked). */
  role_lock: Pick<TerminalLock, 'role' | 'session_id' | 'stage' | 'at'> | null;
  /** The renewed expiry of the pending handshake (null when there is none). */
  expires_at: string | null;
  audit_log: string;
}

/**
 * Clears the retry counts and the terminal flag of a pending handshake (renewing its expiry) and lifts the
 * terminal lock of the session's role in this worktree; audits it and publishes a `reset` event for the
 * session (and for the session that went terminal, when another session of the role names it).
 */
export async function resetAnchor(
  input: { working_dir: string; token: string; reason?: string },
  deps: AnchorDeps = {},
): Promise<ResetResult> {
  const token = parseToken(input.token);
  const reason =
    typeof input.reason === 'string' && input.reason.trim() !== '' ? input.reason.trim().slice(0, 500) : null;
  const ctx = await context(input.working_dir, deps);
  return withHandshakeLock(ctx.paths, token, async () => {
    const hs = readHandshake(ctx.paths, token);
    // The role: the handshake's, else the session's, else a lock left by this very session (clocked out since).
    const role =
      hs?.role ??
      readSession(ctx.paths, token)?.role ??
      listTerminalLocks(ctx.paths).find((l) => l.session_id === token)?.role ??
      null;
    const lock = role === null ? null : readTerminalLock(ctx.paths, role);
    if (hs === null && lock === null) {
      throw blockedError(
        `nothing to reset for token ${token}: no pending handshake (${relativeToRoot(ctx.paths, handshakeFile(ctx.paths, token))} does not exist) and ${role === null ? 'no session or role lock names it' : `role "${role}" is not locked`}`,
        {
          code: 'NO_HANDSHAKE',
          remedy: 'Check the token with "hestai status", or start a handshake with "hestai anchor --stage identity".',
        },
      );
    }
    const now = ctx.now.toISOString();
    const expires = hs === null ? null : new Date(ctx.now.getTime() + ctx.ttlMinutes * 60_000).toISOString();
    const previous =
      hs === null
        ? null
        : { stage: hs.stage, retries: hs.retries, terminal: hs.terminal, terminal_stage: hs.terminal_stage };
    if (hs !== null)
      writeHandshake(ctx.paths, {
        ...hs,
        retries: { context: 0, proof: 0, vector: 0 },
        terminal: false,
        terminal_stage: null,
        updated_at: now,
        expires_at: expires!,
      });
    const roleLock =
      lock === null ? null : { role: lock.role, session_id: lock.session_id, stage: lock.stage, at: lock.at };
    if (lock !== null) removeTerminalLock(ctx.paths, lock.role);
    appendAudit(ctx.paths, {
      event: 'anchor_reset',
      session_id: token,
      at: now,
      reason,
      previous,
      role_lock:
        roleLock === null
          ? null
          : { ...roleLock, file: relativeToRoot(ctx.paths, terminalLockFile(ctx.paths, lock!.role)) },
    });
    // CI sees the reset through the anchors branch (published with the next git push).
    const sessions = new Set([token, ...(roleLock === null ? [] : [roleLock.session_id])]);
    for (const session_id of sessions)
      await publishProofEvent(
        ctx.paths.root,
        { event: 'reset', session_id, at: now, context_generated_at: null, reason },
        ctx.now,
      );
    return {
      token,
      reset: true,
      previous,
      role_lock: roleLock,
      expires_at: expires,
      audit_log: relativeToRoot(ctx.paths, ctx.paths.auditLog),
    };
  });
}
