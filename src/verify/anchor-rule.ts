/**
 * The `anchor` verdict of `hestai verify` (pure): does the commit's `HestAI-Anchor` name a published
 * proof record that hashes to it, belongs to the commit's session, passes the RAPH v4.0 rules at its
 * recorded HEAD, and was fresh (or acknowledged) when the commit was made?
 */
import type { CommitFacts } from '../tdd/commit.js';
import { lastTrailer } from '../tdd/trailers.js';
import type { Verdict } from '../tdd/verdict.js';
import type { ProofEvent, ProofRecord } from '../records/proof-record.js';
import { ageHoursAt, isOlderAt } from '../records/freshness.js';
import { ackCovers } from '../records/session.js';
import { COMMITTER_SKEW_HOURS, type Backdating } from './committer-time.js';
import { DEFAULTS } from '../config/defaults.js';
import type { Owned, Ownership } from '../evidence/store.js';
import type { CoverageRecord } from '../evidence/schemas.js';

/** What verify learned about one digest. */
export interface RecordEvidence {
  digest: string;
  /** Why the record cannot be used (not found, wrong hash, not a record), or null. */
  problem: string | null;
  record: ProofRecord | null;
  /** The recorded HEAD is not in this clone (shallow or partial fetch). */
  headMissing: boolean;
  /** RAPH v4.0 rule failures re-run at the recorded HEAD (`RULE_ID: message`). */
  ruleErrors: string[];
  /** Who published the record (only under verify.signatures). */
  ownership?: Ownership;
}

export interface AnchorEvidence {
  /** The anchors branches found (empty: none in this clone). */
  refs: string[];
  records: Map<string, RecordEvidence>;
  /** Events per session id. */
  events: Map<string, ProofEvent[]>;
  /** Coverage records per session id, with who published each (only under verify.signatures). */
  coverage?: Map<string, Owned<CoverageRecord>[]>;
}

/** Reads the evidence for a range (src/anchor/reverify.ts: gatherAnchorEvidence). */
export type AnchorEvidenceReader = (
  root: string,
  digests: ReadonlySet<string>,
  sessions: ReadonlySet<string>,
) => AnchorEvidence | Promise<AnchorEvidence>;

export interface AnchorPolicy {
  /** `verify.anchors` (not `off`: then the rule is not run). */
  level: 'warn' | 'error';
  /** `anchor.required`: a commit without a `HestAI-Anchor` trailer is a problem. */
  required: boolean;
  /** `anchors.publish`: false means the records are never published and cannot be checked. */
  publish: boolean;
  /** `freshness.max_age_hours`. */
  maxAgeHours: number;
  /** `anchor.valid_hours`: a record covers commits made up to this long after `anchored_at` (default: DEFAULTS). */
  validHours?: number;
}

export const FULL_DIGEST = /^sha256:([0-9a-f]{64})$/;
const FETCH =
  'git fetch origin hestai/anchors:refs/remotes/origin/hestai/anchors (in GitHub Actions: actions/checkout with fetch-depth: 0 fetches it)';
const REANCHOR =
  'make the commit again from an anchored session through the hooks (clock-in, anchor, commit; then git push publishes the record), or mark an intended exception with HESTAI_BYPASS';

/** Seconds since the epoch of an ISO instant (NaN when unparsable). */
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** When and where a commit was made, beside its facts (a separate object: verify makes no copy of the facts per commit). */
export interface CommitPlace {
  committerDate: string;
  /** Whether the record's HEAD is an ancestor of this commit (src/verify/record-ancestry.ts); absent when not asked. */
  headCovered?: (head: string) => boolean;
  /** The first-parent ancestor this commit was committed before by more than the skew (src/verify/committer-time.ts). */
  backdated?: Backdating | null;
}

/** What is wrong with an anchor, and what to do about it. */
type Problem = readonly [problem: string, remedy: string];

function badAnchor(sha: string, digest: string | null, [problem, remedy]: Problem, level: 'warn' | 'error'): Verdict {
  return {
    rule: 'anchor',
    clause: 'verify.anchors',
    status: level === 'error' ? 'fail' : 'warn',
    message: `commit ${sha.slice(0, 7)}${digest ? `, anchor ${digest}` : ''}: ${problem} (verify.anchors: ${level}). hint: ${remedy}`,
  };
}

