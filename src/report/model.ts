/**
 * The data of `hestai report` (docs/cli.md "hestai report"): verify's report untouched, plus the git facts
 * a reader needs to see it (who, when, sessions, anchors, exceptions). The renderers (html.ts,
 * markdown.ts) are pure functions of this shape. New verdict fields (e.g. `paired_with`) and new record
 * kinds (protocol runs) slot in as optional fields; nothing here decides a verdict.
 */
import type { Verdict } from '../tdd/verdict.js';
import type { ProtocolRunCommand } from '../records/protocol-record.js';
import type { PolicyChange } from '../verify/policy.js';

export type CommitShape = 'commit' | 'merge' | 'squash';

export interface ReportCommit {
  sha: string;
  header: string;
  author: string;
  authorDate: string;
  committerDate: string;
  parents: string[];
  /** A merge (2+ parents), a squash (verify's `squash_of`, or one parent and a header ending in `(#N)`), or a plain commit. */
  shape: CommitShape;
  /** `HestAI-Session` and the `HestAI-Anchor` digest (hex), when present. */
  session: string | null;
  anchor: string | null;
  /** `TDD-Exempt` and `HestAI-Bypass` reasons, when present. */
  exempt: string | null;
  bypass: string | null;
  /** The test commits verify paired this commit with, and how each relates (its test-first `paired_with`). */
  paired: { sha: string; relation: string | null }[];
  /** The branch a squash commit squashes, when verify matched it (its test-first `squash_of`). */
  squashOf: { branch: string; tip: string; commits: number; matched_by: string } | null;
  files: string[];
  /** The anchor's GATE and whether the session's protocol run ran it (null: no readable anchor). */
  gate: GateRun | null;
  /** verify's verdicts, exactly as `verify --format json` gives them. */
  verdicts: Verdict[];
}

/**
 * `passed`/`failed`/`not run`: how the run's command gate with the GATE's command ended (`by` names it; null
 * when the run has none); `named check`: a `check:NAME` GATE; `no protocol run`: the session published none.
 */
export interface GateRun {
  command: string;
  ran: ProtocolRunCommand['result'] | 'named check' | 'no protocol run';
  by: string | null;
}

/** One TENSION line of an anchor, its cited file and line range. */
export interface TensionLine {
  label: string;
  constraint: string;
  path: string;
  lines: { from: number; to: number } | null;
  state: string;
  trigger: string;
}

export interface ReportAnchor {
  digest: string;
  /** Why the record cannot be used (not published, wrong hash), or null. */
  problem: string | null;
  head: string | null;
  anchoredAt: string | null;
  contextGeneratedAt: string | null;
  tier: string | null;
  tension: TensionLine[];
  artifact: string | null;
  gate: string | null;
}

export interface SessionEvent {
  kind: 'clock-in' | 'anchor' | 'ack' | 'reset' | 'refresh';
  at: string;
  reason: string | null;
}

/** A lane of the timeline: an anchored session, or the commits of one author made without a session. */
export interface ReportSession {
  /** The session id, or null for the commits without a `HestAI-Session` trailer. */
  id: string | null;
  label: string;
  role: string | null;
  anchors: ReportAnchor[];
  events: SessionEvent[];
  commits: string[];
}

/** A protocol run published with the anchors (issue 30); `null` on the report when none are readable. */
export interface ProtocolRun {
  session_id: string;
  outcome: string;
  violations: number;
  forced: number;
  commits: string[];
  /** The run's command gates (null: its record predates them). */
  commands: ProtocolRunCommand[] | null;
}

export interface Ratio {
  count: number;
  of: number;
}

/** The figures a lead reads first; every one is counted from verify's verdicts or the git facts above. */
export interface ReportSummary {
  commits: number;
  /** Commits judged by test-first that are not test commits, and those that passed without an exemption. */
  testFirst: Ratio;
  /**
   * Non-merge commits verify asks an anchor of, and those whose anchor verdict passed; `exempt` counts the
   * commits verify skipped (the adoption commit, a bypass, anchors not required), kept out of both (null: off).
   */
  anchored: (Ratio & { exempt: number }) | null;
  sessions: number;
  errors: number;
  warnings: number;
  bypasses: number;
  exemptions: number;
  /** Protocol runs and their outcomes (null: none published). */
  protocol: { runs: number; outcomes: Record<string, number> } | null;
  /** Verdict counts per rule and status. */
  byRule: Record<string, Record<Verdict['status'], number>>;
}

export interface ReportData {
  ok: boolean;
  range: { from: string | null; to: string };
  errors: number;
  warnings: number;
  policy_changes: PolicyChange[];
  commits: ReportCommit[];
  sessions: ReportSession[];
  protocol: ProtocolRun[] | null;
  /** `https://host/owner/repo/blob/` when the remote is known, for links to cited files. */
  blobBase: string | null;
  summary: ReportSummary;
}
