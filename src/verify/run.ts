import type { Clock } from '../clock.js';
import type { WorkspaceConfig } from '../config/schema.js';
import type { TestFirstJudge } from '../tdd/rule.js';
import type { Verdict } from '../tdd/verdict.js';
import type { AnchorEvidenceReader, AnchorPolicy } from './anchor-rule.js';
import type { ProtocolRunsReader } from './protocol-run-rule.js';
import type { ChangeRecord } from '../git/change-records.js';
import type { EvidenceWarning } from '../evidence/store.js';
import type { ReceiptTimes, Receiving } from './receipts.js';

/** What verify asks of the one reader of hestai/anchors beyond the per-batch readers (src/evidence/store.ts). */
export interface EvidenceDeps {
  /** Told the range's base before the first read: the history it reaches is not the store's. */
  exclude(revisions: readonly string[]): void;
  /** Every change record ever published (the squash rule). */
  changeRecords(root: string): Promise<ChangeRecord[]>;
  /** What the reads found to warn about (deleted or changed records, blobs over the cap, malformed files). */
  warnings(): EvidenceWarning[];
  /** Told, before the first read, to check who published what against the base's allowed signers (verify.signatures). */
  signers?(allowed: string | null): void;
}

export interface VerifyInput {
  working_dir: string;
  from?: string;
  to?: string;
  /** The commit whose config is the policy, instead of the base (auditing the default branch from tdd.since). */
  policy?: string;
  /** Run the test command at each paired test commit (must fail) and feat commit (must pass). */
  red_green?: boolean;
  /** The environment: GITHUB_ACTIONS, GITHUB_EVENT_NAME and GITHUB_EVENT_PATH name the base in GitHub Actions. */
  env?: NodeJS.ProcessEnv;
  /**
   * Which commits' changed files are read: `all` (the library's default; every report lists them, as
   * `hestai report` shows them), or `judged` (the CLI's): only those a verdict depends on (test commits,
   * commits of `tdd.types` when test-first asks for them or fails or warns about them, and commits that
   * change the workspace config or the protocol); the others report no files. git's tree diff is the costly part of reading a commit (flat folders), and an object
   * missing from a commit no verdict reads is then not looked for: verify is no fsck
   * (docs/enforcement.md, "Speed"; test/integration/verify.test.ts, "when git log fails").
   */
  files?: 'all' | 'judged';
  /** `hestai receive`: the push it judges, received now (its commits have no receipt yet; verify.receipts). */
  receiving?: Receiving;
}

/** One commit's verdicts. */
export interface CommitReport {
  sha: string;
  header: string;
  /** Changed paths (for annotations). */
  files: string[];
  verdicts: Verdict[];
}

/**
 * `hestai verify`: every commit in the range gets a verdict per rule: header, test-first (judged
 * against the commits before it in the range), trailers (per `verify.trailers`), bypasses (per
 * `verify.bypass`), exemptions, and with `red_green` the RED/GREEN runs. One `git log` for the range.
 */
export interface VerifyDeps {
  clock?: Clock;
  /** Reads the anchor proof records (src/anchor/reverify.ts); required unless verify.anchors is off. */
  anchorEvidence?: AnchorEvidenceReader;
  /** Reads the published protocol runs (src/anchor/reverify.ts: gatherProtocolRuns); without it the protocol rule is not run. */
  protocolRuns?: ProtocolRunsReader;
  /** The change records and the warnings of the same reader (without it, verify opens one of its own). */
  evidence?: EvidenceDeps;
  /** Commits read and judged at a time (the memory verify holds does not grow with the range). */
  batch?: number;
}

/** What every step of a verify run reads, fixed before the first batch (src/verify/plan.ts). */
export interface VerifyRun {
  root: string;
  /** The policy: the base's workspace config (or --policy's). */
  config: WorkspaceConfig;
  /** The commit whose config judges, and whether it has one (the adoption rule). */
  policyCommit: { rev: string; hasConfig: boolean };
  /** The range's last commit. */
  to: string;
  /** The revisions walked: the range with the history test-first pairs against (src/verify/pairing-context.ts). */
  revisions: string[];
  /** The walked commits outside the range: judged for test-first's sake, reported on by no verdict. */
  outside: ReadonlySet<string>;
  where: 'branch' | 'default-branch';
  judge: TestFirstJudge;
  /** The commits that change the config or the protocol (files `judged`), or null (files `all`). */
  configChanges: Promise<ReadonlySet<string>> | null;
  /** A commit of tdd.types has its files read only when test-first asks for them (readBatch's `defer`). */
  deferFeats: boolean;
  anchorsLevel: 'off' | 'warn' | 'error';
  anchorPolicy: AnchorPolicy;
  /** Anchors are checked against published records (verify.anchors on, anchors.publish): their evidence is read, cited HEADs' ancestry and committer time judged. */
  readsRecords: boolean;
  protocolLevel: 'off' | 'warn' | 'error';
  /** The receive times of the server's receipts, read once when verify.receipts is on (src/verify/receipts.ts). */
  receipts: (() => Promise<ReceiptTimes>) | null;
  /** verify.signatures, and the base's .hestai/allowed_signers (null: none) it checks against. */
  signatures: 'off' | 'warn' | 'required';
  allowedSigners: string | null;
  anchorEvidence?: AnchorEvidenceReader;
  protocolRuns?: ProtocolRunsReader;
  evidence?: EvidenceDeps;
  /** --red-green, and the environment its commands run with. */
  redGreen: boolean;
  commandEnv: NodeJS.ProcessEnv;
  /** The usage error for a failed `git log` of the range. */
  gitFailed: (error: string) => Error;
}
