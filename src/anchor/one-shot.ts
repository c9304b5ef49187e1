/**
 * `odyssean_anchor`: the one-shot entry (seeds 002/003). The whole RAPH v4.0 vector in one call: the
 * agent's ARM is compared with the server's, then the same rules, the same server-side retry count (in
 * the token's pending handshake) and the same anchor.json as the staged path.
 */
import { usageError } from '../errors.js';
import { readSession } from '../records/session.js';
import { sessionLookup } from '../records/known-session.js';
import { MAX_RETRIES } from './constants.js';
import { assertRoleName } from './constitution.js';
import { makeCtxProbe } from './ctx-probe.js';
import { constitutionFor, context, recordFailure, sessionProblem, type AnchorDeps } from './handshake.js';
import { readHandshake, withHandshakeLock, writeHandshake, type HandshakeRecord } from '../records/handshake.js';
import { parsePayload, parseStrictness, parseToken } from './inputs.js';
import { promoteAnchor } from './promote.js';
import { terminalState } from '../records/terminal.js';
import { hasValidAnchor, type Strictness } from '../records/anchor.js';
import type { OdysseanAnchorResult } from './results.js';
import { computeServerArm } from './server-arm.js';
import { canonicalFromValidation, guidanceFor, validateVector } from './validate.js';

export interface OdysseanAnchorInput {
  working_dir: string;
  /** The session id from clock_in (= the token). */
  session_id: string;
  role: string;
  /** The raw `===RAPH_VECTOR::v4.0===` … `===END_RAPH_VECTOR===` block. */
  vector_candidate: string;
  tier?: Strictness;
}

function locked(sessionId: string, reason: string): OdysseanAnchorResult['enforcement'] {
  return { status: 'LOCKED', session_id: sessionId, anchor_file: null, anchor_digest: null, reason };
}

/** Validates a whole vector for a clocked-in session and, when it passes, writes and promotes anchor.json. */
export async function odysseanAnchor(input: OdysseanAnchorInput, deps: AnchorDeps = {}): Promise<OdysseanAnchorResult> {
  const token = parseToken(input.session_id, 'session_id');
  if (input.role === undefined || input.role === '')
    throw usageError('role is required', { code: 'ROLE_MISSING', remedy: 'Pass --role R.' });
  const role = assertRoleName(input.role);
  const vector = parsePayload(input.vector_candidate, 'vector_candidate');
  const ctx = await context(input.working_dir, deps);
  const tier = input.tier === undefined ? ctx.defaultStrictness : parseStrictness(input.tier, '--tier');
  const refusal = (
    code: string,
    message: string,
    next: string,
    extra: Partial<OdysseanAnchorResult> = {},
  ): OdysseanAnchorResult => ({
    validated: false,
    canonical_anchor: '',
    errors: [`${code}: ${message}`],
    guidance: `${message}. ${next}`,
    enforcement: locked(token, message),
    retry_count: 0,
    terminal: false,
    warnings: [],
    ...extra,
  });
  const session = readSession(ctx.paths, token);
  const problem = sessionProblem(session, token, role);
  if (problem || session === null) {
    const [code, message, next] = problem!;
    return refusal(code === 'UNKNOWN_TOKEN' ? 'UNKNOWN_SESSION' : code, message, next);
  }
  const { constitution, warnings: installed } = constitutionFor(ctx, role, token);
  const now = ctx.now.toISOString();
  return withHandshakeLock(ctx.paths, token, async () => {
    const existing = readHandshake(ctx.paths, token);
    const lock = terminalState(ctx.paths, token, role);
    if (lock !== null) {
      return refusal(
        'TERMINAL',
        lock.source === 'handshake' || lock.session_id === token
          ? `session ${token} is terminal after ${MAX_RETRIES + 1} failed ${lock.stage ?? ''} submissions`
          : `role "${role}" is locked in this worktree: the handshake of session ${lock.session_id ?? '(unreadable lock)'} went terminal (${lock.file})`,
        `A human must run "hestai anchor reset --token ${token}" to reopen it.`,
        {
          terminal: true,
          retry_count: existing?.retries.vector ?? 0,
        },
      );
    }
    if (existing === null && hasValidAnchor(ctx.paths, token).valid) {
      return refusal(
        'ALREADY_BOUND',
        `session ${token} is already anchored`,
        `Nothing to do; to re-anchor, start a new handshake with "hestai anchor --stage identity --token ${token}".`,
      );
    }
    const arm = await computeServerArm(ctx.paths, session.focus);
    const v = validateVector(vector, {
      part: 'vector',
      role,
      strictness: tier,
      probe: makeCtxProbe(ctx.paths.root),
      serverArm: arm,
      cognition: constitution?.cognition ?? null,
      sessions: sessionLookup(ctx.paths),
      sessionId: token,
    });
    if (!v.ok) {
      const hs: HandshakeRecord = existing ?? {
        version: 1,
        token,
        stage: 'IDENTITY',
        role,
        working_dir: ctx.paths.root,
        mode: 'full',
        strictness: tier,
        topic: null,
        constitution_path: constitution?.relative ?? null,
        created_at: now,
        updated_at: now,
        expires_at: new Date(ctx.now.getTime() + ctx.ttlMinutes * 60_000).toISOString(),
        server_arm: arm,
        bind: null,
        retries: { context: 0, proof: 0, vector: 0 },
        terminal: false,
        terminal_stage: null,
      };
      if (existing === null) writeHandshake(ctx.paths, hs);
      const retry = recordFailure(ctx.paths, hs, 'vector', ctx.now);
      return {
        validated: false,
        canonical_anchor: '',
        errors: v.errors,
        guidance: guidanceFor(v, retry),
        enforcement: locked(
          token,
          retry.terminal ? 'terminal: a human must reset the handshake' : 'no validated anchor yet',
        ),
        retry_count: retry.failures,
        terminal: retry.terminal,
        warnings: [...installed, ...v.warnings],
      };
    }
    const canonical = canonicalFromValidation(v, arm)!;
    const { permit } = await promoteAnchor(
      ctx.paths,
      {
        version: 1,
        token,
        validated: true,
        role,
        mode: existing?.mode ?? 'full',
        tier,
        source: 'odyssean_anchor',
        validated_at: now,
        arm,
        canonical_anchor: canonical,
      },
      existing,
      now,
    );
    return {
      validated: true,
      canonical_anchor: canonical,
      errors: [],
      guidance: 'Canonical Anchor Accepted.',
      enforcement: {
        status: 'UNLOCKED',
        session_id: token,
        anchor_file: permit.anchor_file,
        anchor_digest: permit.anchor_digest,
        reason: `anchored as ${role} (${tier})`,
      },
      retry_count: existing?.retries.vector ?? 0,
      terminal: false,
      warnings: [...installed, ...v.warnings],
    };
  });
}
