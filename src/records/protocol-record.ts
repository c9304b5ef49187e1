/**
 * The protocol run record (issue 30): what `session end` publishes on the anchors branch
 * (`protocol/<session>/<sha256>.json`) so `hestai verify` and `hestai report` can see how a session's run
 * ended: its outcome, forced skips, violations, the protocol file's sha256 and the run's commits.
 */
import { canonicalJson } from './anchor.js';
import { sha256Hex } from '../util/sha256.js';

export const PROTOCOL_RUN_KIND = 'hestai.protocol-run';

export interface ProtocolRunViolation {
  phase: string;
  requirement: string;
  severity: string;
}

/**
 * A `command` gate of the run (`PHASE/gate`), its command, and how it last ended: `passed` (exit 0),
 * `failed` (it ran: another exit or a timeout) or `not run` (untrusted workspace, never reached).
 */
export interface ProtocolRunCommand {
  gate: string;
  run: string;
  result: 'passed' | 'failed' | 'not run';
}

export interface ProtocolRunRecord {
  kind: typeof PROTOCOL_RUN_KIND;
  version: 1;
  session_id: string;
  outcome: string;
  started_at: string;
  ended_at: string;
  protocol_sha256: string;
  starting_commit: string | null;
  commit_sha: string | null;
  /** The run's commits (newest 100), oldest first. */
  commits: string[];
  /** The requirements skipped by forced advances (`PHASE/gate`). */
  forced: string[];
  violations: ProtocolRunViolation[];
  /** The run's command gates (absent from records written before they were published). */
  commands?: ProtocolRunCommand[];
}

export function protocolRunBytes(record: ProtocolRunRecord): string {
  return canonicalJson(record);
}

/** Path of a run record in the anchors tree: one file per run, named by the sha256 of its bytes. */
export function protocolRunPath(record: ProtocolRunRecord): string {
  return `protocol/${record.session_id}/${sha256Hex(protocolRunBytes(record))}.json`;
}
