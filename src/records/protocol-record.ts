/**
 * The protocol run record (issue 30): what `session end` publishes on the anchors branch
 * (`protocol/<session>/<sha256>.json`) so `hestai verify` and `hestai report` can see how a session's run
 * ended: its outcome, forced skips, violations, the protocol file's sha256 and the run's commits.
 */
import { canonicalJson } from './anchor.js';
import { sha256Hex } from '../util/sha256.js';
import { isRecord } from '../util/validate.js';

export const PROTOCOL_RUN_KIND = 'hestai.protocol-run';

export interface ProtocolRunViolation {
  phase: string;
  requirement: string;
  severity: string;
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
}

export function protocolRunBytes(record: ProtocolRunRecord): string {
  return canonicalJson(record);
}

/** Path of a run record in the anchors tree: one file per run, named by the sha256 of its bytes. */
export function protocolRunPath(record: ProtocolRunRecord): string {
  return `protocol/${record.session_id}/${sha256Hex(protocolRunBytes(record))}.json`;
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Parses a stored run record; null when it is not one (verify then ignores it). */
export function parseProtocolRun(text: string): ProtocolRunRecord | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(v) || v['kind'] !== PROTOCOL_RUN_KIND || v['version'] !== 1) return null;
  const r = v as Record<string, unknown>;
  if (typeof r['session_id'] !== 'string' || typeof r['outcome'] !== 'string') return null;
  if (!strings(r['commits']) || !strings(r['forced']) || !Array.isArray(r['violations'])) return null;
  const violations = (r['violations'] as unknown[]).filter(isRecord).map((x) => {
    const o = x as Record<string, unknown>;
    return {
      phase: String(o['phase'] ?? ''),
      requirement: String(o['requirement'] ?? ''),
      severity: String(o['severity'] ?? ''),
    };
  });
  const str = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : '');
  const nullable = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : null);
  return {
    kind: PROTOCOL_RUN_KIND,
    version: 1,
    session_id: r['session_id'] as string,
    outcome: r['outcome'] as string,
    started_at: str('started_at'),
    ended_at: str('ended_at'),
    protocol_sha256: str('protocol_sha256'),
    starting_commit: nullable('starting_commit'),
    commit_sha: nullable('commit_sha'),
    commits: r['commits'] as string[],
    forced: r['forced'] as string[],
    violations,
  };
}
