/**
 * `anchor`: the v5.0 staged handshake (seed 001), canonical binding of docs/design.md §2.
 *
 * identity → token, constitution, BIND template · context (BIND) → server ARM, proof template ·
 * proof (TENSION + COMMIT) → anchor.json promoted atomically, canonical anchor, work permit.
 * Tracked modes (full, lite) keep the pending state on disk under the token's lock; untracked validates
 * statelessly, writes nothing and unlocks nothing.
 */
import { appendAudit } from '../audit.js';
import { systemClock, type Clock } from '../clock.js';
import { loadConfig } from '../config/load.js';
import { usageError } from '../errors.js';
import { isLive, readSession, type SessionRecord } from '../records/session.js';
import { sessionLookup } from '../records/known-session.js';
import { resolveWorkspaceAsync } from '../workspace.js';
import { WORKSPACE_CONFIG_FILE, type WorkspacePaths } from '../paths.js';
import { fileAtCommitAsync, headCommitAsync } from '../git/async.js';
import { MAX_RETRIES, MIN_TENSIONS } from './constants.js';
import { bindTemplate, proofTemplate, renderArm, renderCanonicalAnchor } from './canonical.js';
import {
  availableRoles,
  assertRoleName,
  constitutionExcerpt,
  ensureConstitution,
  packagedConstitution,
  readConstitution,
  type Constitution,
} from './constitution.js';
import { makeCtxProbe } from './ctx-probe.js';
import {
  handshakeNow,
  readHandshake,
  withHandshakeLock,
  writeHandshake,
  type HandshakeRecord,
  type RetryStage,
} from '../records/handshake.js';
import { parseMode, parsePayload, parseStage, parseStrictness, parseToken, parseTopic } from './inputs.js';
import { promoteAnchor } from './promote.js';
import { readTerminalLock, terminalLockFile, terminalState, writeTerminalLock } from '../records/terminal.js';
import { relativeToRoot } from '../paths.js';
import { hasValidAnchor, type Strictness } from '../records/anchor.js';
import type { AnchorHandshakeResult, AnchorMode, AnchorStage } from './results.js';
import { computeServerArm } from './server-arm.js';
import { guidanceFor, validateVector, type VectorValidation } from './validate.js';

export interface AnchorInput {
  stage: AnchorStage;
  /** Absolute path inside the repository. */
  working_dir: string;
  /** Required for identity, and for context/proof in untracked mode. */
  role?: string;
  mode?: AnchorMode;
  strictness?: Strictness;
  topic?: string;
  /** The session id from clock_in (identity) or from the identity stage (context, proof). */
  token?: string;
  /** context: the `## BIND` section; proof: `## TENSION` and `## COMMIT`. */
  payload?: string;
}

/** The clock_in use case, as the identity stage needs it (given by the caller: anchor/ never imports session/). */
export type ClockInPort = (
  input: { working_dir: string; role: string; focus?: string; pinned?: boolean },
  deps: { clock?: Clock; env?: NodeJS.ProcessEnv },
) => Promise<{ session_id: string }>;

export interface AnchorDeps {
  clock?: Clock;
  /** Runs clock_in for an identity stage called without a token (CI-I1); without it such a call is refused. */
  clockIn?: ClockInPort;
  /** Environment for the clock_in the identity stage runs when called without a token. */
  env?: NodeJS.ProcessEnv;
  /** Pin the session that clock_in starts to its caller (an MCP connection): see src/session/resolve.ts. */
  pinned?: boolean;
}

export interface Ctx {
  paths: WorkspacePaths;
  now: Date;
  ttlMinutes: number;
  defaultStrictness: Strictness;
  /** `anchor.constitutions`: install a missing role constitution from the packaged defaults, or refuse. */
  constitutions: 'install' | 'strict';
}

function baseResult(
  stage: AnchorStage,
  mode: AnchorMode,
  strictness: Strictness,
  token: string | null,
): AnchorHandshakeResult {
  return {
    success: false,
    stage,
    token,
    mode,
    strictness,
    constitution_path: null,
    constitution_excerpt: null,
    server_arm: null,
    anchor: null,
    next_step: '',
    template: null,
    errors: [],
    guidance: '',
    terminal: false,
    retries_left: null,
    warnings: [],
    work_permit: null,
  };
}

