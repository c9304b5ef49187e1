import { commitShaOf, contentHashOf, evidencePathOf, evidenceWordingProblem, type EvidenceRecord } from './evidence.js';
import { pathMatches } from './evaluate.js';
import type { RunEvent } from './run-log.js';
import { acceptedEvidence, gateKey, type CheckType, type Gate, type Protocol } from './types.js';

/**
 * Checks whose result at the end still says whether they held when their phase was passed (git history,
 * files changed since the start): `session end` evaluates them again for every phase already passed. The
 * others (a clean tree, a fresh context, an anchor, a branch, a command) describe a moment: their phase's
 * advance event is taken as it is, and CI re-checks what matters from git (docs/protocol.md).
 */
export const RECHECKED_AT_END: ReadonlySet<CheckType> = new Set([
  'git_commit_since_start',
  'tests_first',
  'file_modified_since_start',
  'file_exists',
]);

/** Pure: why one evidence record cannot have proved `gate` (its form, not its facts now), or null. */
function formProblem(e: EvidenceRecord, gate: Gate): string | null {
  if (!acceptedEvidence(gate.check).includes(e.type)) return 'not an accepted type';
  switch (e.type) {
    case 'tool_output':
    case 'manual':
      return evidenceWordingProblem(e.value, gate.step);
    case 'commit_sha':
      return commitShaOf(e.value) === null ? 'not a commit sha' : null;
    case 'content_hash':
      return contentHashOf(e.value) === null ? 'not a sha256' : null;
    case 'file_path': {
      const p = evidencePathOf(e.value);
      const want = gate.check.type === 'evidence' ? gate.check.path : undefined;
      return p === null || (want !== undefined && !pathMatches(want, p)) ? 'not a matching path' : null;
    }
  }
}

export interface PassedPlan {
  /** `PHASE/gate: why` of each blocking evidence gate passed without acceptable evidence recorded before it. */
  problems: string[];
  /** The blocking gates of passed phases to evaluate again now ({@link RECHECKED_AT_END}). */
  recheck: Array<{ phase: string; gate: Gate }>;
}

/**
 * Pure: what `session end` re-derives for the phases the run's event log says were passed (never the run
 * file's recorded results): each blocking gate of a passed phase that the advance did not skip by force
 * must be proved again, an evidence gate by evidence recorded before that advance, a re-checkable gate by
 * evaluating it now.
 */
export function planPassedRecheck(
  protocol: Protocol,
  events: readonly RunEvent[],
  evidence: readonly EvidenceRecord[],
): PassedPlan {
  const plan: PassedPlan = { problems: [], recheck: [] };
  for (const e of events) {
    if (e.type !== 'advance') continue;
    for (const id of e.passed) {
      const phase = protocol.phases.find((p) => p.id === id);
      if (phase === undefined) {
        plan.problems.push(`${id}: passed at ${e.at}, but the run's protocol has no such phase`);
        continue;
      }
      for (const gate of phase.gates) {
        const key = gateKey(id, gate.id);
        if (!gate.blocking || e.forced.includes(key)) continue;
        if (acceptedEvidence(gate.check).length > 0) {
          const proved = evidence.some(
            (r) => r.phase === id && r.step === gate.id && r.recorded_at <= e.at && formProblem(r, gate) === null,
          );
          if (!proved)
            plan.problems.push(`${key}: passed at ${e.at} without acceptable evidence recorded before that advance`);
        } else if (RECHECKED_AT_END.has(gate.check.type)) plan.recheck.push({ phase: id, gate });
      }
    }
  }
  return plan;
}
