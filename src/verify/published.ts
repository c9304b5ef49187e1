import type { LogCommit } from '../git/parse.js';
import { lastTrailer, parseTrailers, type Trailer } from '../tdd/trailers.js';
import { FULL_DIGEST, type AnchorEvidence } from './anchor-rule.js';
import type { ProtocolRuns } from './protocol-run-rule.js';
import type { VerifyRun } from './run.js';

/** The published evidence a batch's commits cite. */
export interface Published {
  /** Their anchors' proof records (and their sessions' events). */
  evidence: AnchorEvidence;
  /** Their sessions' protocol runs, or null when the protocol rule is not run. */
  runs: ProtocolRuns | null;
}

/**
 * The published evidence a batch's commits cite (their anchors' proof records, their sessions' protocol
 * runs), asked of git while the batch before it is judged: the trailers are in the messages. The trailers
 * parsed go to `parsed`, for the batch's facts (logFacts) instead of parsing them again.
 */
export function publishedFor(
  run: VerifyRun,
  commits: readonly LogCommit[],
  parsed: Map<string, Trailer[]>,
): Promise<Published> {
  const sessions = new Set<string>();
  const digests = new Set<string>();
  for (const c of commits) {
    // Both keys start with `HestAI-` (any case): a message without it has neither trailer.
    if (run.outside.has(c.sha) || !/hestai-/i.test(c.message)) continue;
    const trailers = parseTrailers(c.message);
    parsed.set(c.sha, trailers);
    const s = lastTrailer(trailers, 'HestAI-Session');
    if (s) sessions.add(s);
    const m = FULL_DIGEST.exec(lastTrailer(trailers, 'HestAI-Anchor') ?? '');
    if (m) digests.add(m[1]!);
  }
  const none: AnchorEvidence = { refs: [], records: new Map(), events: new Map() };
  return Promise.all([
    run.readsRecords ? run.anchorEvidence!(run.root, digests, sessions) : none,
    // Protocol runs published by `session end` (issue 30), per protocol.verify from the base.
    run.protocolLevel !== 'off' && run.protocolRuns && sessions.size > 0 ? run.protocolRuns(run.root, sessions) : null,
  ]).then(([evidence, runs]) => ({ evidence, runs }));
}