/** A refusal that is not a payload validation failure (nothing is counted). */
function refuse(result: AnchorHandshakeResult, code: string, message: string, next: string): AnchorHandshakeResult {
  return {
    ...result,
    success: false,
    errors: [`${code}: ${message}`],
    guidance: `${message}. ${next}`,
    next_step: next,
  };
}

export async function context(workingDir: string, deps: AnchorDeps): Promise<Ctx> {
  const workspace = await resolveWorkspaceAsync(workingDir, { requireAbsolute: true });
  const { config } = await loadConfig(workspace.root);
  return {
    paths: workspace.paths,
    now: (deps.clock ?? systemClock)(),
    ttlMinutes: config.anchor.handshake_ttl_minutes,
    defaultStrictness: config.anchor.strictness,
    constitutions: config.anchor.constitutions,
  };
}

function noConstitution(
  result: AnchorHandshakeResult,
  paths: WorkspacePaths,
  role: string,
  policy: Ctx['constitutions'],
): AnchorHandshakeResult {
  const roles = availableRoles(paths);
  const strict =
    policy === 'strict' && packagedConstitution(role) !== null
      ? `anchor.constitutions is strict, so the packaged default is not installed: add the file (or run "hestai init", which installs the defaults and keeps existing files). `
      : '';
  return {
    ...refuse(
      result,
      'NO_CONSTITUTION',
      `role "${role}" has no constitution at .hestai-sys/agents/${role}.oct.md`,
      roles.length > 0
        ? `${strict}Available roles: ${roles.join(', ')}. Bind as one of them, or add the file.`
        : `${strict}No constitutions are installed: run "hestai init" to install the defaults.`,
    ),
    available_roles: roles,
  };
}

/**
 * The role's constitution, installed from the packaged defaults when missing (seed 001 STAGE_IDENTITY
 * "ensure the .hestai-sys injection is present") unless `anchor.constitutions` is strict; an install is
 * audited and reported as a warning.
 */
export function constitutionFor(
  ctx: Ctx,
  role: string,
  sessionId: string | null,
): { constitution: Constitution | null; warnings: string[]; note: string } {
  const { constitution, installed } = ensureConstitution(ctx.paths, role, ctx.constitutions);
  if (!installed || constitution === null) return { constitution, warnings: [], note: '' };
  appendAudit(ctx.paths, {
    event: 'constitution_installed',
    session_id: sessionId,
    role,
    file: constitution.relative,
    at: ctx.now.toISOString(),
  });
  return {
    constitution,
    warnings: [
      `CONSTITUTION_INSTALLED: ${constitution.relative} was missing: the packaged default for ${role} was installed (commit it: hestai verify checks it at the anchored commit; pin anchor.constitutions: strict to refuse instead)`,
    ],
    note: ` It had no constitution: installed the packaged default constitution at ${constitution.relative} (commit it).`,
  };
}

/**
 * Why a role cannot be anchored yet although its constitution is in the worktree: HEAD does not have it
 * (the adoption commit is not made, or a new role's file is not committed), and `hestai verify` re-runs the
 * anchor rules against the commit the proof record names. Null when HEAD has it.
 */
export async function constitutionNotCommitted(
  root: string,
  relative: string,
): Promise<[string, string, string] | null> {
  const head = await headCommitAsync(root);
  if (head !== null && (await fileAtCommitAsync(root, head, relative)) !== null) return null;
  const where = head === null ? 'there is no commit yet' : `HEAD ${head.slice(0, 7)} does not have it`;
  const because = 'and hestai verify re-checks an anchor at the commit it records';
  if (head === null || (await fileAtCommitAsync(root, head, WORKSPACE_CONFIG_FILE)) === null)
    return [
      'ADOPTION_UNCOMMITTED',
      `${relative} and the other files hestai init wrote are not committed (${where}), ${because}`,
      'Make the adoption commit first: `hestai init --commit` (it commits only the files init writes, hooks skipped), then run this stage again',
    ];
  return [
    'CONSTITUTION_UNCOMMITTED',
    `${relative} is not committed (${where}), ${because}`,
    `Commit it from a session of a role whose constitution is committed (\`git add ${relative} && git commit -m "docs(agents): the role's constitution"\`), then run this stage again`,
  ];
}

