/**
 * A protocol run's event log: the run's position (current phase, phases passed, forced advances and their
 * violations) is what the log replays to, and a run file whose stored fields say otherwise is corrupt. The log
 * is append-only: `session start` writes the first event, every successful `advance` one more.
 */
export type RunEvent =
  | { type: 'start'; at: string; phase: string }
  | {
      type: 'advance';
      at: string;
      from: string;
      to: string;
      /** The phases passed, in order. */
      passed: string[];
      /** `PHASE/gate` of each requirement this advance skipped by force (one violation each). */
      forced: string[];
    };

/** What a run's stored position must equal. */
export interface Replayed {
  current_phase: string;
  phases_completed: string[];
  forced_advances: number;
  forced: string[];
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);

/** Pure: the shape problems of a stored event log (`events.N.key: ...`). */
export function eventShapeProblems(events: unknown): string[] {
  if (!Array.isArray(events)) return ['events: expected a list (the run event log)'];
  const problems: string[] = [];
  events.forEach((e: unknown, i) => {
    const r = (e ?? {}) as Record<string, unknown>;
    if (r['type'] === 'start') {
      if (!isStr(r['at']) || !isStr(r['phase'])) problems.push(`events.${i}: a start event needs at and phase`);
    } else if (r['type'] === 'advance') {
      if (!isStr(r['at']) || !isStr(r['from']) || !isStr(r['to']) || !isStrList(r['passed']) || !isStrList(r['forced']))
        problems.push(`events.${i}: an advance event needs at, from, to, passed and forced`);
    } else problems.push(`events.${i}.type: expected start or advance`);
  });
  return problems;
}

/** Pure: the position the log replays to, or the first problem of the log itself. */
export function replayRun(events: readonly RunEvent[]): Replayed | string {
  const first = events[0];
  if (first === undefined || first.type !== 'start') return 'events: the log does not begin with the start event';
  const out: Replayed = { current_phase: first.phase, phases_completed: [], forced_advances: 0, forced: [] };
  for (const [i, e] of events.entries()) {
    if (i === 0) continue;
    if (e.type !== 'advance') return `events.${i}: a second start event`;
    if (e.from !== out.current_phase)
      return `events.${i}: advances from ${e.from}, but the run was in ${out.current_phase}`;
    for (const p of e.passed) if (!out.phases_completed.includes(p)) out.phases_completed.push(p);
    out.current_phase = e.to;
    if (e.forced.length > 0) out.forced_advances += 1;
    out.forced.push(...e.forced);
  }
  return out;
}

/**
 * Pure: where a run's stored position disagrees with its event log (empty when it agrees). Each problem
 * names the key and says "does not match the run's event log".
 */
export function runLogProblems(state: {
  current_phase: string;
  phases_completed: readonly string[];
  forced_advances: number;
  violations: ReadonlyArray<{ requirement: string }>;
  events: readonly RunEvent[];
}): string[] {
  const replayed = replayRun(state.events);
  if (typeof replayed === 'string') return [replayed];
  const problems: string[] = [];
  const mismatch = (key: string, stored: unknown, logged: unknown) =>
    problems.push(
      `${key}: ${JSON.stringify(stored)} does not match the run's event log (${JSON.stringify(logged)}): the run file was edited by hand`,
    );
  if (state.current_phase !== replayed.current_phase)
    mismatch('current_phase', state.current_phase, replayed.current_phase);
  if (JSON.stringify(state.phases_completed) !== JSON.stringify(replayed.phases_completed))
    mismatch('phases_completed', state.phases_completed, replayed.phases_completed);
  if (state.forced_advances !== replayed.forced_advances)
    mismatch('forced_advances', state.forced_advances, replayed.forced_advances);
  const logged = replayed.forced;
  if (
    state.violations.length !== logged.length ||
    state.violations.some((v, i) => !(typeof v?.requirement === 'string' && v.requirement.includes(`[${logged[i]}]`)))
  )
    mismatch('violations', `${state.violations.length} violation(s)`, logged);
  return problems;
}
