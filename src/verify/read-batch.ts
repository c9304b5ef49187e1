import type { WorkspaceConfig } from '../config/schema.js';
import { GitError } from '../git/exec.js';
import { logFiles, remergeDiffs, rootCommits, type Remerge } from '../git/log-stream.js';
import type { LogCommit } from '../git/parse.js';
import { WORKSPACE_CONFIG_FILE } from '../paths.js';
import { parseConventionalHeader } from '../tdd/header.js';
import { isReleaseHeader } from '../tdd/ignore.js';
import { messageHeader } from '../tdd/message.js';
import type { Trailer } from '../tdd/trailers.js';
import { childrenRead } from '../util/children.js';
import { PROTOCOL_FILE } from './protocol-policy.js';
import { publishedFor, type Published } from './published.js';
import type { VerifyRun } from './run.js';

/** One batch of the walk: its commits in order with their number of children. */
export type BatchOrder = readonly { commit: LogCommit; children: number }[];

/** A batch as read by git, ready to be judged (src/verify/judge-batch.ts). */
export interface ReadBatch {
  order: BatchOrder;
  batch: LogCommit[];
  /** Its commits of tdd.types whose files are read only when test-first asks for them. */
  deferred: Set<string>;
  /** git's remerge of each two-parent merge, when the history has a single root. */
  remerges: ReadonlyMap<string, Remerge>;
  /** The published evidence its commits cite, asked of git while the batch before it is judged. */
  published: Promise<Published>;
  /** The trailers parsed while asking for that evidence (the batch's facts take them). */
  trailers: ReadonlyMap<string, Trailer[]>;
}

/**
 * The changed files of a batch's commits (read by {@link streamCommits} with their messages). With `judged`
 * (the policy), the files, git's costly part (a tree diff per commit, long in flat folders), are read only for
 * the commits a verdict depends on: a test commit (test-first counts its test files, renames detected: a test
 * file only renamed does not count), a commit of `tdd.types` unless `defer` (then it is returned in `deferred`
 * and its files are read when test-first asks for them: testFirstJudge's needsPaths), a release tool's header
 * (skipped only when it changes release files), and a commit that changes the workspace config (the adoption
 * commit) or the protocol (the protocol verdict's commit): `changing`, from one path-limited `git rev-list`
 * ({@link pathChanges}), exact for a commit with one parent or none. Not a merge, whose verdict re-merges its
 * parents, unless it may change the config or the protocol against its first parent (listed in `changing`,
 * or `unsure`: its first parent is outside the walk); its files then count only when they hold one of them,
 * as if git had been asked of those two paths alone. The others report no files.
 */
export async function readBatch(
  root: string,
  commits: readonly LogCommit[],
  judged: {
    config: Pick<WorkspaceConfig, 'tdd'>;
    changing: ReadonlySet<string>;
    unsure: ReadonlySet<string>;
    defer: boolean;
  } | null,
): Promise<{ batch: LogCommit[]; deferred: Set<string> }> {
  const deferred = new Set<string>();
  const needs = (c: LogCommit) => {
    if (judged === null || judged.changing.has(c.sha) || judged.unsure.has(c.sha)) return true;
    if (c.parents.length > 1) return false;
    const header = messageHeader(c.message);
    // a release tool's header is skipped only when its files are what release tools write (src/tdd/ignore.ts)
    if (isReleaseHeader(header)) return true;
    const type = parseConventionalHeader(header)?.type;
    if (type === 'test') return true;
    if (type === undefined || !judged.config.tdd.types.includes(type)) return false;
    if (judged.defer) deferred.add(c.sha);
    return !judged.defer;
  };
  const wanted = commits.filter(needs).map((c) => c.sha);
  const files = await logFiles(root, wanted);
  if (files.size !== wanted.length)
    throw new GitError(
      ['log', '--no-walk=unsorted', '--stdin'],
      0,
      `git log --no-walk returned ${files.size} of the ${wanted.length} commits asked for`,
    );
  const policyFile = (p: string) => p === WORKSPACE_CONFIG_FILE || p === PROTOCOL_FILE;
  const batch = commits.map((c) => {
    const read = files.get(c.sha);
    if (read === undefined) return c;
    if (judged !== null && c.parents.length > 1 && !read.files.some(policyFile)) return c;
    return { ...c, files: read.files, changes: read.changes };
  });
  return { batch, deferred };
}

/** A string of its own (a sha cut out of a whole batch's `git log` text would keep that text alive). */
export const owned = (s: string): string => Buffer.from(s, 'latin1').toString('latin1');

/**
 * Reads each batch (the files its verdicts read, then its merges screened, then the evidence it cites asked
 * for) while the one before it is judged. Merges (issue 25): with a single root no two commits are unrelated,
 * and a merge git re-merges to itself exactly (one `git log --diff-merges=remerge` per batch, whatever the
 * number of merges) adds nothing; only the others are re-computed one by one. The roots are asked of git
 * once, when the first batch with merges is read, without blocking the judging: `related()` tells the answer.
 */
export function batchReader(run: VerifyRun): { read(order: BatchOrder): Promise<ReadBatch>; related(): boolean } {
  let roots: Promise<boolean> | null = null;
  let related = false;
  const singleRoot = async () => {
    roots ??= rootCommits(run.root, run.to).then((r) => (related = r.length === 1));
    return roots;
  };
  // The merges whose first parent is outside the walk (readBatch): the walk's commits are kept only while
  // they have children still to come.
  const walked = new Map<string, number>();
  const unsureOf = (order: BatchOrder) => {
    const unsure = new Set<string>();
    if (run.configChanges === null) return unsure;
    for (const { commit: c, children } of order) {
      if (c.parents.length > 1 && !walked.has(c.parents[0]!)) unsure.add(c.sha);
      childrenRead(walked, c.parents, () => undefined);
      if (children > 0) walked.set(owned(c.sha), children);
    }
    return unsure;
  };
  const readOrder = async (order: BatchOrder, unsure: ReadonlySet<string>): Promise<ReadBatch> => {
    let batch: LogCommit[];
    let deferred: Set<string>;
    try {
      ({ batch, deferred } = await readBatch(
        run.root,
        order.map((o) => o.commit),
        run.configChanges === null
          ? null
          : { config: run.config, changing: await run.configChanges, unsure, defer: run.deferFeats },
      ));
    } catch (error) {
      throw error instanceof GitError ? run.gitFailed(error.stderr.trim()) : error;
    }
    const merges = batch.filter((c) => c.parents.length === 2 && !run.outside.has(c.sha)).map((c) => c.sha);
    const remerges = merges.length > 0 && (await singleRoot()) ? await remergeDiffs(run.root, merges) : new Map();
    const trailers = new Map<string, Trailer[]>();
    const published = publishedFor(run, batch, trailers);
    published.catch(() => undefined); // awaited when the batch is judged; never an unhandled rejection
    return { order, batch, deferred, remerges, published, trailers };
  };
  return {
    read(order) {
      const reading = readOrder(order, unsureOf(order));
      reading.catch(() => undefined); // observed when its turn comes; never an unhandled rejection
      return reading;
    },
    related: () => related,
  };
}