/** The reason a session cannot be anchored, or null. */
export function sessionProblem(
  session: SessionRecord | null,
  token: string,
  role: string | null,
): [string, string, string] | null {
  if (session === null)
    return [
      'UNKNOWN_TOKEN',
      `no active session ${token} in this worktree`,
      'Run "hestai clock-in --role R" (or the identity stage without --token) to start one.',
    ];
  if (!isLive(session)) {
    return ['SESSION_CLOSED', `session ${token} is ${session.state}`, 'Clock in again to start a new session.'];
  }
  if (role !== null && session.role !== role) {
    return [
      'ROLE_MISMATCH',
      `session ${token} was clocked in as "${session.role}", not "${role}"`,
      `Bind as ${session.role}, or clock in again with --role ${role}.`,
    ];
  }
  return null;
}

/** `handshakeNow` for a token: the session's recorded times count too (a new handshake has only those). */
function handshakeTime(
  paths: WorkspacePaths,
  token: string,
  hs: Pick<HandshakeRecord, 'updated_at' | 'seen_at' | 'seen_real_at'> | null,
  now: Date,
): Date {
  let session: SessionRecord | null = null;
  try {
    session = readSession(paths, token);
  } catch {
    /* a corrupt session is refused where it is read for the stage */
  }
  return handshakeNow(hs ?? { updated_at: now.toISOString() }, now, Date.now(), [
    session?.last_activity,
    session?.context_generated_at,
  ]);
}

/**
 * Judges a handshake's time (`handshakeNow`: never before a recorded time, real time passing counts) and
 * records the instant, so that a clock set backwards later cannot revive what was seen expired. Returns
 * the record as written and the instant to judge expiry at.
 */
export function observeHandshake(
  paths: WorkspacePaths,
  hs: HandshakeRecord,
  now: Date,
): { hs: HandshakeRecord; at: Date } {
  const at = handshakeTime(paths, hs.token, hs, now);
  if (hs.seen_at === at.toISOString() && hs.seen_real_at !== undefined) return { hs, at };
  const seen: HandshakeRecord = { ...hs, seen_at: at.toISOString(), seen_real_at: new Date().toISOString() };
  writeHandshake(paths, seen);
  return { hs: seen, at };
}

/** Refuses a handshake that cannot take `stage` now; null when it can. */
function gate(
  result: AnchorHandshakeResult,
  paths: WorkspacePaths,
  token: string,
  hs: HandshakeRecord | null,
  stage: 'context' | 'proof',
  now: Date,
): AnchorHandshakeResult | null {
  if (hs === null) {
    if (stage === 'proof' && hasValidAnchor(paths, token).valid) {
      return refuse(
        result,
        'ALREADY_BOUND',
        `token ${token} is already bound (its proof passed; anchor.json is in place)`,
        'Nothing to do; start a new handshake with --stage identity --token T to re-anchor.',
      );
    }
    return refuse(
      result,
      'UNKNOWN_TOKEN',
      `no pending handshake for token ${token}`,
      'Start with --stage identity (passing the session id from clock-in as --token).',
    );
  }
  const locked = terminalRefusal(result, paths, token, hs.role);
  if (locked) return locked;
  if (hs.stage === 'BOUND')
    return refuse(
      result,
      'ALREADY_BOUND',
      `token ${token} is already bound`,
      'Start a new handshake with --stage identity to re-anchor.',
    );
  if (Date.parse(hs.expires_at) <= now.getTime()) {
    return refuse(
      result,
      'TOKEN_EXPIRED',
      `the handshake for ${token} expired at ${hs.expires_at}`,
      `Run "hestai anchor --stage identity --token ${token}" again to renew it (the retry count is kept).`,
    );
  }
  if (stage === 'context' && hs.stage !== 'IDENTITY') {
    return refuse(
      result,
      'STAGE_ORDER',
      `the handshake for ${token} is at stage ${hs.stage}: the context stage already passed`,
      `Submit the proof: --stage proof --token ${token}.`,
    );
  }
  if (stage === 'proof' && hs.stage !== 'CONTEXT') {
    return refuse(
      result,
      'STAGE_ORDER',
      `the handshake for ${token} is at stage ${hs.stage}: the proof comes after the context stage`,
      `Submit the BIND section first: --stage context --token ${token}.`,
    );
  }
  return null;
}

