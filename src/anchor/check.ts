/**
 * `hestai anchor --check`: a payload judged by the rules its stage would apply, with nothing written and no
 * retry spent (issue 41). The role, strictness and constitution are the session's pending handshake's when
 * there is one, so a payload that passes the check passes the stage.
 */
import { readHandshake } from '../records/handshake.js';
import { readSession } from '../records/session.js';
import { sessionLookup } from '../records/known-session.js';
import type { Strictness } from '../records/anchor.js';
import { assertRoleName, readConstitution } from './constitution.js';
import { makeCtxProbe } from './ctx-probe.js';
import { context, type AnchorDeps } from './handshake.js';
import { parseStrictness, parseToken } from './inputs.js';
import { splitPayload } from './person.js';
import { guidanceFor, validateVector, type VectorValidation } from './validate.js';
import { usageError } from '../errors.js';

export type CheckPart = 'bind' | 'proof' | 'person';

export interface CheckInput {
  working_dir: string;
  /** context: `## BIND`; proof: `## TENSION` and `## COMMIT`; person: all three, comments allowed. */
  part: CheckPart;
  payload: string;
  token?: string;
  role?: string;
  strictness?: string;
}

export interface CheckResult {
  ok: boolean;
  part: CheckPart;
  role: string;
  strictness: Strictness;
  errors: string[];
  warnings: string[];
  guidance: string;
  /** Always false: a check is never counted. */
  retry_spent: false;
}

/** The role a payload names on its ROLE line, if any. */
function roleLine(payload: string): string | undefined {
  return /^\s*ROLE::\s*(\S+)\s*$/m.exec(payload)?.[1];
}

/** Judges a payload as its stage would, writing nothing. Usage errors throw (exit 2). */
export async function checkPayload(input: CheckInput, deps: AnchorDeps = {}): Promise<CheckResult> {
  const ctx = await context(input.working_dir, deps);
  const token = input.token === undefined || input.token === '' ? null : parseToken(input.token, 'session');
  const pending = token === null ? null : readHandshake(ctx.paths, token);
  const session = token === null ? null : readSession(ctx.paths, token);
  const named = pending?.role ?? session?.role ?? input.role ?? roleLine(input.payload);
  if (named === undefined)
    throw usageError('--check needs the role the payload binds as', {
      code: 'ROLE_MISSING',
      remedy: 'Pass --session <id> (the session the payload is for) or --role R.',
    });
  const role = assertRoleName(named);
  const strictness =
    input.strictness !== undefined ? parseStrictness(input.strictness) : (pending?.strictness ?? ctx.defaultStrictness);
  const probe = makeCtxProbe(ctx.paths.root);
  const common = { role, strictness, probe, sessions: sessionLookup(ctx.paths), sessionId: token };
  const bindOptions = {
    ...common,
    part: 'bind' as const,
    cognition: readConstitution(ctx.paths, role)?.cognition ?? null,
  };
  const runs: VectorValidation[] = [];
  if (input.part === 'bind') runs.push(validateVector(input.payload, bindOptions));
  else if (input.part === 'proof') runs.push(validateVector(input.payload, { ...common, part: 'proof' }));
  else {
    const { bind, proof } = splitPayload(input.payload);
    runs.push(validateVector(bind, bindOptions), validateVector(proof, { ...common, part: 'proof' }));
  }
  const ok = runs.every((v) => v.ok);
  return {
    ok,
    part: input.part,
    role,
    strictness,
    errors: runs.flatMap((v) => v.errors),
    warnings: runs.flatMap((v) => v.warnings),
    guidance: runs
      .map((v) => guidanceFor(v))
      .filter((g) => g !== '')
      .join('\n\n'),
    retry_spent: false,
  };
}
