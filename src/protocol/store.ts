import fs from 'node:fs';
import path from 'node:path';
import { activeDir, type WorkspacePaths } from '../paths.js';
import { appendJsonl, readJsonIfExists, readJsonl, withLock, writeJsonAtomic, type Validate } from '../state/store.js';
import * as z from 'zod/mini';
import { isoDate, isRecord, recordChecker, UUID_V4 } from '../util/validate.js';
import { sha256Hex } from '../util/sha256.js';
import type { EvidenceRecord } from './evidence.js';
import type { GateStatus } from './evaluate.js';
import { eventShapeProblems, runLogProblems, type RunEvent } from './run-log.js';
import { EVIDENCE_TYPES } from './types.js';

/** The recorded result of the last `validate_gate` of one gate (informational: advance re-checks). */
export interface RecordedResult {
  status: GateStatus;
  message: string;
  evidence: string | null;
  checked_at: string;
}

/** One forced skip of a requirement (the seed's Violation). */
export interface Violation {
  session_id: string;
  timestamp: string;
  phase: string;
  requirement: string;
  severity: 'CRITICAL' | 'WARNING';
  recovery: string;
}

/** `.hestai/sessions/active/{id}/protocol.json`: one protocol run per session. */
export interface ProtocolState {
  version: 1;
  session_id: string;
  objective: string;
  branch: string | null;
  starting_commit: string | null;
  started_at: string;
  /** sha256 of protocol.yaml when the run started: the sha256 of `protocol_text`. */
  protocol_sha256: string;
  /** protocol.yaml as it was when the run started: the run is judged by this version, never a later edit. */
  protocol_text: string;
  /** The run's event log (src/protocol/run-log.ts): the position fields below must be what it replays to. */
  events: RunEvent[];
  /** A phase id, or COMPLETE after the last phase. */
  current_phase: string;
  phases_completed: string[];
  /** `PHASE/gate` → the last recorded result. */
  results: Record<string, RecordedResult>;
  evidence: EvidenceRecord[];
  /** Forced advances that skipped at least one requirement. */
  forced_advances: number;
  violations: Violation[];
  /** sha256 of the files watched by file_modified_since_start gates when the run started. */
  baseline?: Record<string, string>;
}

/**
 * How a run ended: every MUST gate held (COMPLETE), or the run ended but a requirement was skipped by a
 * forced advance (COMPLETE_WITH_VIOLATIONS). INCOMPLETE runs are never recorded (they stay open).
 */
export type RunOutcome = 'COMPLETE' | 'COMPLETE_WITH_VIOLATIONS';

/** One record of `protocol-history.json` (session://history). */
export interface HistoryRecord {
  session_id: string;
  objective: string;
  outcome: RunOutcome;
  /** The run's last commit (HEAD at the end when it moved since the starting commit), or null when none. */
  commit_sha: string | null;
  key_decisions: string[];
  next_session_notes: string | null;
  summary: string;
  started_at: string;
  ended_at: string;
  violations: number;
  /** sha256 of the protocol the run was judged by (the one it started with). */
  protocol_sha256?: string;
  /** The commit HEAD was at when the run started, or null. */
  starting_commit?: string | null;
  /** The run's commits, oldest first (at most 100: the newest kept), from git at the end. */
  commits?: string[];
  /** `PHASE/gate` of each requirement a forced advance skipped (from the run's event log). */
  forced?: string[];
}

export interface ProtocolFiles {
  state: (sessionId: string) => string;
  lock: (sessionId: string) => string;
  history: string;
  historyLock: string;
  violations: string;
}

export function protocolFiles(paths: WorkspacePaths): ProtocolFiles {
  return {
    state: (id) => path.join(activeDir(paths, id), 'protocol.json'),
    lock: (id) => path.join(paths.locks, `protocol-${id}`),
    history: path.join(paths.sessions, 'protocol-history.json'),
    historyLock: path.join(paths.locks, 'protocol-history'),
    violations: path.join(paths.audit, 'protocol-violations.jsonl'),
  };
}