/**
 * The TERMINAL refusal when the session's handshake is terminal or its role is locked in this worktree
 * (src/records/terminal.ts); null when it is not. Only `hestai anchor reset` lifts it.
 */
export function terminalRefusal(
  result: AnchorHandshakeResult,
  paths: WorkspacePaths,
  token: string,
  role: string | null,
): AnchorHandshakeResult | null {
  const state = terminalState(paths, token, role);
  if (state === null) return null;
  const what =
    state.source === 'handshake' || state.session_id === token
      ? `the handshake for ${token} is terminal after ${MAX_RETRIES + 1} failed ${state.stage ?? ''} submissions`
      : state.session_id === null
        ? `role "${state.role}" is locked in this worktree (${state.file} is unreadable)`
        : `role "${state.role}" is locked in this worktree: the handshake of session ${state.session_id} went terminal at ${state.at} (${state.file})`;
  return {
    ...refuse(
      result,
      'TERMINAL',
      what,
      `A human must review it and run "hestai anchor reset --token ${token} --reason ..." (audited) to reopen it; clocking in again does not.`,
    ),
    terminal: true,
    retries_left: 0,
  };
}

/** Counts a failed submission in the pending state; the third failure of a stage makes it terminal. */
export function recordFailure(
  paths: WorkspacePaths,
  hs: HandshakeRecord,
  stage: RetryStage,
  now: Date,
): { failures: number; terminal: boolean } {
  const failures = hs.retries[stage] + 1;
  const terminal = failures > MAX_RETRIES;
  writeHandshake(paths, {
    ...hs,
    retries: { ...hs.retries, [stage]: failures },
    terminal,
    terminal_stage: terminal ? stage : null,
    updated_at: now.toISOString(),
  });
  if (terminal) {
    // Durable: the role stays locked in this worktree even if the pending directory goes or the role clocks in again.
    writeTerminalLock(paths, {
      version: 1,
      role: hs.role,
      session_id: hs.token,
      stage,
      failures,
      at: now.toISOString(),
    });
    appendAudit(paths, {
      event: 'anchor_terminal',
      session_id: hs.token,
      role: hs.role,
      stage,
      failures,
      at: now.toISOString(),
      lock: relativeToRoot(paths, terminalLockFile(paths, hs.role)),
    });
  }
  return { failures, terminal };
}

function failed(
  result: AnchorHandshakeResult,
  v: VectorValidation,
  retry: { failures: number; terminal: boolean } | null,
  resubmit: string,
): AnchorHandshakeResult {
  const left = retry === null ? null : retry.terminal ? 0 : MAX_RETRIES + 1 - retry.failures;
  return {
    ...result,
    success: false,
    errors: v.errors,
    warnings: v.warnings,
    guidance: guidanceFor(v, retry ?? undefined),
    template: v.templates.map((t) => t.text).join('\n'),
    terminal: retry?.terminal ?? false,
    retries_left: left,
    next_step: retry?.terminal
      ? `Terminal: a human must run "hestai anchor reset --token ${result.token}".`
      : `Fix the errors and resubmit: ${resubmit}${left === null ? '' : ` (${left} ${left === 1 ? 'retry' : 'retries'} left)`}.`,
  };
}

