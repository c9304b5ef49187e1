/**
 * `odyssean_anchor`: the one-shot entry (seeds 002/003). The whole RAPH v4.0 vector in one call: the
 * agent's ARM is compared with the server's, then the same rules, the same server-side retry count (in
 * the token's pending handshake) and the same anchor.json as the staged path.
 */
import { usageError } from '../errors.js';
import { readSession } from '../records/session.js';
import { sessionLookup } from '../records/known-session.js';
import { MAX_RETRIES } from './constants.js';
import { assertRoleName, type Constitution } from './constitution.js';
import { makeCtxProbe } from './ctx-probe.js';
import { constitutionFor, context, recordFailure, sessionProblem, type AnchorDeps, type Ctx } from './handshake.js';
import { readHandshake, withHandshakeLock, writeHandshake, type HandshakeRecord } from '../records/handshake.js';
import { parsePayload, parseStrictness, parseToken } from './inputs.js';
import { promoteAnchor } from './promote.js';
import { terminalState } from '../records/terminal.js';
import { hasValidAnchor, type ArmSnapshot, type Strictness } from '../records/anchor.js';
import type { OdysseanAnchorResult } from './results.js';
import { computeServerArm } from './server-arm.js';
import { canonicalFromValidation, guidanceFor, validateVector, type VectorValidation } from './validate.js';

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

/** A vector refused before it is judged (`CODE: message`, then what to do next): LOCKED, nothing written. */
function refusal(
  token: string,
  code: string,
  message: string,
  next: string,
  extra: Partial<OdysseanAnchorResult> = {},
): OdysseanAnchorResult {
  return {
    validated: false,
    canonical_anchor: '',
    errors: [`${code}: ${message}`],
    guidance: `${message}. ${next}`,
    enforcement: locked(token, message),
    retry_count: 0,
    terminal: false,
    warnings: [],
    ...extra,
  };
}

/** One vector submitted for a clocked-in session, inside its handshake lock. */
interface Attempt {
  ctx: Ctx;
  token: string;
  role: string;
  tier: Strictness;
  /** The session's staged handshake, if it has one. */
  existing: HandshakeRecord | null;
  /** The role's constitution (installed on first use: `installed` warns about it). */
  constitution: Constitution | null;
  installed: string[];
  now: string;
}

/** A handshake that takes no vector: terminal (for the session, or the role in this worktree), or already anchored. */
function closedHandshake(a: Attempt): OdysseanAnchorResult | null {
  const { ctx, token, role, existing } = a;
  const lock = terminalState(ctx.paths, token, role);
  if (lock !== null) {
    return refusal(
      token,
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
      token,
      'ALREADY_BOUND',
      `session ${token} is already anchored`,
      `Nothing to do; to re-anchor, start a new handshake with "hestai anchor --stage identity --token ${token}".`,
    );
  }
  return null;
}

/**
 * A vector that failed its rules: the failure counts against the session's handshake (started here, at
 * IDENTITY, when it has none), the same server-side retry count as the staged path.
 */
function failedVector(a: Attempt, arm: ArmSnapshot, v: VectorValidation): OdysseanAnchorResult {
  const { ctx, token, role, tier, existing, constitution, now } = a;
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
    warnings: [...a.installed, ...v.warnings],
  };
}

/** A vector that passed: its canonical anchor is written to anchor.json and promoted (UNLOCKED). */
async function acceptedVector(a: Attempt, arm: ArmSnapshot, v: VectorValidation): Promise<OdysseanAnchorResult> {
  const { ctx, token, role, tier, existing, now } = a;
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
    warnings: [...a.installed, ...v.warnings],
  };
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
  const session = readSession(ctx.paths, token);
  const problem = sessionProblem(session, token, role);
  if (problem || session === null) {
    const [code, message, next] = problem!;
    return refusal(token, code === 'UNKNOWN_TOKEN' ? 'UNKNOWN_SESSION' : code, message, next);
  }
  const { constitution, warnings: installed } = constitutionFor(ctx, role, token);
  const now = ctx.now.toISOString();
  return withHandshakeLock(ctx.paths, token, async () => {
    const existing = readHandshake(ctx.paths, token);
    const attempt: Attempt = { ctx, token, role, tier, existing, constitution, installed, now };
    const closed = closedHandshake(attempt);
    if (closed !== null) return closed;
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
    return v.ok ? acceptedVector(attempt, arm, v) : failedVector(attempt, arm, v);
  });
}
