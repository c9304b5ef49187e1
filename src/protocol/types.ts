/**
 * The session protocol (seed 004) as plain data: phases in order, each with gates that carry an RFC 2119
 * requirement level, whether they block the next phase, and a machine check. These types are what every
 * layer uses; `schema.ts` (zod) produces them from `.hestai/protocol.yaml`.
 */
export const LEVELS = ['MUST', 'SHOULD', 'MAY'] as const;
export type Level = (typeof LEVELS)[number];

export const EVIDENCE_TYPES = ['tool_output', 'file_path', 'commit_sha', 'content_hash', 'manual'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

export const STAGES = ['start', 'work', 'end'] as const;
export type Stage = (typeof STAGES)[number];

export const CHECK_TYPES = [
  'file_exists',
  'file_modified_since_start',
  'command',
  'git_commit_since_start',
  'git_clean',
  'branch_not',
  'anchor_valid',
  'context_fresh',
  'tests_first',
  'evidence',
  'git_state',
] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

export type Check =
  | { type: 'file_exists'; path: string }
  | { type: 'file_modified_since_start'; path: string; names_session?: boolean }
  | { type: 'command'; run: string; timeout_ms: number }
  | { type: 'git_commit_since_start' }
  | { type: 'git_clean' }
  | { type: 'branch_not'; branches: string[] }
  | { type: 'anchor_valid' }
  | { type: 'context_fresh' }
  | { type: 'tests_first' }
  | { type: 'evidence'; accepts: EvidenceType[]; path?: string | undefined }
  /** Recorded `tool_output` of git (branch and last commit) that must name the current branch and HEAD. */
  | { type: 'git_state' };

/**
 * Checks that can only hold once the commit exists: the pre-commit hook never evaluates them (a commit
 * cannot be blocked for lacking itself). A gate may not claim `pre_commit: true` with one of these.
 */
export const POST_COMMIT_CHECKS: ReadonlySet<CheckType> = new Set(['git_commit_since_start', 'git_clean']);

export interface Gate {
  /** Unique within its phase; with the phase id it names the gate: `PHASE/gate`. */
  id: string;
  /** The checklist wording, e.g. "Read .hestai/context/PROJECT-CONTEXT.oct.md". */
  step: string;
  level: Level;
  /** An unmet blocking gate stops `advance` (default: true for MUST, false otherwise). */
  blocking: boolean;
  check: Check;
  /** Whether the pre-commit hook evaluates this gate (default: true unless the check is post-commit). */
  pre_commit: boolean;
}

export interface Phase {
  id: string;
  title: string;
  /** Which checklist list the phase belongs to (seed 004: start and end lists). */
  stage: Stage;
  gates: Gate[];
}

export interface Protocol {
  version: 1;
  phases: Phase[];
}

/** The pseudo-phase after the last one. */
export const COMPLETE = 'COMPLETE';

/** A phase or gate id: a letter, then letters, digits, `_` or `-` (at most 64). */
export const PROTOCOL_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Pure: the evidence types that satisfy a gate's check ([] when recorded evidence plays no part). */
export function acceptedEvidence(check: Check): readonly EvidenceType[] {
  if (check.type === 'evidence') return check.accepts;
  if (check.type === 'git_state') return ['tool_output'];
  return [];
}

export const gateKey = (phase: string, gate: string): string => `${phase}/${gate}`;