/** The record against the commit: its session, its HEAD (in this clone, an ancestor of the commit) and its rules there. */
function recordProblem(commit: CommitFacts, place: CommitPlace, e: RecordEvidence, r: ProofRecord): Problem | null {
  const session = lastTrailer(commit.trailers, 'HestAI-Session');
  if (session !== r.session_id)
    return [
      `the record belongs to session ${r.session_id}, the commit says HestAI-Session ${session ?? '(none)'}`,
      REANCHOR,
    ];
  if (e.headMissing)
    return [
      `the recorded HEAD ${r.head} is not in this clone, so the citations cannot be checked`,
      `fetch the full history and the anchors branch: git fetch --unshallow; ${FETCH}`,
    ];
  // A record proves the tree it was anchored at: it covers only commits that descend from it (issue 24).
  if (r.head !== null && place.headCovered && !place.headCovered(r.head))
    return [
      `the record's HEAD ${r.head.slice(0, 7)} is not an ancestor of the commit: the record proves a tree this commit does not descend from (a made-up or unrelated HEAD, or a history rewritten after anchoring)`,
      `${REANCHOR}; after rewriting history (rebase, amend), anchor again`,
    ];
  if (e.ruleErrors.length > 0)
    return [
      `the anchor fails the RAPH v4.0 rules at its recorded HEAD ${r.head?.slice(0, 7) ?? ''}: ${e.ruleErrors.join('; ')}`,
      REANCHOR,
    ];
  return null;
}

/** When the commit was made (`committed`, seconds): after the anchor, within its validity window, not dated back. */
function timeProblem(place: CommitPlace, r: ProofRecord, committed: number, policy: AnchorPolicy): Problem | null {
  if (!(committed >= seconds(r.anchored_at)))
    return [`committed at ${place.committerDate}, before the anchor was validated (${r.anchored_at})`, REANCHOR];
  // A record's validity window: refresh and ack events keep a context fresh, never a record valid for longer.
  const validHours = policy.validHours ?? DEFAULTS.anchor.valid_hours;
  if (isOlderAt(r.anchored_at, committed * 1000, validHours))
    return [
      `committed at ${place.committerDate}, ${ageHoursAt(r.anchored_at, committed * 1000).toFixed(1)} h after the anchor was validated (${r.anchored_at}): outside the record's validity window (anchor.valid_hours ${validHours}; refreshes and acknowledgments do not extend it)`,
      `anchor the session again before committing (hestai anchor --stage identity --token ${r.session_id}, then the context and proof stages), then push`,
    ];
  // Committer time does not go back along first-parent history beyond the skew: a commit dated back
  // into an older record's window (its trailers copied from a published commit) fails (issue 24).
  if (place.backdated)
    return [
      `committed at ${place.committerDate}, ${place.backdated.hours.toFixed(1)} h before ${place.backdated.ancestor.slice(0, 7)} (committed ${place.backdated.ancestorDate}) in its first-parent history: committer time may go back at most ${COMMITTER_SKEW_HOURS} h (a commit cannot be made before its parent; a date set back cannot claim an older record's window)`,
      `set the machine's clock right and make the commit again (git commit --amend --no-edit sets a new committer date) from an anchored session, or ${REANCHOR}`,
    ];
  return null;
}

/**
 * The session's context when committed: generated (or refreshed, by a published event) within
 * freshness.max_age_hours, or covered by an acknowledgment (one covers one freshness period from when it was
 * made: the hooks' rule, ackCovers).
 */
function freshnessProblem(
  r: ProofRecord,
  events: readonly ProofEvent[],
  committed: number,
  maxAgeHours: number,
): Problem | null {
  let generation = r.context_generated_at;
  for (const ev of events) {
    if (
      ev.event === 'refresh' &&
      ev.context_generated_at &&
      seconds(ev.at) <= committed &&
      ev.context_generated_at > generation
    )
      generation = ev.context_generated_at;
  }
  if (!isOlderAt(generation, committed * 1000, maxAgeHours)) return null;
  const ageHours = ageHoursAt(generation, committed * 1000);
  const acks = [
    ...r.acknowledgments,
    ...events
      .filter((ev) => ev.event === 'ack')
      .map((ev) => ({ at: ev.at, context_generated_at: ev.context_generated_at ?? '', reason: ev.reason ?? '' })),
  ];
  if (acks.some((a) => ackCovers(a, generation, committed * 1000, maxAgeHours))) return null;
  return [
    `the session's context (generated ${generation}) was ${ageHours.toFixed(1)} h old when committed, over freshness.max_age_hours ${maxAgeHours}, and no acknowledgment made within the ${maxAgeHours} h before the commit covers it`,
    'run hestai refresh or hestai ack --reason in that session before committing, then push (the pre-push hook publishes it)',
  ];
}