async function identity(input: AnchorInput, deps: AnchorDeps): Promise<AnchorHandshakeResult> {
  const given = input.role === undefined || input.role === '' ? null : input.role;
  const explicitToken = input.token === undefined || input.token === '' ? null : parseToken(input.token);
  const missingRole = () =>
    usageError('role is required for the identity stage', {
      code: 'ROLE_MISSING',
      remedy: 'Pass --role R, e.g. --role implementation-lead.',
    });
  if (given === null && explicitToken === null) throw missingRole();
  const mode = parseMode(input.mode ?? 'full');
  const topic = parseTopic(input.topic);
  const ctx = await context(input.working_dir, deps);
  // With a session named and no role, the session's own role (the renewal remedies print only the token).
  const named = given ?? readSession(ctx.paths, explicitToken!)?.role;
  if (named === undefined) throw missingRole();
  const role = assertRoleName(named);
  const strictness = input.strictness === undefined ? ctx.defaultStrictness : parseStrictness(input.strictness);
  const result = baseResult('identity', mode, strictness, null);
  const { constitution, warnings, note } = constitutionFor(ctx, role, explicitToken);
  if (constitution === null) return noConstitution(result, ctx.paths, role, ctx.constitutions);
  const withConstitution: AnchorHandshakeResult = {
    ...result,
    warnings,
    constitution_path: constitution.relative,
    constitution_excerpt: mode === 'lite' ? null : constitutionExcerpt(constitution.text),
    template: bindTemplate(role),
  };
  if (mode === 'untracked') {
    return {
      ...withConstitution,
      success: true,
      next_step: `Untracked: nothing was written and nothing will be unlocked. Read the constitution at ${constitution.relative}, then submit the BIND section with --stage context --mode untracked --role ${role}.`,
      guidance: `Identity accepted (untracked).${note}`,
    };
  }
  // CI re-checks an anchor at the commit its proof record names (HEAD at the proof stage): a constitution
  // that is only in the worktree makes an anchor that every local hook accepts and CI rejects.
  const uncommitted =
    warnings.length === 0 ? await constitutionNotCommitted(ctx.paths.root, constitution.relative) : null;
  if (uncommitted) return refuse({ ...withConstitution, token: explicitToken }, ...uncommitted);
  let token: string;
  if (explicitToken !== null) {
    const problem = sessionProblem(readSession(ctx.paths, explicitToken), explicitToken, role);
    if (problem) return refuse({ ...withConstitution, token: explicitToken }, ...problem);
    token = explicitToken;
  } else {
    // A locked role is refused before a new session is made for it (clocking in again does not lift the lock).
    const lock = readTerminalLock(ctx.paths, role);
    if (lock !== null) {
      return {
        ...refuse(
          withConstitution,
          'TERMINAL',
          `role "${role}" is locked in this worktree: the handshake of session ${lock.session_id} went terminal at ${lock.at}`,
          `A human must review it and run "hestai anchor reset --token ${lock.session_id} --reason ..." (audited) to reopen it; clocking in again does not.`,
        ),
        terminal: true,
        retries_left: 0,
      };
    }
    // CI-I1: every session starts with clock_in, run through the caller's port.
    if (deps.clockIn === undefined) {
      throw usageError('the identity stage needs a session: clock in first and pass its session_id as the token', {
        code: 'TOKEN_REQUIRED',
        remedy: 'Run clock_in (hestai clock-in --role R), then the identity stage with its session_id as the token.',
      });
    }
    const clocked = await deps.clockIn(
      {
        working_dir: ctx.paths.root,
        role,
        ...(topic === null ? {} : { focus: topic }),
        ...(deps.pinned ? { pinned: true } : {}),
      },
      { ...(deps.clock ? { clock: deps.clock } : {}), ...(deps.env ? { env: deps.env } : {}) },
    );
    token = clocked.session_id;
  }
  return withHandshakeLock(ctx.paths, token, () => {
    const read = readHandshake(ctx.paths, token);
    const tokened = { ...withConstitution, token };
    const locked = terminalRefusal(tokened, ctx.paths, token, role);
    if (locked) return locked;
    // A renewal starts at the handshake's own time: a clock set backwards cannot make it last longer.
    const seen = read === null ? null : observeHandshake(ctx.paths, read, ctx.now);
    const existing = seen?.hs ?? null;
    const start = seen?.at ?? handshakeTime(ctx.paths, token, null, ctx.now);
    const now = start.toISOString();
    writeHandshake(ctx.paths, {
      version: 1,
      token,
      stage: 'IDENTITY',
      role,
      working_dir: ctx.paths.root,
      mode,
      strictness,
      topic,
      constitution_path: constitution.relative,
      created_at: now,
      updated_at: now,
      expires_at: new Date(start.getTime() + ctx.ttlMinutes * 60_000).toISOString(),
      server_arm: null,
      bind: null,
      retries: existing?.retries ?? { context: 0, proof: 0, vector: 0 },
      terminal: false,
      terminal_stage: null,
      seen_at: now,
      seen_real_at: new Date().toISOString(),
    });
    return {
      ...tokened,
      success: true,
      guidance: `Identity accepted for ${role}.${note} Read the constitution, then prove you extracted your identity: submit the BIND section.`,
      next_step: `Read ${constitution.relative}, then submit the BIND section: hestai anchor --stage context --token ${token} --payload-file FILE (template below). The handshake expires in ${ctx.ttlMinutes} minutes.`,
    };
  });
}

