import { systemClock } from '../clock.js';
import { countCommits, GitStreamError, streamCommits } from '../git/log-stream.js';
import { judgeBatch, judgingState } from './judge-batch.js';
import { gitFailure, planRun, readPolicy, refuseShallowRange } from './plan.js';
import type { PolicyChange } from './policy.js';
import { batchReader, type BatchOrder, type ReadBatch } from './read-batch.js';
import { reportOrder } from './report-order.js';
import { WORKSPACE_CONFIG_FILE } from '../paths.js';
import type { CommitReport, VerifyDeps, VerifyInput, VerifyRun } from './run.js';
import type { EvidenceWarning } from '../evidence/store.js';

export type { CommitReport, VerifyDeps, VerifyInput } from './run.js';

/** The verify report (docs/design.md §7); `errors`/`warnings` count fail/warn verdicts. */
export interface VerifyReport {
  ok: boolean;
  /** `base`: where the base came from (--from, the event, origin/HEAD); `policy`: the commit whose config judged. */
  range: {
    from: string | null;
    to: string;
    base?: string;
    policy?: string;
    /** The file that judged, `<policy7>:.hestai_workspace.yaml`; null when the policy commit has none (the defaults). */
    policy_file?: string | null;
    /** Why that commit is the policy: `the base, from <where the base came from>`, or `--policy`. */
    policy_source?: string;
  };
  commits: CommitReport[];
  /** Policy keys (tdd.*, verify.*, anchors.*, anchor.*, freshness.*) the branch changes; each is a warning. */
  policy_changes: PolicyChange[];
  /** Whether the range's commits are already on the default branch (their history cannot be reordered). */
  where?: 'branch' | 'default-branch';
  /** What reading hestai/anchors found (a deleted or changed record, a blob over the cap); each is a warning. */
  evidence_warnings?: EvidenceWarning[];
  errors: number;
  warnings: number;
}

/** What the stream of commit reports is told before the first one. */
export interface VerifyStart {
  range: VerifyReport['range'];
  /** How many commit reports follow. */
  count: number;
}

/** Receives the reports of {@link verifyStream}, one commit at a time, in the order of the range. */
export interface VerifySink {
  start(head: VerifyStart): void;
  commit(report: CommitReport): void;
}

/** The verify report without its commits (they went to the sink). */
export type VerifySummary = Omit<VerifyReport, 'commits'> & { count: number };

export async function verifyRange(
  input: VerifyInput,
  deps: VerifyDeps = { clock: systemClock },
): Promise<VerifyReport> {
  const commits: CommitReport[] = [];
  const { count: _count, ...summary } = await verifyStream(input, deps, {
    start: () => undefined,
    commit: (c) => commits.push(c),
  });
  return { ...summary, commits };
}

/**
 * {@link verifyRange} as a stream (issue 27): the range's `git log` is read as git writes it and judged in
 * batches; each commit's report goes to `sink` once it can no longer change, and only the state later
 * commits need is kept (test-first's lines of history, the published evidence of the batch at hand).
 */
export async function verifyStream(input: VerifyInput, deps: VerifyDeps, sink: VerifySink): Promise<VerifySummary> {
  const policy = await readPolicy(input);
  const { workspace, range } = policy;
  const gitFailed = gitFailure(workspace, range);
  // Counted by git while the rest is prepared; the count is the first thing the sink is told.
  const counting = countCommits(workspace.root, range.revisions);
  counting.catch(() => undefined); // awaited below; never an unhandled rejection
  await refuseShallowRange(workspace.root, range);
  const { run, protocol } = await planRun(policy, input, deps, gitFailed);
  deps.evidence?.exclude(range.from === null ? [] : [range.from]);
  if (run.signatures !== 'off') deps.evidence?.signers?.(run.allowedSigners);
  // The order (parents first), each commit's number of children and its message come from one
  // `git rev-list`, started now, walking the range while git counts it; each batch's files are read by a
  // `git log` of its own, so neither verify nor git holds the range.
  const orders = streamCommits(workspace.root, run.revisions, deps.batch);
  const firstOrder = orders.next();
  firstOrder.catch(() => undefined); // awaited below; never an unhandled rejection
  const counted = await counting;
  if ('error' in counted) {
    await orders.return(undefined);
    throw gitFailed(counted.error);
  }
  const reported = {
    from: range.from,
    to: range.to,
    base: policy.baseSource,
    policy: policy.policyRev,
    policy_file: policy.policyText === null ? null : `${policy.policyRev.slice(0, 7)}:${WORKSPACE_CONFIG_FILE}`,
    policy_source: input.policy === undefined ? `the base, from ${policy.baseSource}` : '--policy',
  };
  sink.start({ range: reported, count: counted.count });
  const out = reportOrder(sink, protocol, policy.changes.length);
  await judgeBatches(run, orders, firstOrder, out.emit);
  out.finish();
  const evidence = deps.evidence?.warnings() ?? [];
  return {
    ok: out.counts.errors === 0,
    range: reported,
    policy_changes: policy.changes,
    where: run.where,
    ...(evidence.length > 0 ? { evidence_warnings: evidence } : {}),
    errors: out.counts.errors,
    warnings: out.counts.warnings + evidence.length,
    count: counted.count,
  };
}

/**
 * Judges the walk batch by batch, in order, with two batches read ahead of the one judged, so git reads while
 * node judges even when a batch takes git longer to read than node to judge (flat folders). Closes the walk.
 */
async function judgeBatches(
  run: VerifyRun,
  orders: AsyncGenerator<BatchOrder, void, undefined>,
  firstOrder: Promise<IteratorResult<BatchOrder, void>>,
  emit: (report: CommitReport) => void,
): Promise<void> {
  const reader = batchReader(run);
  const state = judgingState(run);
  try {
    const ahead: Promise<ReadBatch>[] = [];
    let next = await firstOrder;
    const fill = async () => {
      while (ahead.length < 2 && !next.done) {
        ahead.push(reader.read(next.value));
        next = await orders.next();
      }
    };
    await fill();
    while (ahead.length > 0) {
      const read = await ahead.shift()!;
      await fill();
      await judgeBatch(run, state, read, reader.related(), emit);
    }
  } catch (error) {
    if (error instanceof GitStreamError) throw run.gitFailed(error.stderr);
    throw error;
  } finally {
    await orders.return(undefined);
  }
}
