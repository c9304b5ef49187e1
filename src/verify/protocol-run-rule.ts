/**
 * The `protocol` verdict of `hestai verify` (pure): a commit made under a session (its `HestAI-Session`
 * trailer) whose protocol run, as published on the anchors branch by `session end`, ended INCOMPLETE or
 * with violations (forced skips) is reported, as a warning or an error per the base's `protocol.verify`.
 */
import type { CommitFacts } from '../tdd/commit.js';
import { lastTrailer } from '../tdd/trailers.js';
import type { Verdict } from '../tdd/verdict.js';
import type { ProtocolRunRecord } from '../records/protocol-record.js';
import type { Owned } from '../evidence/store.js';

/** The published runs per session id, and the anchors branches they were read from. */
export interface ProtocolRuns {
  refs: string[];
  runs: Map<string, ProtocolRunRecord[]>;
  /** The same runs with who published each (only under verify.signatures). */
  owned?: Map<string, Owned<ProtocolRunRecord>[]>;
}

/** Reads the runs of `sessions` (src/anchor/reverify.ts: gatherProtocolRuns). */
export type ProtocolRunsReader = (root: string, sessions: ReadonlySet<string>) => ProtocolRuns | Promise<ProtocolRuns>;

/** Pure: true when the record does not say COMPLETE with nothing forced and no violations. */
export const runFellShort = (r: ProtocolRunRecord) =>
  r.outcome !== 'COMPLETE' || r.violations.length > 0 || r.forced.length > 0;

/** Null when the commit was made under no session or its session published no run. */
export function checkProtocolRun(commit: CommitFacts, runs: ProtocolRuns, level: 'warn' | 'error'): Verdict | null {
  if (commit.kind === 'merge') return null;
  const session = lastTrailer(commit.trailers, 'HestAI-Session');
  if (session === null) return null;
  const list = runs.runs.get(session) ?? [];
  if (list.length === 0) return null;
  // One run may be published more than once (an end refused as INCOMPLETE, then a later end): the latest
  // record of each run (by its start) decides.
  const latest = new Map<string, ProtocolRunRecord>();
  for (const r of list) {
    const seen = latest.get(r.started_at);
    if (!seen || r.ended_at > seen.ended_at) latest.set(r.started_at, r);
  }
  const short = [...latest.values()].filter(runFellShort);
  if (short.length === 0)
    return {
      rule: 'protocol',
      clause: 'protocol.verify',
      status: 'pass',
      message: `session ${session}'s protocol run ended COMPLETE with every MUST gate held`,
    };
  const r = short[short.length - 1]!;
  const skipped = r.forced.length > 0 ? r.forced : r.violations.map((v) => `${v.phase}/${v.requirement}`);
  return {
    rule: 'protocol',
    clause: 'protocol.verify',
    status: level === 'error' ? 'fail' : 'warn',
    message:
      `commit ${commit.sha.slice(0, 7)} was made under session ${session}, whose protocol run ended ${r.outcome}` +
      ` with ${r.violations.length} violation(s)${skipped.length > 0 ? ` (forced past: ${skipped.join(', ')})` : ''}` +
      ` (protocol.verify: ${level}). hint: review the skipped requirements in the change; to judge it differently, the base's .hestai_workspace.yaml sets protocol.verify (off, warn, error)`,
  };
}