/** Every anchor reset of the session up to the commit (a person lifted a terminal handshake): named, never hidden. */
function resetNote(r: ProofRecord, events: readonly ProofEvent[], committed: number): string {
  const resets = new Map<string, string | null>();
  for (const x of [...r.resets, ...events.filter((ev) => ev.event === 'reset')])
    if (seconds(x.at) <= committed) resets.set(x.at, x.reason ?? resets.get(x.at) ?? null);
  if (resets.size === 0) return '';
  return `; after ${resets.size} anchor reset${resets.size === 1 ? '' : 's'} (${[...resets]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([at, reason]) => `${at}: ${reason ?? 'no reason given'}`)
    .join('; ')})`;
}

const skipped = (message: string): Verdict => ({ rule: 'anchor', clause: 'verify.anchors', status: 'skip', message });

export function checkAnchor(
  commit: CommitFacts,
  place: CommitPlace,
  evidence: AnchorEvidence,
  policy: AnchorPolicy,
): Verdict | null {
  if (commit.kind === 'merge') return null;
  if (lastTrailer(commit.trailers, 'HestAI-Bypass') !== null)
    return skipped('bypassed (HestAI-Bypass): see the bypass verdict');
  const bad = (digest: string | null, problem: Problem) => badAnchor(commit.sha, digest, problem, policy.level);
  const trailer = lastTrailer(commit.trailers, 'HestAI-Anchor');
  if (trailer === null) {
    if (!policy.required) return skipped('no HestAI-Anchor trailer; anchors are not required (anchor.required: false)');
    return bad(null, [
      'no HestAI-Anchor trailer: the commit was not made by an anchored session through the hooks (e.g. git commit --no-verify)',
      REANCHOR,
    ]);
  }
  const m = FULL_DIGEST.exec(trailer);
  if (!m)
    return bad(trailer, [
      `HestAI-Anchor "${trailer}" is not the digest of a published proof record (sha256:<64 hex>)`,
      REANCHOR,
    ]);
  if (!policy.publish) {
    return {
      rule: 'anchor',
      clause: 'verify.anchors',
      status: 'warn',
      message: `commit ${commit.sha.slice(0, 7)}, anchor ${trailer}: anchors cannot be checked: anchors.publish is false, so no proof records are published. hint: set anchors.publish: true (the default) and push again`,
    };
  }
  if (evidence.refs.length === 0)
    return bad(trailer, [
      'no anchor proof records in this clone (no hestai/anchors branch), so the anchor cannot be checked',
      `fetch them: ${FETCH}; if they were never pushed, push from the machine that anchored (its pre-push hook publishes them)`,
    ]);
  const e = evidence.records.get(m[1]!);
  if (!e || e.problem !== null || e.record === null)
    return bad(trailer, [
      e?.problem ?? 'no proof record for this digest',
      `a record that was never published (or a made-up trailer) cannot pass: push from the machine that anchored, or ${REANCHOR}`,
    ]);
  const r = e.record;
  const committed = seconds(place.committerDate);
  const events: readonly ProofEvent[] = evidence.events.get(r.session_id) ?? [];
  const problem =
    recordProblem(commit, place, e, r) ??
    timeProblem(place, r, committed, policy) ??
    freshnessProblem(r, events, committed, policy.maxAgeHours);
  if (problem !== null) return bad(trailer, problem);
  return {
    rule: 'anchor',
    clause: 'verify.anchors',
    status: 'pass',
    message: `anchor ${trailer.slice(0, 19)}… of session ${r.session_id} (${r.role}, ${r.tier}) re-validated at ${r.head?.slice(0, 7)}${resetNote(r, events, committed)}`,
  };
}
