import { growGraph, ancestryGraph, type AncestryGraph } from './record-ancestry.js';
import { adoptionCommits } from './adoption.js';
import { batchBackdating, type DatingMarks } from './batch-dating.js';
import { coveredHeads } from './cited-heads.js';
import { commitVerdicts, type BatchFindings, type BatchReceipts } from './commit-verdicts.js';
import type { AnchorEvidence } from './anchor-rule.js';
import { recordTimes, type ReceiptTimes } from './receipts.js';
import type { Backdating } from './committer-time.js';
import { logFacts } from './log-facts.js';
import { batchMergeEvidence } from './merge-evidence.js';
import { globToRegExp } from '../tdd/glob.js';
import { owned, type ReadBatch } from './read-batch.js';
import type { CommitReport, VerifyRun } from './run.js';
import { passSquashes } from './squash-pass.js';
import { judgeTestFirst } from './test-first-step.js';
import { commitPatchIds } from '../git/change-records.js';
import type { CommitFacts } from '../tdd/commit.js';

/** What judging keeps from one batch to the next. */
export interface JudgingState extends DatingMarks {
  /**
   * A cited record's HEAD is looked for in the commits read so far (sha and parents only, kept while anchors
   * are checked): parents come first, so they hold every HEAD a commit of this batch descends from within
   * the range's history, and git is asked only past them. Null when no record is read.
   */
  graph: AncestryGraph | null;
}

export function judgingState(run: VerifyRun): JudgingState {
  return { highWater: new Map(), marksLeft: new Map(), graph: run.readsRecords ? ancestryGraph() : null };
}

/** The receive times, and those of the records this batch's anchors name (verify.receipts). */
async function batchReceipts(run: VerifyRun, r: ReceiptTimes, evidence: AnchorEvidence): Promise<BatchReceipts> {
  const digests = [...evidence.records].filter(([, e]) => e.record !== null).map(([d]) => d);
  return { ...r, records: recordTimes(run.root, r, digests) };
}

const NOT_BACKDATED: ReadonlyMap<string, Backdating> = new Map();

/**
 * Judges one batch read by git, in named steps: its facts; test-first (reading deferred files when asked);
 * committer time; then, for the commits in the range, the squashes that pass, the published evidence they
 * cite, the cited HEADs' ancestry, the merges and the adoption commits; and each commit's verdicts, sent to
 * `emit` in order.
 */
export async function judgeBatch(
  run: VerifyRun,
  state: JudgingState,
  read: ReadBatch,
  related: boolean,
  emit: (report: CommitReport) => void,
): Promise<void> {
  const childCount = new Map(read.order.map((o) => [o.commit.sha, o.children]));
  if (state.graph !== null)
    growGraph(
      state.graph,
      read.batch.map((c) => ({ sha: owned(c.sha), parents: c.parents.map(owned) })),
    );
  const batch = [...read.batch];
  const facts = logFacts(run.root, batch, run.config, { earnedReverts: true, trailers: read.trailers });
  const tdd = await judgeTestFirst(run, batch, facts, read.deferred, childCount);
  const backdated = run.readsRecords ? batchBackdating(run.root, batch, state, childCount) : NOT_BACKDATED;
  const inRange = batch.flatMap((c, i) => (run.outside.has(c.sha) ? [] : [{ c, f: facts[i]! }]));
  if (inRange.length === 0) return;
  if (run.where === 'default-branch') await passSquashes(run, inRange, tdd);
  const { evidence, runs } = await read.published;
  const covered = coveredHeads(run.root, state.graph ?? batch, inRange, evidence);
  // Merges: from git's remerge of each (read with the batch), one cat-file for the resolved files of all.
  const merges = batchMergeEvidence(
    run.root,
    inRange.flatMap(({ c }) => (c.parents.length > 1 ? [{ sha: c.sha, parents: c.parents }] : [])),
    read.remerges,
    run.config.verify.unrelated_histories,
    related,
  );
  const adoptions = await adoptionCommits(
    run.root,
    inRange.map(({ c }) => c),
    run.policyCommit,
  );
  const receipts = run.receipts === null ? null : await batchReceipts(run, await run.receipts(), evidence);
  const patchIds = run.signatures === 'off' ? new Map<string, string>() : unlistedPatchIds(run.root, inRange, evidence);
  const globs = run.config.verify.merge_regenerated.map(globToRegExp);
  const regenerated = (p: string) => globs.some((g) => g.test(p));
  const found: BatchFindings = {
    tdd,
    adoptions,
    evidence,
    runs,
    covered,
    backdated,
    merges,
    regenerated,
    receipts,
    patchIds,
  };
  for (const { c, f } of inRange)
    emit({ sha: f.sha, header: f.header, files: c.files, verdicts: commitVerdicts(run, c, f, found) });
}

/**
 * Under verify.signatures, the `git patch-id` of each commit citing a session that no coverage record of that
 * session lists by id (a rebased commit, or copied trailers): one `git log -p` and one `git patch-id` per batch.
 */
function unlistedPatchIds(
  root: string,
  inRange: readonly { f: CommitFacts }[],
  evidence: AnchorEvidence,
): Map<string, string> {
  const listed = new Set<string>();
  for (const list of evidence.coverage?.values() ?? [])
    for (const c of list) for (const x of c.value.commits) listed.add(x.id);
  const asked = inRange
    .map(({ f }) => f)
    .filter((f) => f.kind !== 'merge' && !listed.has(f.sha) && f.trailers.some((t) => /^hestai-session$/i.test(t.key)))
    .map((f) => f.sha);
  return commitPatchIds(root, asked);
}