function untrackedRole(input: AnchorInput): string {
  if (input.role === undefined || input.role === '') {
    throw usageError('untracked mode keeps no state: pass the role with the payload', {
      code: 'ROLE_MISSING',
      remedy: 'Pass --role R (and --strictness) with --mode untracked.',
    });
  }
  return assertRoleName(input.role);
}

/** A pending handshake a stage runs on (its time observed) and the stage's base result. */
type Pending = { ctx: Ctx; token: string; hs: HandshakeRecord; result: AnchorHandshakeResult };

/** Runs a context or proof stage on the token's pending handshake, under its lock; `gate` refuses one that cannot take it now. */
async function pendingStage(
  input: AnchorInput,
  deps: AnchorDeps,
  stage: 'context' | 'proof',
  run: (pending: Pending) => Promise<AnchorHandshakeResult>,
): Promise<AnchorHandshakeResult> {
  const token = parseToken(input.token);
  const ctx = await context(input.working_dir, deps);
  return withHandshakeLock(ctx.paths, token, async () => {
    const read = readHandshake(ctx.paths, token);
    const seen = read === null ? null : observeHandshake(ctx.paths, read, ctx.now);
    const hs = seen?.hs ?? null;
    const result = baseResult(stage, hs?.mode ?? 'full', hs?.strictness ?? ctx.defaultStrictness, token);
    const refused = gate(result, ctx.paths, token, hs, stage, seen?.at ?? ctx.now);
    if (refused || hs === null) return refused!;
    return run({ ctx, token, hs, result });
  });
}

async function contextStage(input: AnchorInput, deps: AnchorDeps): Promise<AnchorHandshakeResult> {
  const payload = parsePayload(input.payload, 'the context payload (## BIND)');
  const untracked = input.mode !== undefined && parseMode(input.mode) === 'untracked';
  if (untracked) {
    const role = untrackedRole(input);
    const ctx = await context(input.working_dir, deps);
    const strictness = input.strictness === undefined ? ctx.defaultStrictness : parseStrictness(input.strictness);
    const result = { ...baseResult('context', 'untracked', strictness, null) };
    const { constitution, warnings } = constitutionFor(ctx, role, null);
    if (constitution === null) return noConstitution(result, ctx.paths, role, ctx.constitutions);
    result.warnings = warnings;
    const v = validateVector(payload, {
      part: 'bind',
      role,
      strictness,
      probe: makeCtxProbe(ctx.paths.root),
      cognition: constitution.cognition,
      sessions: sessionLookup(ctx.paths),
    });
    if (!v.ok)
      return failed(
        { ...result, constitution_path: constitution.relative },
        v,
        null,
        `--stage context --mode untracked --role ${role}`,
      );
    const arm = await computeServerArm(ctx.paths, parseTopic(input.topic) ?? 'general');
    return {
      ...result,
      success: true,
      constitution_path: constitution.relative,
      server_arm: renderArm(arm),
      template: proofTemplate(MIN_TENSIONS[strictness]),
      guidance: 'BIND accepted (untracked: not persisted).',
      next_step: `Untracked: submit TENSION and COMMIT with --stage proof --mode untracked --role ${role} --strictness ${strictness}; nothing will be unlocked.`,
    };
  }
  return pendingStage(input, deps, 'context', async ({ ctx, token, hs, result }) => {
    const constitution: Constitution | null = readConstitution(ctx.paths, hs.role);
    const withPath = { ...result, constitution_path: hs.constitution_path };
    const v = validateVector(payload, {
      part: 'bind',
      role: hs.role,
      strictness: hs.strictness,
      probe: makeCtxProbe(ctx.paths.root),
      cognition: constitution?.cognition ?? null,
      sessions: sessionLookup(ctx.paths),
      sessionId: token,
    });
    if (!v.ok)
      return failed(withPath, v, recordFailure(ctx.paths, hs, 'context', ctx.now), `--stage context --token ${token}`);
    const session = readSession(ctx.paths, token);
    const problem = sessionProblem(session, token, null);
    if (problem || session === null) return refuse(withPath, ...problem!);
    const arm = await computeServerArm(ctx.paths, session.focus);
    writeHandshake(ctx.paths, {
      ...hs,
      stage: 'CONTEXT',
      server_arm: arm,
      bind: v.bind,
      updated_at: ctx.now.toISOString(),
    });
    const min = MIN_TENSIONS[hs.strictness];
    return {
      ...withPath,
      success: true,
      server_arm: renderArm(arm),
      template: proofTemplate(min),
      guidance:
        'BIND accepted. The ARM below is the server-authoritative context; your tensions must cite real files in this worktree.',
      next_step: `Submit ${min}+ TENSION line${min > 1 ? 's' : ''} citing real files${hs.strictness === 'deep' ? ' with line ranges' : ''}, and COMMIT: hestai anchor --stage proof --token ${token} --payload-file FILE.`,
    };
  });
}

