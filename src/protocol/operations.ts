import type { Clock } from '../clock.js';
import { loadConfig } from '../config/load.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { blockedError, usageError } from '../errors.js';
import { askAsync } from '../git/async.js';
import { CURRENT_BRANCH, HEAD_COMMIT, resolveCommitQuestion } from '../git/repo.js';
import { rangeFactsAsync, workTreeFilesAsync } from '../git/snapshot.js';
import type { WorkspacePaths } from '../paths.js';
import { isLive, readSession, type SessionRecord } from '../records/session.js';
import { requireSessionChoice } from '../records/resolve.js';
import { readTextIfExists } from '../state/store.js';
import { publishProtocolRun } from '../records/proof-publish.js';
import { PROTOCOL_RUN_KIND, type ProtocolRunCommand, type ProtocolRunRecord } from '../records/protocol-record.js';
import { sha256Hex } from '../util/sha256.js';
import { resolveWorkspace, resolveWorkspaceAsync, type Workspace } from '../workspace.js';
import { evaluateGate, type GateResult, type GateStatus } from './evaluate.js';
import type { EvidenceRecord } from './evidence.js';
import { gatherFacts, takeBaseline, type GatherInput } from './facts.js';
import { protocolFromText, requireProtocol } from './load.js';
import { planPassedRecheck } from './rederive.js';
import {
  applyAdvance,
  blockedReason,
  blockedUntil,
  buildChecklist,
  decideAdvance,
  phasesToPass,
  unmet,
  type BlockedReason,
  type Checklist,
} from './machine.js';
import { suggestAction, type Surface } from './remedy.js';
import {
  appendHistory,
  appendViolations,
  readHistory,
  protocolFiles,
  readProtocolState,
  readViolations,
  updateProtocolState,
  type HistoryRecord,
  type ProtocolState,
  type RunOutcome,
  type Violation,
} from './store.js';
import { remedyContextFor } from './trust.js';
import {
  acceptedEvidence,
  COMPLETE,
  EVIDENCE_TYPES,
  gateKey,
  LEVELS,
  type EvidenceType,
  type Gate,
  type Level,
  type Phase,
  type Protocol,
} from './types.js';

/**
 * The session protocol's operations (seed 004), one library API shared by the CLI and the MCP tools.
 * Plan, then apply: facts are gathered (git, files, records), the pure rules decide, and the state is
 * written under the session's lock (re-read inside it, so concurrent agents never lose a write).
 */
/** The bounds of a run's lists and texts (docs/protocol.md): a larger input is an error, never truncated. */
export const RUN_LIMITS = { key_decisions: 20, text: 1000, summary: 8000, evidence_records: 200 } as const;

function tooLarge(what: string, limit: string, remedy: string) {
  return usageError(`${what} exceeds its limit (${limit}); nothing was written`, { code: 'LIMIT_EXCEEDED', remedy });
}

