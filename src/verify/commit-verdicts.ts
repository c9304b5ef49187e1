import type { LogCommit } from '../git/parse.js';
import { checkHeader } from '../tdd/header-rule.js';
import type { CommitFacts } from '../tdd/commit.js';
import type { TddVerdict } from '../tdd/rule.js';
import type { Verdict } from '../tdd/verdict.js';
import { adoptionVerdict } from './adoption.js';
import { checkAnchor, FULL_DIGEST, type AnchorEvidence } from './anchor-rule.js';
import { checkReceipt } from './receipt-rule.js';
import { receivedAt, type ReceiptTimes } from './receipts.js';
import { lastTrailer } from '../tdd/trailers.js';
import { DEFAULTS } from '../config/defaults.js';
import type { Backdating } from './committer-time.js';
import { checkMerge, type MergeEvidence } from './merge-rule.js';
import { checkProtocolRun, type ProtocolRuns } from './protocol-run-rule.js';
import { queryKey } from './record-ancestry.js';
import { redGreenVerdict, runAtCommit } from './red-green.js';
import type { VerifyRun } from './run.js';
import { checkAttribution, checkBypass, checkClock, checkTrailers } from './trailer-rules.js';
import { checkSignature, commitOwner, unownedRuns } from './signature-rule.js';

/** What a batch's commits are judged with beyond their own facts, gathered once per batch (src/verify/judge-batch.ts). */
export interface BatchFindings {
  tdd: ReadonlyMap<string, TddVerdict>;
  /** The adoption commits, each with its parent (src/verify/adoption.ts). */
  adoptions: ReadonlyMap<string, string | null>;
  evidence: AnchorEvidence;
  runs: ProtocolRuns | null;
  /** The cited records' HEADs in their commit's history, as queryKeys (src/verify/cited-heads.ts). */
  covered: ReadonlySet<string>;
  backdated: ReadonlyMap<string, Backdating>;
  merges: ReadonlyMap<string, MergeEvidence>;
  /** Whether the base's policy lets a merge regenerate a path (verify.merge_regenerated). */
  regenerated: (path: string) => boolean;
  /** The server's receive times (verify.receipts on), else null. */
  receipts: BatchReceipts | null;
  /** Under verify.signatures: the patch-id of each commit no coverage record lists by id. */
  patchIds: ReadonlyMap<string, string>;
}

/** The receive times, with those of the records the batch's anchors name, by digest. */
export type BatchReceipts = ReceiptTimes & { records: ReadonlyMap<string, number> };

/** `verify.exempt`: a commit that passed test-first only through `TDD-Exempt` is allowed, warned about or an error. */
export function exemptVerdict(t: TddVerdict, policy: 'allow' | 'warn' | 'error'): Verdict {
  const clause = t.clause ? { clause: t.clause } : {};
  if (t.exempt === null) {
    const pairings = t.pairings.length > 0 ? { paired_with: t.pairings } : {};
    const squash = t.squash_of ? { squash_of: t.squash_of } : {};
    return { rule: t.rule, status: t.status, message: t.message, ...clause, ...pairings, ...squash };
  }
  const status = policy === 'allow' ? 'pass' : policy === 'warn' ? 'warn' : 'fail';
  return { rule: t.rule, status, message: `${t.message} (verify.exempt: ${policy})`, ...clause };
}

/** A bypassed commit's test-first verdict (a new object per report: a report's verdicts are its own). */
const bypassed = (): Verdict => ({
  rule: 'test-first',
  status: 'skip',
  message: 'bypassed (HestAI-Bypass): not judged; see the bypass verdict',
  clause: 'docs/design.md §7 (verify.bypass)',
});

/** The anchor verdict: the adoption commit carries no trailers (no session can be anchored before it). */
function anchorVerdict(run: VerifyRun, c: LogCommit, f: CommitFacts, found: BatchFindings): Verdict | null {
  const adoption = found.adoptions.get(f.sha);
  if (adoption !== undefined) return adoptionVerdict('anchor', adoption);
  return checkAnchor(
    f,
    {
      committerDate: c.committerDate,
      headCovered: (head) => found.covered.has(queryKey({ sha: f.sha, head })),
      backdated: found.backdated.get(f.sha) ?? null,
    },
    found.evidence,
    run.anchorPolicy,
  );
}