async function proofStage(input: AnchorInput, deps: AnchorDeps): Promise<AnchorHandshakeResult> {
  const payload = parsePayload(input.payload, 'the proof payload (## TENSION and ## COMMIT)');
  const untracked = input.mode !== undefined && parseMode(input.mode) === 'untracked';
  if (untracked) {
    const role = untrackedRole(input);
    const ctx = await context(input.working_dir, deps);
    const strictness = input.strictness === undefined ? ctx.defaultStrictness : parseStrictness(input.strictness);
    const result = baseResult('proof', 'untracked', strictness, null);
    const v = validateVector(payload, { part: 'proof', role, strictness, probe: makeCtxProbe(ctx.paths.root) });
    if (!v.ok) return failed(result, v, null, `--stage proof --mode untracked --role ${role}`);
    return {
      ...result,
      success: true,
      guidance: 'Proof valid (untracked): no anchor was written and nothing is unlocked.',
      next_step: 'Untracked: to unlock commits, run the handshake in full or lite mode.',
    };
  }
  return pendingStage(input, deps, 'proof', async ({ ctx, token, hs, result }) => {
    const withPath = {
      ...result,
      constitution_path: hs.constitution_path,
      server_arm: hs.server_arm ? renderArm(hs.server_arm) : null,
    };
    const v = validateVector(payload, {
      part: 'proof',
      role: hs.role,
      strictness: hs.strictness,
      probe: makeCtxProbe(ctx.paths.root),
    });
    if (!v.ok)
      return failed(withPath, v, recordFailure(ctx.paths, hs, 'proof', ctx.now), `--stage proof --token ${token}`);
    const problem = sessionProblem(readSession(ctx.paths, token), token, null);
    if (problem) return refuse(withPath, ...problem);
    if (hs.bind === null || hs.server_arm === null) {
      return refuse(
        withPath,
        'STAGE_ORDER',
        `the handshake for ${token} has no validated BIND`,
        `Run "hestai anchor --stage identity --token ${token}", then the context stage again.`,
      );
    }
    const validatedAt = ctx.now.toISOString();
    const canonical = renderCanonicalAnchor(hs.bind, hs.server_arm, v.tensions!, v.commit!);
    const { permit } = await promoteAnchor(
      ctx.paths,
      {
        version: 1,
        token,
        validated: true,
        role: hs.role,
        mode: hs.mode,
        tier: hs.strictness,
        source: 'anchor',
        validated_at: validatedAt,
        arm: hs.server_arm,
        canonical_anchor: canonical,
      },
      hs,
      validatedAt,
    );
    return {
      ...withPath,
      success: true,
      anchor: canonical,
      work_permit: permit,
      guidance: 'Canonical Anchor Accepted.',
      next_step: `Bound: ${permit.anchor_file} is in place; commits and privileged tools are unlocked for session ${token}.`,
    };
  });
}

/** The staged Odyssean Anchor handshake (seed 001). Usage errors throw (exit 2); refusals and validation failures are results. */
export async function anchor(input: AnchorInput, deps: AnchorDeps = {}): Promise<AnchorHandshakeResult> {
  const stage = parseStage(input.stage);
  if (stage === 'identity') return identity(input, deps);
  if (stage === 'context') return contextStage(input, deps);
  return proofStage(input, deps);
}