/** The shape of a protocol run, its sealed protocol and its event log: a corrupt state is an error, never a pass. */
const protocolStateSchema = z
  .looseObject({
    version: z.literal(1),
    session_id: z.string().check(z.regex(UUID_V4)),
    objective: z.string(),
    branch: z.nullable(z.string()),
    starting_commit: z.nullable(z.string()),
    started_at: isoDate,
    protocol_sha256: z.string(),
    current_phase: z.string(),
    phases_completed: z.array(z.string()),
    results: z.record(z.string(), z.unknown()),
    evidence: z.array(
      z.looseObject({
        phase: z.string(),
        step: z.string(),
        value: z.string(),
        recorded_at: isoDate,
        type: z.enum(EVIDENCE_TYPES),
      }),
    ),
    forced_advances: z.int().check(z.minimum(0)),
    violations: z.array(z.unknown()),
    protocol_text: z.string({
      error: 'expected the protocol text the run started with (a run of an older hestai: end it)',
    }),
    events: z.unknown(),
    baseline: z.optional(z.record(z.string(), z.string())),
  })
  .check(
    z.superRefine((state, ctx) => {
      const problem = (message: string) => ctx.addIssue({ code: 'custom', message, input: state });
      if (sha256Hex(state.protocol_text) !== state.protocol_sha256)
        problem("protocol_text: does not match protocol_sha256: the run's sealed protocol was edited by hand");
      const shape = eventShapeProblems(state.events);
      for (const p of shape.length > 0 ? shape : runLogProblems(state as unknown as ProtocolState)) problem(p);
    }),
  );
export const validateProtocolState: Validate<ProtocolState> = recordChecker(protocolStateSchema);

/** The session's protocol run, or null when none was started. A corrupt file throws (STATE_CORRUPT). */
export function readProtocolState(paths: WorkspacePaths, sessionId: string): ProtocolState | null {
  return readJsonIfExists(protocolFiles(paths).state(sessionId), validateProtocolState);
}

export function writeProtocolState(paths: WorkspacePaths, state: ProtocolState): void {
  writeJsonAtomic(protocolFiles(paths).state(state.session_id), state);
}

export function removeProtocolState(paths: WorkspacePaths, sessionId: string): void {
  fs.rmSync(protocolFiles(paths).state(sessionId), { force: true });
}

/**
 * Locked read-modify-write of one session's run: two agents on one session never lose each other's
 * evidence (the second waits for the first and reads its write).
 */
export function updateProtocolState<T>(
  paths: WorkspacePaths,
  sessionId: string,
  fn: (state: ProtocolState | null) => { state?: ProtocolState | null; result: T },
): Promise<T> {
  return withLock(protocolFiles(paths).lock(sessionId), () => {
    const current = readProtocolState(paths, sessionId);
    const { state, result } = fn(current);
    if (state === null) removeProtocolState(paths, sessionId);
    else if (state !== undefined) writeProtocolState(paths, state);
    return result;
  });
}

const validateHistory: Validate<HistoryRecord[]> = (value) => {
  if (!isRecord(value) || !Array.isArray(value['sessions']))
    return { ok: false, errors: ['sessions: expected a list'] };
  return { ok: true, value: value['sessions'] as HistoryRecord[] };
};

export function readHistory(paths: WorkspacePaths): HistoryRecord[] {
  return readJsonIfExists(protocolFiles(paths).history, validateHistory) ?? [];
}

/** Appends one record, keeping only the newest `limit` (locked, atomic). */
export async function appendHistory(paths: WorkspacePaths, record: HistoryRecord, limit: number): Promise<void> {
  const files = protocolFiles(paths);
  await withLock(files.historyLock, () => {
    const sessions = [...readHistory(paths), record].slice(-limit);
    writeJsonAtomic(files.history, { sessions });
  });
}

export function appendViolations(paths: WorkspacePaths, violations: readonly Violation[]): void {
  for (const v of violations) appendJsonl(protocolFiles(paths).violations, v);
}

export function readViolations(paths: WorkspacePaths): Violation[] {
  return readJsonl(protocolFiles(paths).violations) as Violation[];
}