/** The receipt verdict (verify.receipts): when the server received the commit, and its anchor's record. */
function receiptVerdict(run: VerifyRun, f: CommitFacts, r: BatchReceipts, evidence: AnchorEvidence): Verdict | null {
  const digest = FULL_DIGEST.exec(lastTrailer(f.trailers, 'HestAI-Anchor') ?? '')?.[1];
  const record = digest === undefined ? null : (evidence.records.get(digest)?.record ?? null);
  const anchor = record === null ? null : { record, received: r.records.get(digest!) ?? null };
  return checkReceipt({
    sha: f.sha,
    level: run.config.verify.receipts === 'required' ? 'required' : 'warn',
    received: receivedAt(r, f.sha),
    anchor,
    validHours: run.anchorPolicy.validHours ?? DEFAULTS.anchor.valid_hours,
  });
}

/** The attribution verdict (commit.attribution), from the agent the anchor's proof record names. */
function attributionVerdict(run: VerifyRun, f: CommitFacts, evidence: AnchorEvidence): Verdict | null {
  const digest = FULL_DIGEST.exec(lastTrailer(f.trailers, 'HestAI-Anchor') ?? '')?.[1];
  const record = digest === undefined ? null : (evidence.records.get(digest)?.record ?? null);
  return record === null ? null : checkAttribution(f, record.agent, run.config.commit.attribution);
}

/** --red-green: the paired test commit's run must fail and this commit's pass, with the policy's test command. */
function redGreen(run: VerifyRun, f: CommitFacts, t: TddVerdict): Verdict {
  const testSha = t.pairedWith[t.pairedWith.length - 1]!;
  const command = run.config.tdd.test_command;
  return redGreenVerdict(
    testSha,
    f.sha,
    runAtCommit(run.root, testSha, command, { env: run.commandEnv }),
    runAtCommit(run.root, f.sha, command, { env: run.commandEnv }),
    command,
  );
}

/** The protocol runs that count: under verify.signatures: required, only those the session's owner signed. */
function ownersRuns(run: VerifyRun, f: CommitFacts, found: BatchFindings): ProtocolRuns {
  const runs = found.runs!;
  const session = lastTrailer(f.trailers, 'HestAI-Session');
  if (run.signatures !== 'required' || !runs.owned || session === null) return runs;
  const owner = commitOwner(f, found.evidence);
  const ignored = new Set(unownedRuns(runs.owned.get(session) ?? [], owner).map((r) => r.value));
  if (ignored.size === 0) return runs;
  return { ...runs, runs: new Map([[session, (runs.runs.get(session) ?? []).filter((r) => !ignored.has(r))]]) };
}

/**
 * One commit's verdicts, in the order reports show them: header, test-first (or its bypass), trailers,
 * anchor, protocol run, merge, bypass, clock, and with --red-green the RED/GREEN runs.
 */
export function commitVerdicts(run: VerifyRun, c: LogCommit, f: CommitFacts, found: BatchFindings): Verdict[] {
  const { config } = run;
  const adoption = found.adoptions.get(f.sha);
  const verdicts: Verdict[] = [checkHeader(f, config.commit, run.where)];
  const t = found.tdd.get(f.sha);
  verdicts.push(t ? exemptVerdict(t, config.verify.exempt) : bypassed());
  if (config.verify.trailers !== 'off')
    verdicts.push(
      adoption !== undefined ? adoptionVerdict('trailers', adoption) : checkTrailers(f, config.verify.trailers),
    );
  if (run.anchorsLevel !== 'off') {
    const anchor = anchorVerdict(run, c, f, found);
    if (anchor) verdicts.push(anchor);
  }
  if (found.receipts !== null && adoption === undefined) {
    const receipt = receiptVerdict(run, f, found.receipts, found.evidence);
    if (receipt) verdicts.push(receipt);
  }
  if (run.signatures !== 'off') {
    const signature = checkSignature(
      f,
      { evidence: found.evidence, runs: found.runs?.owned ?? null, patchIds: found.patchIds },
      run.signatures,
    );
    if (signature) verdicts.push(signature);
  }
  if (found.runs !== null && run.protocolLevel !== 'off') {
    const protocolRun = checkProtocolRun(f, ownersRuns(run, f, found), run.protocolLevel);
    if (protocolRun) verdicts.push(protocolRun);
  }
  if (c.parents.length > 1) verdicts.push(checkMerge(f.sha, found.merges.get(f.sha)!, found.regenerated));
  const attribution = adoption === undefined ? attributionVerdict(run, f, found.evidence) : null;
  if (attribution) verdicts.push(attribution);
  const bypass = checkBypass(f, config.verify.bypass, c.message);
  if (bypass) verdicts.push(bypass);
  const clock = checkClock(f);
  if (clock) verdicts.push(clock);
  if (run.redGreen && t && t.status === 'pass' && t.pairedWith.length > 0) verdicts.push(redGreen(run, f, t));
  return verdicts;
}
