import type { GateResult } from './evaluate.js';
import { evidenceNeeded, suggestAction, type RemedyContext, type Surface } from './remedy.js';
import type { ProtocolState, Violation } from './store.js';
import { COMPLETE, gateKey, type Phase, type Protocol } from './types.js';

/** Unmet: anything but PASS or SKIPPED (FAIL, PENDING). */
export const unmet = (r: GateResult): boolean => r.status !== 'PASS' && r.status !== 'SKIPPED';

/** Index of a phase id (COMPLETE = after the last phase); -1 when the protocol has no such phase. */
export function phaseIndex(protocol: Protocol, id: string): number {
  if (id === COMPLETE) return protocol.phases.length;
  return protocol.phases.findIndex((p) => p.id === id);
}

export function nextPhaseId(protocol: Protocol, index: number): string {
  return protocol.phases[index + 1]?.id ?? COMPLETE;
}

/** The phases an advance from `current` to `target` (default: the next) must pass through. */
export function phasesToPass(
  protocol: Protocol,
  current: string,
  target: string | undefined,
): { ok: true; phases: Phase[]; target: string } | { ok: false; reason: string } {
  const from = phaseIndex(protocol, current);
  if (from < 0) return { ok: false, reason: `the run is in phase ${current}, which the protocol no longer has` };
  if (from >= protocol.phases.length) return { ok: false, reason: 'the run is already COMPLETE' };
  if (target === undefined) return { ok: true, phases: [protocol.phases[from]!], target: nextPhaseId(protocol, from) };
  const to = phaseIndex(protocol, target);
  if (to < 0)
    return {
      ok: false,
      reason: `unknown target_phase ${target} (phases: ${protocol.phases.map((p) => p.id).join(', ')}, ${COMPLETE})`,
    };
  if (to <= from) return { ok: false, reason: `target_phase ${target} is not after the current phase ${current}` };
  return { ok: true, phases: protocol.phases.slice(from, to), target };
}

export interface AdvanceDecision {
  success: boolean;
  previous_phase: string;
  current_phase: string;
  /** `PHASE/gate` of each unmet blocking gate that refused the advance. */
  blocked_by: string[];
  /** With force: one line per skipped requirement (also appended to the violations log). */
  violations: Violation[];
  warnings: string[];
  /** Set when the force limit refused the advance. */
  refused?: string;
  /** When it was decided (the advance event's time). */
  at: string;
}

/**
 * Pure: the advance decision. Every blocking gate of every phase passed through must hold; non-blocking
 * failures advance with a warning. `force` advances anyway and yields one violation per skipped blocking
 * requirement, unless the session already used its `forceLimit` forced advances.
 */
export function decideAdvance(input: {
  state: ProtocolState;
  phases: readonly Phase[];
  target: string;
  results: readonly GateResult[];
  force: boolean;
  forceLimit: number;
  now: string;
  recovery: (r: GateResult) => string;
}): AdvanceDecision {
  const { state, results } = input;
  const blocking = results.filter((r) => r.blocking && unmet(r));
  const warnings = results
    .filter((r) => !r.blocking && unmet(r))
    .map((r) => `${gateKey(r.phase, r.gate)} (${r.requirement_level}) unmet: ${r.message}`);
  const base = { previous_phase: state.current_phase, warnings, at: input.now };
  if (blocking.length === 0)
    return { ...base, success: true, current_phase: input.target, blocked_by: [], violations: [] };
  const blocked_by = blocking.map((r) => gateKey(r.phase, r.gate));
  if (!input.force) return { ...base, success: false, current_phase: state.current_phase, blocked_by, violations: [] };
  if (state.forced_advances >= input.forceLimit) {
    return {
      ...base,
      success: false,
      current_phase: state.current_phase,
      blocked_by,
      violations: [],
      refused: `force limit reached: this session already forced ${state.forced_advances} advance(s) (protocol.force_limit: ${input.forceLimit})`,
    };
  }
  const violations: Violation[] = blocking.map((r) => ({
    session_id: state.session_id,
    timestamp: input.now,
    phase: r.phase,
    requirement: `${r.requirement_level} ${r.step} [${gateKey(r.phase, r.gate)}]: ${r.message}`,
    severity: r.requirement_level === 'MUST' ? 'CRITICAL' : 'WARNING',
    recovery: input.recovery(r),
  }));
  return { ...base, success: true, current_phase: input.target, blocked_by, violations };
}

