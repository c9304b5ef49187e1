/** `hestai anchor reset`: a human reopens a (terminal) handshake. Audited; the only way to clear retries. */
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
import { parseToken } from './inputs.js';

export interface ResetResult {
  token: string;
  reset: true;
  previous: Pick<HandshakeRecord, 'stage' | 'retries' | 'terminal' | 'terminal_stage'>;
  expires_at: string;
  audit_log: string;
}

/** Clears the retry counts and the terminal flag of a pending handshake, renews its expiry, and audits it. */
export async function resetAnchor(
  input: { working_dir: string; token: string; reason?: string },
  deps: AnchorDeps = {},
): Promise<ResetResult> {
  const token = parseToken(input.token);
  const reason =
    typeof input.reason === 'string' && input.reason.trim() !== '' ? input.reason.trim().slice(0, 500) : null;
  const ctx = await context(input.working_dir, deps);
  return withHandshakeLock(ctx.paths, token, () => {
    const hs = readHandshake(ctx.paths, token);
    if (hs === null) {
      throw blockedError(
        `no pending handshake for token ${token} (${relativeToRoot(ctx.paths, handshakeFile(ctx.paths, token))} does not exist)`,
        {
          code: 'NO_HANDSHAKE',
          remedy:
            'Nothing to reset: check the token with "hestai status", or start a handshake with "hestai anchor --stage identity".',
        },
      );
    }
    const now = ctx.now.toISOString();
    const expires = new Date(ctx.now.getTime() + ctx.ttlMinutes * 60_000).toISOString();
    const previous = { stage: hs.stage, retries: hs.retries, terminal: hs.terminal, terminal_stage: hs.terminal_stage };
    writeHandshake(ctx.paths, {
      ...hs,
      retries: { context: 0, proof: 0, vector: 0 },
      terminal: false,
      terminal_stage: null,
      updated_at: now,
      expires_at: expires,
    });
    appendAudit(ctx.paths, { event: 'anchor_reset', session_id: token, at: now, reason, previous });
    publishProofEvent(
      ctx.paths.root,
      { event: 'reset', session_id: token, at: now, context_generated_at: null, reason },
      ctx.now,
    );
    return {
      token,
      reset: true,
      previous,
      expires_at: expires,
      audit_log: relativeToRoot(ctx.paths, ctx.paths.auditLog),
    };
  });
}