export interface ProtocolDeps {
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** How remedies call hestai in a worktree (the adapter's `hestaiCommand`); `hestai` when absent. */
  cli?: ((root: string) => string) | undefined;
}

/** What the remedies of this run need: the session, its worktree and how this project calls hestai. */
const remedyContext = (run: Base, deps: ProtocolDeps) =>
  remedyContextFor(run.paths, run.session, deps.env, deps.cli?.(run.paths.root));

interface Base {
  paths: WorkspacePaths;
  config: WorkspaceConfig;
  session: SessionRecord;
}

interface Run extends Base {
  /** The protocol the run started with (sealed in the run file), never a later edit of protocol.yaml. */
  protocol: Protocol;
  /** Set when protocol.yaml no longer is the version the run started with: says so (reported, never applied). */
  changed: string | null;
}

async function open(working_dir: string, session_id: string | undefined, env: NodeJS.ProcessEnv): Promise<Base> {
  const { paths, root } = await resolveWorkspaceAsync(working_dir);
  const { config } = await loadConfig(root);
  // The one session rule (src/session/resolve.ts): explicit, else HESTAI_SESSION, else the only live one;
  // none or several is an error listing the candidates. The MCP tools pass the connection's choice.
  const id = requireSessionChoice(paths, { explicit: session_id, env, surface: 'cli' }).session_id;
  const session = readSession(paths, id);
  if (session === null || !isLive(session)) {
    throw usageError(`session ${id} is not an active session of this worktree`, {
      code: 'NO_SESSION',
      remedy: 'Clock in (hestai clock-in --role <role>; MCP: clock_in) and pass the session_id it returns.',
    });
  }
  return { paths, config, session };
}

/**
 * The session's run and the protocol it is judged by: the text sealed in the run file at its start (its
 * sha256 checked when the file is read), never protocol.yaml as it is now; a changed file is reported.
 */
async function openRun(
  working_dir: string,
  session_id: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ run: Run; state: ProtocolState }> {
  const base = await open(working_dir, session_id, env);
  const state = requireState(base);
  const file = `${protocolFiles(base.paths).state(state.session_id)} (protocol_text)`;
  const sealed = await protocolFromText(state.protocol_text, file);
  const now = readTextIfExists(base.paths.protocol);
  const changed =
    now !== null && sha256Hex(now) === state.protocol_sha256
      ? null
      : `${base.paths.protocol} ${now === null ? 'was removed' : 'changed'} since the run started: the run is judged by the version it started with (sha256 ${state.protocol_sha256.slice(0, 12)}…)`;
  return { run: { ...base, protocol: sealed.protocol, changed }, state };
}

function requireState(run: Base): ProtocolState {
  const state = readProtocolState(run.paths, run.session.session_id);
  if (state === null) {
    throw usageError(`session ${run.session.session_id} has no protocol run`, {
      code: 'PROTOCOL_NOT_STARTED',
      remedy: 'Start it: hestai session start --objective "..." (MCP: session_start).',
    });
  }
  return state;
}

function findPhase(protocol: Protocol, id: string): Phase {
  const phase = protocol.phases.find((p) => p.id === id);
  if (!phase) {
    throw usageError(`unknown phase ${JSON.stringify(id)}`, {
      code: 'PHASE_UNKNOWN',
      remedy: `Pass one of the protocol's phases: ${protocol.phases.map((p) => p.id).join(', ')}.`,
    });
  }
  return phase;
}

function findGate(phase: Phase, id: string): Gate {
  const gate = phase.gates.find((g) => g.id === id);
  if (!gate) {
    throw usageError(`phase ${phase.id} has no step ${JSON.stringify(id)}`, {
      code: 'STEP_UNKNOWN',
      remedy:
        phase.gates.length > 0
          ? `Pass one of its steps: ${phase.gates.map((g) => g.id).join(', ')}.`
          : `Phase ${phase.id} has no gates.`,
    });
  }
  return gate;
}

type PhaseGate = { phase: string; gate: Gate };

/** The phases not yet passed: the current one and every later one (none once COMPLETE). */
function remainingPhases(protocol: Protocol, state: ProtocolState): Phase[] {
  const from = protocol.phases.findIndex((p) => p.id === state.current_phase);
  if (state.current_phase === COMPLETE) return [];
  return from < 0 ? protocol.phases : protocol.phases.slice(from);
}

/**
 * Results of the phases already passed, as recorded when they were passed (for display only: advance
 * and end never trust recorded results; a forced skip is in the violations).
 */
function passedResults(protocol: Protocol, state: ProtocolState, remaining: readonly Phase[]): GateResult[] {
  const left = new Set(remaining.map((p) => p.id));
  return protocol.phases
    .filter((p) => !left.has(p.id))
    .flatMap((p) =>
      p.gates.map((g): GateResult => {
        const r = state.results[gateKey(p.id, g.id)];
        return {
          phase: p.id,
          gate: g.id,
          step: g.step,
          requirement_level: g.level,
          blocking: g.blocking,
          status: r?.status ?? 'PENDING',
          evidence: r?.evidence ?? null,
          message: r?.message ?? 'not recorded',
        };
      }),
    );
}
const gatesOf = (phases: readonly Phase[]): PhaseGate[] =>
  phases.flatMap((p) => p.gates.map((gate) => ({ phase: p.id, gate })));

type FactsState = Pick<
  ProtocolState,
  'session_id' | 'started_at' | 'starting_commit' | 'evidence' | 'results' | 'baseline'
>;

/** What {@link gatherFacts} needs for `gates` of the run in `state` (git facts from git on every run). */
function factsInput(
  run: { paths: WorkspacePaths; config: WorkspaceConfig },
  state: FactsState,
  gates: readonly PhaseGate[],
  deps: ProtocolDeps,
  options: { runCommands: boolean },
): GatherInput {
  return {
    paths: run.paths,
    config: run.config,
    env: deps.env,
    now: deps.clock(),
    session_id: state.session_id,
    started_at: state.started_at,
    starting_commit: state.starting_commit,
    gates,
    evidence: state.evidence,
    runCommands: options.runCommands,
    recorded: state.results,
    baseline: state.baseline,
  };
}

/** Gathers the facts for `gates` and evaluates each (pure rules over the facts and the recorded evidence). */
export async function evaluateGates(
  run: { paths: WorkspacePaths; config: WorkspaceConfig },
  state: FactsState,
  gates: readonly PhaseGate[],
  deps: ProtocolDeps,
  options: { runCommands: boolean; preCommit?: boolean },
): Promise<GateResult[]> {
  const facts = await gatherFacts(factsInput(run, state, gates, deps, options));
  return gates.map(({ phase, gate }) =>
    evaluateGate(phase, gate, facts, state.evidence, { preCommit: options.preCommit ?? false }),
  );
}

/** Whether `state` already records each of `results` (status, message and evidence). */
function alreadyRecorded(state: ProtocolState, results: readonly GateResult[]): boolean {
  return results.every((r) => {
    const recorded = state.results[gateKey(r.phase, r.gate)];
    return (
      recorded !== undefined &&
      recorded.status === r.status &&
      recorded.message === r.message &&
      recorded.evidence === r.evidence
    );
  });
}

/** `results` written into `state`'s recorded results, each checked at `at`. */
function withResults(state: ProtocolState, results: readonly GateResult[], at: string): ProtocolState {
  const next = { ...state.results };
  for (const r of results)
    next[gateKey(r.phase, r.gate)] = { status: r.status, message: r.message, evidence: r.evidence, checked_at: at };
  return { ...state, results: next };
}

/**
 * Records the results of a check. A result the state already holds is not written again (no lock, no
 * write: a repeated check that changes nothing costs a read), so `checked_at` is when the gate last got
 * this result; `state` is the run as read before the check.
 */
async function recordResults(
  run: Run,
  results: readonly GateResult[],
  at: string,
  state: ProtocolState | null,
): Promise<void> {
  if (state !== null && alreadyRecorded(state, results)) return;
  await updateProtocolState(run.paths, run.session.session_id, (current) => {
    if (current === null || alreadyRecorded(current, results)) return { result: undefined };
    return { state: withResults(current, results, at), result: undefined };
  });
}

// ---------------------------------------------------------------------------------------------------
// session_start

export interface SessionStartResult {
  /** The clock-in session id (a UUID; the seed's "2025-12-21-session-01" has no meaning here). */
  session_id: string;
  /** The first phase of the protocol (the seed's INIT). */
  phase: string;
  blocked_until: string[];
  checklist: Checklist;
  objective: string;
  branch: string | null;
  starting_commit: string | null;
  started_at: string;
}

export async function sessionStart(
  input: {
    working_dir: string;
    session_id?: string | undefined;
    objective: string;
    branch?: string | undefined;
    starting_commit?: string | undefined;
  },
  deps: ProtocolDeps,
): Promise<SessionStartResult> {
  const objective = input.objective?.trim() ?? '';
  if (objective === '')
    throw usageError('the objective is empty', {
      code: 'OBJECTIVE_MISSING',
      remedy: 'Say what the session is for: --objective "..." (MCP: objective).',
    });
  const base = await open(input.working_dir, input.session_id, deps.env);
  const loaded = await requireProtocol(base.paths);
  const run: Run = { ...base, protocol: loaded.protocol, changed: null };
  const root = run.paths.root;
  let starting_commit = run.session.starting_commit ?? (await askAsync(root, HEAD_COMMIT));
  if (input.starting_commit !== undefined) {
    starting_commit = await askAsync(root, resolveCommitQuestion(input.starting_commit));
    if (starting_commit === null)
      throw usageError(`starting_commit ${input.starting_commit} is not a commit`, {
        code: 'COMMIT_UNKNOWN',
        remedy: 'Pass an existing commit, or omit it (the clock-in HEAD is used).',
      });
  }
  const now = deps.clock().toISOString();
  const watched = run.protocol.phases.flatMap((p) =>
    p.gates.flatMap((g) => (g.check.type === 'file_modified_since_start' ? [g.check.path] : [])),
  );
  const fresh: ProtocolState = {
    version: 1,
    session_id: run.session.session_id,
    objective,
    branch: input.branch ?? (await askAsync(root, CURRENT_BRANCH)),
    starting_commit,
    started_at: now,
    protocol_sha256: loaded.sha256,
    protocol_text: loaded.text,
    events: [{ type: 'start', at: now, phase: run.protocol.phases[0]!.id }],
    current_phase: run.protocol.phases[0]!.id,
    phases_completed: [],
    results: {},
    evidence: [],
    forced_advances: 0,
    violations: [],
    baseline: takeBaseline(root, watched, watched.length === 0 ? [] : await workTreeFilesAsync(root)),
  };
  const created = await updateProtocolState(run.paths, fresh.session_id, (existing) =>
    existing === null ? { state: fresh, result: true } : { result: false },
  );
  if (!created) {
    throw blockedError(
      `session ${fresh.session_id} already has a protocol run (one run per session); nothing was changed`,
      {
        code: 'PROTOCOL_ALREADY_STARTED',
        remedy:
          'Continue it (hestai session show; MCP: read session://state), or end it (hestai session end) and clock in a new session.',
      },
    );
  }
  const results = await evaluateGates(run, fresh, gatesOf(run.protocol.phases), deps, { runCommands: false });
  return {
    session_id: fresh.session_id,
    phase: fresh.current_phase,
    blocked_until: blockedUntil(run.protocol, results),
    checklist: buildChecklist(run.protocol, results),
    objective,
    branch: fresh.branch,
    starting_commit,
    started_at: now,
  };
}

// ---------------------------------------------------------------------------------------------------
// validate_gate

export interface ValidateGateResult {
  phase: string;
  /** The step (gate id) when one was asked for. */
  step?: string;
  requirement_level: Level;
  status: 'PASS' | 'FAIL' | 'SKIPPED';
  evidence: string | null;
  blocking: boolean;
  message: string;
  gates: GateResult[];
}

const strongest = (levels: readonly Level[]): Level => LEVELS.find((l) => levels.includes(l)) ?? 'MAY';

/** Pure: the phase verdict from its gates' results (FAIL when a blocking or MUST gate is unmet). */
export function phaseVerdict(
  phase: string,
  results: readonly GateResult[],
): Omit<ValidateGateResult, 'gates' | 'step'> {
  if (results.length === 0)
    return {
      phase,
      requirement_level: 'MAY',
      status: 'SKIPPED',
      evidence: null,
      blocking: false,
      message: `phase ${phase} has no gates`,
    };
  const failing = results.filter((r) => unmet(r) && (r.blocking || r.requirement_level === 'MUST'));
  const soft = results.filter((r) => unmet(r) && !(r.blocking || r.requirement_level === 'MUST'));
  const status: ValidateGateResult['status'] =
    failing.length > 0 ? 'FAIL' : results.every((r) => r.status === 'SKIPPED') ? 'SKIPPED' : 'PASS';
  const message =
    failing.length > 0
      ? `${failing.length} required gate(s) unmet: ${failing.map((r) => `${r.gate} (${r.message})`).join('; ')}`
      : `${results.filter((r) => r.status === 'PASS').length} of ${results.length} gate(s) pass${soft.length ? `; optional unmet: ${soft.map((r) => r.gate).join(', ')}` : ''}`;
  return {
    phase,
    requirement_level: strongest(results.map((r) => r.requirement_level)),
    status,
    evidence: results.find((r) => r.status === 'PASS' && r.evidence !== null)?.evidence ?? null,
    blocking: results.some((r) => r.blocking),
    message,
  };
}

export async function validateGate(
  input: { working_dir: string; session_id?: string | undefined; phase: string; step?: string | undefined },
  deps: ProtocolDeps,
): Promise<ValidateGateResult> {
  const { run, state } = await openRun(input.working_dir, input.session_id, deps.env);
  const phase = findPhase(run.protocol, input.phase);
  const gates = input.step !== undefined ? [{ phase: phase.id, gate: findGate(phase, input.step) }] : gatesOf([phase]);
  const results = await evaluateGates(run, state, gates, deps, { runCommands: true });
  await recordResults(run, results, deps.clock().toISOString(), state);
  if (input.step !== undefined) {
    const r = results[0]!;
    const status = r.status === 'PENDING' ? 'FAIL' : r.status;
    return {
      phase: phase.id,
      step: r.gate,
      requirement_level: r.requirement_level,
      status,
      evidence: r.evidence,
      blocking: r.blocking,
      message: r.message,
      gates: results,
    };
  }
  return { ...phaseVerdict(phase.id, results), gates: results };
}

// ---------------------------------------------------------------------------------------------------
// advance_phase

export interface AdvancePhaseResult {
  previous_phase: string;
  current_phase: string;
  success: boolean;
  blocked_by?: string[];
  /** When refused: the call (MCP) or command (CLI) that fixes each gate in blocked_by, in order. */
  suggested_actions?: string[];
  /** With force: what was skipped (one line per requirement; also in the violations log). */
  violations?: string[];
  warnings: string[];
  message: string;
}

export async function advancePhase(
  input: {
    working_dir: string;
    session_id?: string | undefined;
    target_phase?: string | undefined;
    force?: boolean | undefined;
    /** Who asked: the remedies of a refused advance are worded for it (default cli). */
    surface?: Surface | undefined;
  },
  deps: ProtocolDeps,
): Promise<AdvancePhaseResult> {
  const { run, state } = await openRun(input.working_dir, input.session_id, deps.env);
  const plan = phasesToPass(run.protocol, state.current_phase, input.target_phase);
  if (!plan.ok)
    throw usageError(`cannot advance: ${plan.reason}`, {
      code: 'ADVANCE_INVALID',
      remedy: 'See the phases: hestai session show (MCP: session://state).',
    });
  const results = await evaluateGates(run, state, gatesOf(plan.phases), deps, { runCommands: true });
  const now = deps.clock().toISOString();
  const ctx = remedyContext(run, deps);
  const fix = (r: GateResult, surface: Surface) => {
    const phase = run.protocol.phases.find((p) => p.id === r.phase)!;
    return suggestAction(
      r.phase,
      phase.gates.find((g) => g.id === r.gate)!,
      surface,
      ctx,
    );
  };
  const recovery = (r: GateResult) => fix(r, 'cli');
  const outcome = await updateProtocolState(run.paths, state.session_id, (current) => {
    if (current === null || current.current_phase !== state.current_phase) {
      throw blockedError('the protocol run changed while the gates were checked (another agent advanced or ended it)', {
        code: 'PROTOCOL_CONFLICT',
        remedy: 'Read the state again (hestai session show; MCP: session://state) and retry.',
      });
    }
    const decision = decideAdvance({
      state: current,
      phases: plan.phases,
      target: plan.target,
      results,
      force: input.force === true,
      forceLimit: run.config.protocol.force_limit,
      now,
      recovery,
    });
    const recorded = withResults(current, results, now);
    const next = decision.success ? applyAdvance(recorded, decision, plan.phases) : recorded;
    return { state: next, result: decision };
  });
  if (outcome.violations.length > 0) appendViolations(run.paths, outcome.violations);
  const result: AdvancePhaseResult = {
    previous_phase: outcome.previous_phase,
    current_phase: outcome.current_phase,
    success: outcome.success,
    warnings: run.changed === null ? outcome.warnings : [run.changed, ...outcome.warnings],
    message: outcome.refused
      ? outcome.refused
      : outcome.success
        ? `advanced from ${outcome.previous_phase} to ${outcome.current_phase}${outcome.violations.length ? ` by force, skipping ${outcome.violations.length} requirement(s) (recorded as violations)` : ''}`
        : `blocked by ${outcome.blocked_by.join(', ')}`,
  };
  if (outcome.blocked_by.length > 0) result.blocked_by = outcome.blocked_by;
  if (!outcome.success) {
    // A refused advance names the call that fixes each gate that refused it.
    const surface = input.surface ?? 'cli';
    result.suggested_actions = results
      .filter((r) => outcome.blocked_by.includes(gateKey(r.phase, r.gate)))
      .map((r) => fix(r, surface));
    if (result.suggested_actions.length > 0) result.message += `; fix: ${result.suggested_actions.join(' | ')}`;
  }
  if (outcome.violations.length > 0) result.violations = outcome.violations.map((v) => v.requirement);
  return result;
}

// ---------------------------------------------------------------------------------------------------
// record_evidence

export interface RecordEvidenceResult {
  phase: string;
  step: string;
  evidence_recorded: boolean;
  auto_validated: boolean;
  gate_status: 'PASS' | 'FAIL' | 'PENDING';
  message: string;
}

function pickStep(phase: Phase, type: EvidenceType, step: string | undefined): Gate {
  if (step !== undefined) return findGate(phase, step);
  const accepting = phase.gates.filter((g) => acceptedEvidence(g.check).includes(type));
  if (accepting.length === 1) return accepting[0]!;
  if (accepting.length === 0 && phase.gates.length === 1) return phase.gates[0]!;
  throw usageError(
    `name the step: phase ${phase.id} has ${accepting.length === 0 ? 'no gate accepting' : 'several gates accepting'} ${type} evidence`,
    {
      code: 'STEP_AMBIGUOUS',
      remedy: `Pass --step (MCP: step), one of: ${phase.gates.map((g) => g.id).join(', ')}.`,
    },
  );
}

export async function recordEvidence(
  input: {
    working_dir: string;
    session_id?: string | undefined;
    phase: string;
    evidence_type: string;
    evidence: string;
    step?: string | undefined;
  },
  deps: ProtocolDeps,
): Promise<RecordEvidenceResult> {
  if (!(EVIDENCE_TYPES as readonly string[]).includes(input.evidence_type)) {
    throw usageError(`unknown evidence type ${JSON.stringify(input.evidence_type)}`, {
      code: 'EVIDENCE_TYPE',
      remedy: `Use one of: ${EVIDENCE_TYPES.join(', ')}.`,
    });
  }
  if (typeof input.evidence !== 'string' || input.evidence.trim() === '' || input.evidence.length > 10_000) {
    throw usageError('the evidence is empty or longer than 10,000 characters', {
      code: 'EVIDENCE_INVALID',
      remedy: 'Record what you observed: a tool output excerpt, a path, a sha or a content hash.',
    });
  }
  const type = input.evidence_type as EvidenceType;
  const { run, state: before } = await openRun(input.working_dir, input.session_id, deps.env);
  const phase = findPhase(run.protocol, input.phase);
  const gate = pickStep(phase, type, input.step);
  const record: EvidenceRecord = {
    phase: phase.id,
    step: gate.id,
    type,
    value: input.evidence,
    recorded_at: deps.clock().toISOString(),
  };
  const target = [{ phase: phase.id, gate }];
  // An evidence gate is judged with the run's evidence plus this record: its facts are gathered first, so
  // that the record and the gate's result are written together (one locked write), unless another agent
  // changed the evidence meanwhile (then as before: record, re-read, judge, record the result).
  const ahead =
    acceptedEvidence(gate.check).length > 0
      ? await gatherFacts(
          factsInput(run, { ...before, evidence: [...before.evidence, record] }, target, deps, { runCommands: false }),
        )
      : null;
  const at = deps.clock().toISOString();
  const { state, judged } = await updateProtocolState<{ state: ProtocolState; judged: GateResult | null }>(
    run.paths,
    run.session.session_id,
    (current) => {
      if (current === null)
        throw usageError('the protocol run ended meanwhile', {
          code: 'PROTOCOL_NOT_STARTED',
          remedy: 'Start a new run: hestai session start.',
        });
      if (current.evidence.length >= RUN_LIMITS.evidence_records)
        throw tooLarge(
          `the run's evidence (already ${current.evidence.length} evidence records)`,
          `at most ${RUN_LIMITS.evidence_records} evidence records per run`,
          'Record evidence once per gate, with what was observed; end the run and start a new session for more work.',
        );
      const next = { ...current, evidence: [...current.evidence, record] };
      if (ahead === null || JSON.stringify(current.evidence) !== JSON.stringify(before.evidence))
        return { state: next, result: { state: next, judged: null } };
      const r = evaluateGate(phase.id, gate, ahead, next.evidence, { preCommit: false });
      const recorded = alreadyRecorded(next, [r]) ? next : withResults(next, [r], at);
      return { state: recorded, result: { state: recorded, judged: r } };
    },
  );
  if (acceptedEvidence(gate.check).length === 0) {
    return {
      phase: phase.id,
      step: gate.id,
      evidence_recorded: true,
      auto_validated: false,
      gate_status: 'PENDING',
      message: `recorded; the gate is checked by ${gate.check.type}, not by evidence: validate it with hestai session gate ${phase.id}`,
    };
  }
  let result = judged;
  if (result === null) {
    result = (await evaluateGates(run, state, target, deps, { runCommands: false }))[0]!;
    await recordResults(run, [result], deps.clock().toISOString(), state);
  }
  const gate_status = result!.status === 'PASS' ? 'PASS' : result!.status === 'PENDING' ? 'PENDING' : 'FAIL';
  return {
    phase: phase.id,
    step: gate.id,
    evidence_recorded: true,
    auto_validated: true,
    gate_status,
    message: result!.message,
  };
}

// ---------------------------------------------------------------------------------------------------
// get_blocked_reason

export async function getBlockedReason(
  input: { working_dir: string; session_id?: string | undefined; surface: Surface },
  deps: ProtocolDeps,
): Promise<BlockedReason> {
  const { run, state } = await openRun(input.working_dir, input.session_id, deps.env);
  const phase = run.protocol.phases.find((p) => p.id === state.current_phase);
  const results = phase ? await evaluateGates(run, state, gatesOf([phase]), deps, { runCommands: false }) : [];
  return blockedReason(run.protocol, state, results, input.surface, remedyContext(run, deps));
}

// ---------------------------------------------------------------------------------------------------
// session_end

export interface SessionEndResult {
  session_id: string;
  status: RunOutcome | 'INCOMPLETE';
  checklist: Checklist;
  violations: Violation[];
  /** The unmet MUST gates (`PHASE/gate: message`) when INCOMPLETE. */
  unmet: string[];
  /** The seed's HANDOFF.md update: true when the history record was written. */
  handoff_updated: boolean;
  commit_sha?: string;
  message: string;
}

export async function sessionEnd(
  input: {
    working_dir: string;
    session_id?: string | undefined;
    summary: string;
    next_session_notes?: string | undefined;
    key_decisions?: string[] | undefined;
  },
  deps: ProtocolDeps,
): Promise<SessionEndResult> {
  const summary = input.summary?.trim() ?? '';
  if (summary === '')
    throw usageError('the summary is empty', {
      code: 'SUMMARY_MISSING',
      remedy: 'Say what the session accomplished: --summary "..." (MCP: summary).',
    });
  const decisions = input.key_decisions ?? [];
  if (decisions.length > RUN_LIMITS.key_decisions || decisions.some((d) => d.length > RUN_LIMITS.text))
    throw tooLarge(
      `key_decisions (${decisions.length} item(s))`,
      `at most ${RUN_LIMITS.key_decisions} items of ${RUN_LIMITS.text} characters`,
      'Keep the decisions worth keeping; put the rest in the summary or the project docs.',
    );
  if (summary.length > RUN_LIMITS.summary || (input.next_session_notes?.length ?? 0) > RUN_LIMITS.summary)
    throw tooLarge(
      'summary or next_session_notes',
      `${RUN_LIMITS.summary} characters each`,
      'Shorten it; link to a document for the details.',
    );
  const { run, state } = await openRun(input.working_dir, input.session_id, deps.env);
  // The phases already passed held when they were passed (or their skip is a recorded violation); the
  // rest are checked now. A MUST gate unmet there makes the run INCOMPLETE.
  const remaining = remainingPhases(run.protocol, state);
  const results = await evaluateGates(run, state, gatesOf(remaining), deps, { runCommands: true });
  const now = deps.clock().toISOString();
  const all = [...passedResults(run.protocol, state, remaining), ...results];
  const checklist = buildChecklist(run.protocol, all);
  const commands = commandOutcomes(run.protocol, all);
  // The phases the event log says were passed are re-derived too (src/protocol/rederive.ts).
  const passed = planPassedRecheck(run.protocol, state.events, state.evidence);
  const rechecked =
    passed.recheck.length > 0 ? await evaluateGates(run, state, passed.recheck, deps, { runCommands: false }) : [];
  const missing = [
    ...passed.problems,
    ...rechecked.filter(unmet).map((r) => `${gateKey(r.phase, r.gate)}: passed, but does not hold: ${r.message}`),
    ...results
      .filter((r) => r.requirement_level === 'MUST' && unmet(r))
      .map((r) => `${gateKey(r.phase, r.gate)}: ${r.message}`),
  ];
  const changed = run.changed === null ? '' : `; ${run.changed}`;
  if (missing.length > 0) {
    await recordResults(run, results, now, state);
    // CI sees an end refused as INCOMPLETE too (a later end of the same run supersedes it: src/verify/protocol-run-rule.ts).
    await publishProtocolRun(run.paths.root, runRecord(state, 'INCOMPLETE', now, null, [], commands), deps.clock());
    return {
      session_id: state.session_id,
      status: 'INCOMPLETE',
      checklist,
      violations: state.violations,
      unmet: missing,
      handoff_updated: false,
      message: `${missing.length} MUST gate(s) unmet; no history written, the run stays open${changed}`,
    };
  }
  const head = await askAsync(run.paths.root, HEAD_COMMIT);
  // The run's last commit: HEAD when it moved since the run started, else none (never the starting commit).
  const commit_sha = head !== null && head !== state.starting_commit ? head : null;
  const outcome: RunOutcome = state.violations.length > 0 ? 'COMPLETE_WITH_VIOLATIONS' : 'COMPLETE';
  const range =
    commit_sha === null ? null : await rangeFactsAsync(run.paths.root, state.starting_commit, { commits: true });
  const commits = (range?.commits ?? []).map((c) => c.sha).slice(-100);
  const forced = state.events.flatMap((e) => (e.type === 'advance' ? e.forced : []));
  const record: HistoryRecord = {
    session_id: state.session_id,
    objective: state.objective,
    outcome,
    commit_sha,
    key_decisions: (input.key_decisions ?? []).map((d) => d.trim()).filter((d) => d !== ''),
    next_session_notes: input.next_session_notes?.trim() || null,
    summary,
    started_at: state.started_at,
    ended_at: now,
    violations: state.violations.length,
    protocol_sha256: state.protocol_sha256,
    starting_commit: state.starting_commit,
    commits,
    forced,
  };
  const ended = await updateProtocolState(run.paths, state.session_id, (current) =>
    current === null ? { result: false } : { state: null, result: true },
  );
  if (!ended)
    throw blockedError('the protocol run was ended meanwhile by another agent', {
      code: 'PROTOCOL_CONFLICT',
      remedy: 'Read session://history (hestai session show --history).',
    });
  await appendHistory(run.paths, record, run.config.protocol.history_limit);
  // CI sees the run (issue 30): its record goes on the anchors branch, which the pre-push hook publishes.
  await publishProtocolRun(run.paths.root, runRecord(state, outcome, now, commit_sha, commits, commands), deps.clock());
  return {
    session_id: state.session_id,
    status: outcome,
    checklist,
    violations: state.violations,
    unmet: [],
    handoff_updated: true,
    ...(commit_sha ? { commit_sha } : {}),
    message:
      outcome === 'COMPLETE'
        ? `every MUST gate holds: history record written, run cleared (clock out next: hestai clock-out)${changed}`
        : `${state.violations.length} requirement(s) were skipped by forced advances (${state.violations.filter((v) => v.severity === 'CRITICAL').length} MUST): ended with violations, history record written, run cleared (clock out next: hestai clock-out)${changed}`,
  };
}

/** The record `session end` publishes on the anchors branch (src/records/protocol-record.ts). */
function runRecord(
  state: ProtocolState,
  outcome: string,
  ended_at: string,
  commit_sha: string | null,
  commits: string[],
  commands: ProtocolRunCommand[],
): ProtocolRunRecord {
  return {
    kind: PROTOCOL_RUN_KIND,
    version: 1,
    session_id: state.session_id,
    outcome,
    started_at: state.started_at,
    ended_at,
    protocol_sha256: state.protocol_sha256,
    starting_commit: state.starting_commit,
    commit_sha,
    commits,
    forced: state.events.flatMap((e) => (e.type === 'advance' ? e.forced : [])),
    violations: state.violations.map((v) => ({ phase: v.phase, requirement: v.requirement, severity: v.severity })),
    commands,
  };
}

/**
 * Pure: the protocol's command gates and how each last ended in `results` (so the report can tell whether an
 * anchor's GATE was run by the protocol): exit 0 passed; another exit or a timeout failed; else not run.
 */
export function commandOutcomes(protocol: Protocol, results: readonly GateResult[]): ProtocolRunCommand[] {
  const byKey = new Map(results.map((r) => [gateKey(r.phase, r.gate), r]));
  return protocol.phases.flatMap((p) =>
    p.gates.flatMap((g) => {
      if (g.check.type !== 'command') return [];
      const r = byKey.get(gateKey(p.id, g.id));
      const ran = r !== undefined && r.status === 'FAIL' && !r.message.startsWith(`\`${g.check.run}\` not run:`);
      const result = r?.status === 'PASS' ? 'passed' : ran ? 'failed' : 'not run';
      return [{ gate: gateKey(p.id, g.id), run: g.check.run, result }];
    }),
  );
}

// ---------------------------------------------------------------------------------------------------
// read-only views (session://state, session://checklist, session://history, session://violations)

export interface StateView {
  session_id: string;
  objective: string;
  branch: string | null;
  starting_commit: string | null;
  current_phase: string;
  started_at: string;
  phases_completed: string[];
  checklist: Checklist;
  evidence: Record<string, Record<string, string>>;
  violations: Violation[];
  forced_advances: number;
  protocol_changed: boolean;
}

/** The run's state with a freshly evaluated checklist (never runs commands; shows their recorded result). */
export async function sessionState(
  input: { working_dir: string; session_id?: string | undefined },
  deps: ProtocolDeps,
): Promise<StateView> {
  const { run, state } = await openRun(input.working_dir, input.session_id, deps.env);
  const remaining = remainingPhases(run.protocol, state);
  const results = [
    ...passedResults(run.protocol, state, remaining),
    ...(await evaluateGates(run, state, gatesOf(remaining), deps, { runCommands: false })),
  ];
  const evidence: StateView['evidence'] = {};
  for (const e of state.evidence) {
    evidence[e.phase] ??= {};
    evidence[e.phase]![`${e.step}:${e.type}`] = e.value;
  }
  return {
    session_id: state.session_id,
    objective: state.objective,
    branch: state.branch,
    starting_commit: state.starting_commit,
    current_phase: state.current_phase,
    started_at: state.started_at,
    phases_completed: state.phases_completed,
    checklist: buildChecklist(run.protocol, results),
    evidence,
    violations: state.violations,
    forced_advances: state.forced_advances,
    protocol_changed: run.changed !== null,
  };
}

/** `where`: a working directory, or a workspace its caller already resolved (no second git process). */
export function sessionHistory(where: string | Workspace, limit = 5): { sessions: HistoryRecord[] } {
  const { paths } = typeof where === 'string' ? resolveWorkspace(where) : where;
  return { sessions: readHistory(paths).slice(-limit).reverse() };
}

export function sessionViolations(where: string | Workspace): { violations: Violation[] } {
  const { paths } = typeof where === 'string' ? resolveWorkspace(where) : where;
  return { violations: readViolations(paths) };
}

export { COMPLETE, type GateStatus };