/** Pure: the state after a successful advance. */
export function applyAdvance(state: ProtocolState, decision: AdvanceDecision, passed: readonly Phase[]): ProtocolState {
  const done = new Set(state.phases_completed);
  const phases_completed = [...state.phases_completed, ...passed.map((p) => p.id).filter((id) => !done.has(id))];
  // A forced advance's blocked_by are the requirements it skipped (one violation each, in that order).
  const forced = decision.violations.length > 0 ? decision.blocked_by : [];
  return {
    ...state,
    current_phase: decision.current_phase,
    phases_completed,
    forced_advances: state.forced_advances + (decision.violations.length > 0 ? 1 : 0),
    violations: [...state.violations, ...decision.violations],
    events: [
      ...state.events,
      {
        type: 'advance',
        at: decision.at,
        from: state.current_phase,
        to: decision.current_phase,
        passed: passed.map((p) => p.id),
        forced,
      },
    ],
  };
}

export interface ChecklistItem {
  req: GateResult['requirement_level'];
  step: string;
  /** "x" done, " " not done (the seed's markdown-checkbox convention). */
  status: 'x' | ' ';
  evidence: string | null;
  phase: string;
  gate: string;
  result: GateResult['status'];
  blocking: boolean;
}

export interface Checklist {
  start: ChecklistItem[];
  work: ChecklistItem[];
  end: ChecklistItem[];
}

/** Pure: the seed's checklist (start and end lists; `work` for phases in between) from gate results. */
export function buildChecklist(protocol: Protocol, results: readonly GateResult[]): Checklist {
  const checklist: Checklist = { start: [], work: [], end: [] };
  const byKey = new Map(results.map((r) => [gateKey(r.phase, r.gate), r]));
  for (const phase of protocol.phases) {
    for (const gate of phase.gates) {
      const r = byKey.get(gateKey(phase.id, gate.id));
      checklist[phase.stage].push({
        req: gate.level,
        step: gate.step,
        status: r?.status === 'PASS' ? 'x' : ' ',
        evidence: r?.evidence ?? null,
        phase: phase.id,
        gate: gate.id,
        result: r?.status ?? 'PENDING',
        blocking: gate.blocking,
      });
    }
  }
  return checklist;
}

/** Pure: the start phases that still hold an unmet blocking gate (the seed's `blocked_until`). */
export function blockedUntil(protocol: Protocol, results: readonly GateResult[]): string[] {
  return protocol.phases
    .filter((p) => p.stage === 'start' && results.some((r) => r.phase === p.id && r.blocking && unmet(r)))
    .map((p) => p.id);
}

export interface BlockedPhase {
  phase: string;
  gate: string;
  requirement_level: GateResult['requirement_level'];
  reason: string;
  evidence_needed: string;
}

export interface BlockedReason {
  is_blocked: boolean;
  current_phase: string;
  blocked_phases: BlockedPhase[];
  suggested_actions: string[];
}

/** Pure: why the run cannot advance from its current phase (empty when nothing blocks). */
export function blockedReason(
  protocol: Protocol,
  state: ProtocolState,
  results: readonly GateResult[],
  surface: Surface,
  ctx: Omit<RemedyContext, 'session_id'>,
): BlockedReason {
  const phase = protocol.phases.find((p) => p.id === state.current_phase);
  const blocked_phases: BlockedPhase[] = [];
  const suggested_actions: string[] = [];
  if (phase) {
    for (const r of results) {
      if (r.phase !== phase.id || !r.blocking || !unmet(r)) continue;
      const gate = phase.gates.find((g) => g.id === r.gate)!;
      blocked_phases.push({
        phase: phase.id,
        gate: gate.id,
        requirement_level: gate.level,
        reason: r.message,
        evidence_needed: evidenceNeeded(gate),
      });
      suggested_actions.push(suggestAction(phase.id, gate, surface, { session_id: state.session_id, ...ctx }));
    }
  }
  return {
    is_blocked: blocked_phases.length > 0,
    current_phase: state.current_phase,
    blocked_phases,
    suggested_actions,
  };
}
