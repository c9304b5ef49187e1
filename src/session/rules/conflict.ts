import { blockedError, type HestaiError } from '../../errors.js';
import type { SessionRecord } from '../../records/session.js';
import { isLive } from '../../records/session.js';

/**
 * How a neighbour's focus relates to ours (CI-I5, as issue 18 reads it): `same` and `related` foci
 * conflict (two agents are likely to edit the same files and overwrite each other's context); an
 * `unrelated` neighbour is reported but is no conflict.
 */
export type FocusRelation = 'same' | 'related' | 'unrelated';

/** One live neighbour session (seed 000 §4 `conflict`, plus how its focus relates to ours). */
export interface SessionConflict {
  existing_session_id: string;
  existing_role: string;
  existing_focus: string;
  started_at: string;
  relation: FocusRelation;
}

/**
 * Words that say nothing about *what* is worked on: articles and prepositions, Conventional Commit types,
 * generic verbs and the default focus. Two foci that share only these are unrelated.
 */
const GENERIC = new Set(
  (
    'the and for with from into onto that this then than are was were not but all any its our your their ' +
    'feat fix chore docs refactor test tests perf style build issue issues github ' +
    'implement implementing add adding update updating improve improving make making change changing work ' +
    'working general support new more some use using via'
  ).split(' '),
);

/** Pure: the significant words of a focus, lower-cased, a plural `s` dropped (`sessions` = `session`). */
function significantWords(focus: string): Set<string> {
  const words = new Set<string>();
  for (const raw of focus.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (raw.length < 3 || GENERIC.has(raw) || /^\d+$/.test(raw)) continue;
    words.add(raw.length > 3 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw);
  }
  return words;
}

/** Pure: the issue numbers a focus names (`#42`, `issue-42`, `issue 42`). */
function issueNumbers(focus: string): Set<string> {
  return new Set([...focus.matchAll(/(?:#|\bissues?[-\s]?)(\d{1,9})\b/gi)].map((m) => m[1]!));
}

function normalized(focus: string): string {
  return focus.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Pure: `same` when the foci are equal ignoring case and spacing; `related` when they name the same issue
 * number or share a significant word (see {@link GENERIC}); `unrelated` otherwise. Erring towards `related`
 * is the safe side: a related neighbour is only reported, never acted on without the agent's decision.
 */
export function focusRelation(a: string, b: string): FocusRelation {
  if (normalized(a) === normalized(b)) return 'same';
  const issuesA = issueNumbers(a);
  for (const n of issueNumbers(b)) if (issuesA.has(n)) return 'related';
  const wordsA = significantWords(a);
  for (const w of significantWords(b)) if (wordsA.has(w)) return 'related';
  return 'unrelated';
}

/**
 * Pure (CI-I5): the live sessions (CREATED or ACTIVE) already registered in this worktree, most recent
 * first, each with how its focus relates to `focus`.
 */
export function detectConflicts(sessions: readonly SessionRecord[], focus: string): SessionConflict[] {
  return sessions
    .filter(isLive)
    .sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at))
    .map((s) => ({
      existing_session_id: s.session_id,
      existing_role: s.role,
      existing_focus: s.focus,
      started_at: s.started_at,
      relation: focusRelation(s.focus, focus),
    }));
}

/** Pure: the neighbours that conflict (same focus first, then related; most recent first within each). */
export function conflictsOf(neighbours: readonly SessionConflict[]): SessionConflict[] {
  return [...neighbours.filter((n) => n.relation === 'same'), ...neighbours.filter((n) => n.relation === 'related')];
}

/** Pure: the neighbours in the order a reader needs them: the conflicts ({@link conflictsOf}), then the unrelated ones. */
export function conflictsFirst(neighbours: readonly SessionConflict[]): SessionConflict[] {
  return [...conflictsOf(neighbours), ...neighbours.filter((n) => n.relation === 'unrelated')];
}

/** Pure: `same focus` / `related focus` / `unrelated focus`. */
export function relationWords(relation: FocusRelation): string {
  return `${relation} focus`;
}

/** Pure: one line per neighbour, as error details and in `hestai conflict`. */
export function describeNeighbour(n: SessionConflict): string {
  return `${n.existing_session_id}: ${n.existing_role}, "${n.existing_focus}" (${relationWords(n.relation)}), started ${n.started_at}`;
}

/** Pure: the refusal of `on_conflict: abort` (exit 1, nothing created); `conflicts` is {@link conflictsOf}'s list. */
export function conflictError(conflicts: readonly SessionConflict[]): HestaiError {
  const c = conflicts[0]!;
  return blockedError(
    `another session works on ${c.relation === 'same' ? 'the same' : 'a related'} focus in this worktree: ${c.existing_session_id} (${c.existing_role}, focus "${c.existing_focus}", started ${c.started_at}); no session was created`,
    {
      code: 'SESSION_CONFLICT',
      details: conflicts.map(describeNeighbour),
      remedy:
        'Clock in with --on-conflict continue to work alongside it (and decide later with "hestai conflict takeover" or "hestai conflict abort"), or with --on-conflict takeover to mark it STALE and take over.',
    },
  );
}
