import { systemClock, type Clock } from '../clock.js';
import { configFromText } from '../config/load.js';
import { usageError } from '../errors.js';
import { gateEnvironment, isTrusted, TRUST_REMEDY } from '../trust/index.js';
import { fileAtCommit } from '../git/show.js';
import { policyChanges, type PolicyChange } from './policy.js';
import {
  anyCommit,
  commitSet,
  countCommits,
  firstCommitIn,
  GitStreamError,
  logFiles,
  pathChanges,
  remergeDiffs,
  type Remerge,
  rootCommits,
  streamCommits,
} from '../git/log-stream.js';
import { childrenRead } from '../util/children.js';
import { GitError } from '../git/exec.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { parseConventionalHeader } from '../tdd/header.js';
import { isReleaseHeader } from '../tdd/ignore.js';
import { messageHeader } from '../tdd/message.js';
import { checkHeader } from '../tdd/header-rule.js';
import { testFirstJudge, type TddVerdict } from '../tdd/rule.js';
import { lastTrailer, parseTrailers, type Trailer } from '../tdd/trailers.js';
import type { Verdict } from '../tdd/verdict.js';
import { resolveWorkspace } from '../workspace.js';
import { resolveBase, resolvePolicyCommit, resolveRange, shallowRangeError, type VerifyRange } from './range.js';
import { pairingRevisions } from './pairing-context.js';
import { squashEvidence } from './squash-evidence.js';
import type { LogCommit } from '../git/parse.js';
import { resolveCommit } from '../git/repo.js';
import { redGreenVerdict, runAtCommit } from './red-green.js';
import { logFacts } from './log-facts.js';
import { bypassLine, checkBypass, checkClock, checkTrailers } from './trailer-rules.js';
import { checkAnchor, FULL_DIGEST, type AnchorEvidence, type AnchorEvidenceReader } from './anchor-rule.js';
import { checkMerge, inventedLines, type MergeEvidence } from './merge-rule.js';
import { automaticMerge, differingPaths, scratchMergeCommit } from '../git/merge.js';
import { ancestorsAmong, catFileBatch } from '../git/anchors.js';
import {
  ancestryGraph,
  coveredQueries,
  growGraph,
  queryKey,
  type AncestryGraph,
  type AncestryQuery,
} from './record-ancestry.js';
import { backdatedCommits, carryMarks, type Backdating, type HighWater } from './committer-time.js';
import { commitMeta } from '../git/commit-meta.js';
import { mergeBase } from '../git/repo.js';
import { PROTOCOL_FILE, protocolPolicyVerdict } from './protocol-policy.js';
import { checkProtocolRun, type ProtocolRuns, type ProtocolRunsReader } from './protocol-run-rule.js';
import { adoptionCommits, adoptionVerdict } from './adoption.js';
import { WORKSPACE_CONFIG_FILE } from '../paths.js';

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
}

/** One commit's verdicts. */
export interface CommitReport {
  sha: string;
  header: string;
  /** Changed paths (for annotations). */
  files: string[];
  verdicts: Verdict[];
}

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
  errors: number;
  warnings: number;
}

/** `verify.exempt`: a commit that passed test-first only through `TDD-Exempt` is allowed, warned about or an error. */
function exemptVerdict(t: TddVerdict, policy: 'allow' | 'warn' | 'error'): Verdict {
  const clause = t.clause ? { clause: t.clause } : {};
  if (t.exempt === null) {
    const pairings = t.pairings.length > 0 ? { paired_with: t.pairings } : {};
    const squash = t.squash_of ? { squash_of: t.squash_of } : {};
    return { rule: t.rule, status: t.status, message: t.message, ...clause, ...pairings, ...squash };
  }
  const status = policy === 'allow' ? 'pass' : policy === 'warn' ? 'warn' : 'fail';
  return { rule: t.rule, status, message: `${t.message} (verify.exempt: ${policy})`, ...clause };
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
  /** Commits read and judged at a time (the memory verify holds does not grow with the range). */
  batch?: number;
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
  const workspace = resolveWorkspace(input.working_dir);
  // The base decides, even which base (DESIGN.md 2026-11-26): the range starts at a base chosen outside the
  // branch (--from, the GitHub event, origin/HEAD), and the policy is read from the base's
  // .hestai_workspace.yaml (or from --policy when auditing a branch's own history); the branch's own
  // changes to the policy are reported, never applied.
  const base = resolveBase(workspace, input, input.env ?? {});
  const policyRev = input.policy === undefined ? base.rev : resolvePolicyCommit(workspace, input.policy);
  const policyText = fileAtCommit(workspace.root, policyRev, WORKSPACE_CONFIG_FILE);
  const policyFile = policyText === null ? null : `${policyRev.slice(0, 7)}:${WORKSPACE_CONFIG_FILE}`;
  const policySource = input.policy === undefined ? `the base, from ${base.source}` : '--policy';
  const config = await configFromText(policyText, `${policyRev.slice(0, 7)}:${WORKSPACE_CONFIG_FILE}`);
  const range = resolveRange(workspace, config, { from: base.rev, ...(input.to ? { to: input.to } : {}) });
  if ((base.source === 'origin/HEAD' || base.source.endsWith('(no origin remote)')) && range.from === range.to)
    throw usageError(
      `nothing to judge: ${input.to ?? 'HEAD'} is the base verify defaults to, ${base.source}, itself (${range.to.slice(0, 7)})`,
      {
        code: 'NO_BASE',
        remedy: `Check a branch (\`npx hestai verify --to <branch>\`), or audit this branch's own history from its adoption point: \`npx hestai verify --from ${config.tdd.since ?? '<commit>'} --policy HEAD\`. In GitHub Actions use the hestai action (it takes the base from the event) with actions/checkout \`fetch-depth: 0\`.`,
      },
    );
  const tip = await configFromText(
    fileAtCommit(workspace.root, range.to, WORKSPACE_CONFIG_FILE),
    `${range.to.slice(0, 7)}:${WORKSPACE_CONFIG_FILE}`,
  ).catch(() => config);
  const policy: PolicyChange[] = policyChanges(config, tip);
  // --red-green runs a command the repository configured: only in a trusted workspace, and with the
  // minimal gate environment (never the caller's tokens), like every repository command (src/trust).
  const callerEnv = input.env ?? process.env;
  if (input.red_green && !isTrusted({ root: workspace.root }, callerEnv))
    throw usageError(
      `verify --red-green runs tdd.test_command (${JSON.stringify(config.tdd.test_command)}) from ${policyRev.slice(0, 7)}:${WORKSPACE_CONFIG_FILE}, and this workspace is not trusted`,
      {
        code: 'UNTRUSTED',
        remedy: `${TRUST_REMEDY} In CI: run \`npx hestai trust\` in a step of your own before verify.`,
      },
    );
  const commandEnv = gateEnvironment(callerEnv);
  const gitFailed = (error: string) => {
    // Only a shallow clone hides history; any other failure (a missing object) is reported as git said it.
    if (workspace.repo?.isShallow) return shallowRangeError(range.to);
    return usageError(`git log failed for the range ${range.revisions.join(' ')}: ${error}`, {
      code: 'GIT_FAILED',
      remedy: 'Check the repository (git fsck); fetch missing objects (git fetch --refetch origin) or clone it again.',
    });
  };
  // Counted by git while the rest is prepared; the count is the first thing the sink is told.
  const counting = countCommits(workspace.root, range.revisions);
  counting.catch(() => undefined); // awaited below; never an unhandled rejection
  if (range.shallow.size > 0) {
    const hidden = await firstCommitIn(workspace.root, range.revisions, range.shallow);
    if (hidden !== null) throw shallowRangeError(hidden);
  }

  // Test-first judges each commit against its ancestry since its branch's base, not the range alone.
  const since = config.tdd.since ? resolveCommit(workspace.root, config.tdd.since) : null;
  const pairing = pairingRevisions(workspace.root, config, range.to, since);
  const context = await pairingContext(workspace.root, range, pairing);
  // The commits that change the config or the protocol, from one path-limited walk git does while the rest
  // is prepared (readBatch).
  const configChanges =
    input.files === 'judged'
      ? pathChanges(workspace.root, context.revisions, [WORKSPACE_CONFIG_FILE, PROTOCOL_FILE])
      : null;
  configChanges?.catch(() => undefined); // awaited by the first batch read; never an unhandled rejection
  const where = pairing?.onDefault === true ? 'default-branch' : 'branch';
  const judge = testFirstJudge({ ...config.tdd, where });

  const anchorsLevel = config.verify.anchors;
  if (anchorsLevel !== 'off' && config.anchors.publish && !deps.anchorEvidence)
    throw new Error(
      'verifyRange: verify.anchors is on but no anchorEvidence reader was given (pass gatherAnchorEvidence from src/anchor/reverify.ts)',
    );
  const protocolLevel = config.protocol.verify;
  const anchorPolicy = {
    level: anchorsLevel === 'off' ? 'warn' : anchorsLevel,
    required: config.anchor.required,
    publish: config.anchors.publish,
    maxAgeHours: config.freshness.max_age_hours,
    validHours: config.anchor.valid_hours,
  } as const;
  // The protocol on the branch may not weaken the base's: judged once for the range, reported on the
  // last commit that changed .hestai/protocol.yaml (so, while there is such a verdict, the reports from
  // the latest such commit on are held back until the range ends).
  const protocol = await protocolPolicyVerdict(workspace.root, policyRev, range.to);

  const reported = {
    from: range.from,
    to: range.to,
    base: base.source,
    policy: policyRev,
    policy_file: policyFile,
    policy_source: policySource,
  };
  // The order (parents first), each commit's number of children and its message come from one
  // `git rev-list`, started now, walking the range while git counts it; each batch's files are read by a
  // `git log` of its own, so neither verify nor git holds the range.
  const orders = streamCommits(workspace.root, context.revisions, deps.batch);
  const firstOrder = orders.next();
  firstOrder.catch(() => undefined); // awaited below; never an unhandled rejection
  const counted = await counting;
  if ('error' in counted) {
    await orders.return(undefined);
    throw gitFailed(counted.error);
  }
  sink.start({ range: reported, count: counted.count });
  let errors = 0;
  let warnings = policy.length;
  const send = (c: CommitReport) => {
    for (const v of c.verdicts) {
      if (v.status === 'fail') errors++;
      else if (v.status === 'warn') warnings++;
    }
    sink.commit(c);
  };
  let held: CommitReport[] = [];
  const emit = (c: CommitReport) => {
    if (protocol === null) return send(c);
    if (c.files.includes(PROTOCOL_FILE) || held.length === 0) {
      for (const h of held) send(h);
      held = [];
    }
    held.push(c);
  };

  const timed = anchorsLevel !== 'off' && config.anchors.publish;
  // High-water marks of commits whose children are still to come, and how many (carryMarks).
  const highWater = new Map<string, HighWater>();
  const marksLeft = new Map<string, number>();
  let backdated = new Map<string, Backdating>();
  // A cited record's HEAD is looked for in the commits read so far (sha and parents only, kept while
  // anchors are checked): parents come first, so they hold every HEAD a commit of this batch descends from
  // within the range's history, and git is asked only past them.
  const graph: AncestryGraph | null = anchorsLevel !== 'off' && config.anchors.publish ? ancestryGraph() : null;
  // The published evidence a batch's commits cite (their anchors' proof records, their sessions' protocol
  // runs), asked of git while the batch before it is judged: the trailers are in the messages.
  const publishedFor = (commits: readonly LogCommit[], parsed: Map<string, Trailer[]>) => {
    const sessions = new Set<string>();
    const digests = new Set<string>();
    for (const c of commits) {
      // Both keys start with `HestAI-` (any case): a message without it has neither trailer.
      if (context.outside.has(c.sha) || !/hestai-/i.test(c.message)) continue;
      const trailers = parseTrailers(c.message);
      parsed.set(c.sha, trailers); // the batch's facts take them (logFacts) instead of parsing them again
      const s = lastTrailer(trailers, 'HestAI-Session');
      if (s) sessions.add(s);
      const m = FULL_DIGEST.exec(lastTrailer(trailers, 'HestAI-Anchor') ?? '');
      if (m) digests.add(m[1]!);
    }
    const none: AnchorEvidence = { refs: [], records: new Map(), events: new Map() };
    return Promise.all([
      anchorsLevel !== 'off' && config.anchors.publish ? deps.anchorEvidence!(workspace.root, digests, sessions) : none,
      // Protocol runs published by `session end` (issue 30), per protocol.verify from the base.
      protocolLevel !== 'off' && deps.protocolRuns && sessions.size > 0
        ? deps.protocolRuns(workspace.root, sessions)
        : null,
    ]).then(([evidence, runs]) => ({ evidence, runs }));
  };
  const judgeBatch = async (
    read: readonly LogCommit[],
    published: Promise<{ evidence: AnchorEvidence; runs: ProtocolRuns | null }>,
    deferred: Set<string>,
    merges: { remerges: ReadonlyMap<string, Remerge>; related: boolean },
    childCount: ReadonlyMap<string, number>,
    trailers: ReadonlyMap<string, Trailer[]>,
  ) => {
    const batch = [...read];
    const contextFacts = logFacts(workspace.root, batch, config, { earnedReverts: true, trailers });
    // The files of the batch's deferred commits (readBatch) at `at`: read once test-first needs them (its facts
    // then change), or for a commit test-first fails or warns about, whose report names them (a `github`
    // annotation's file).
    const readDeferred = async (at: readonly number[], facts: boolean) => {
      let files: Awaited<ReturnType<typeof logFiles>>;
      try {
        files = await logFiles(
          workspace.root,
          at.map((i) => batch[i]!.sha),
        );
      } catch (error) {
        throw error instanceof GitError ? gitFailed(error.stderr.trim()) : error;
      }
      const withFiles = at.map((i) => {
        const got = files.get(batch[i]!.sha);
        if (got === undefined)
          throw gitFailed(`git log --no-walk returned ${files.size} of the ${at.length} commits asked for`);
        deferred.delete(batch[i]!.sha);
        return (batch[i] = { ...batch[i]!, files: got.files, changes: got.changes });
      });
      if (!facts) return;
      const read = logFacts(workspace.root, withFiles, config, { earnedReverts: true });
      at.forEach((i, k) => (contextFacts[i] = read[k]!));
    };
    const tdd = new Map<string, TddVerdict>();
    for (let i = 0; i < contextFacts.length; i++) {
      if (deferred.has(contextFacts[i]!.sha) && judge.needsPaths(contextFacts[i]!))
        await readDeferred(
          batch.flatMap((c, k) => (k >= i && deferred.has(c.sha) ? [k] : [])),
          true,
        );
      const f = contextFacts[i]!;
      const bypassed = lastTrailer(f.trailers, 'HestAI-Bypass') !== null || bypassLine(batch[i]!.message) !== null;
      const n = childCount.get(f.sha);
      if (!bypassed) tdd.set(f.sha, judge(f, n === undefined ? undefined : { children: n }));
    }
    const reported = batch.flatMap((c, i) => {
      const status = tdd.get(c.sha)?.status;
      return deferred.has(c.sha) && (status === 'fail' || status === 'warn') ? [i] : [];
    });
    if (reported.length > 0) await readDeferred(reported, false);
    // Committer time along first-parent history (src/verify/committer-time.ts), judged for anchored commits:
    // the high-water marks of earlier batches are carried in while their commits have children to come
    // (carryMarks), and a first parent further out is dated by one git log per batch.
    if (timed) {
      const inBatch = new Set(batch.map((c) => c.sha));
      const missing = new Set<string>();
      for (const c of batch) {
        const p = c.parents[0];
        if (p !== undefined && !inBatch.has(p) && !highWater.has(p)) missing.add(p);
      }
      const marks = new Map(highWater);
      for (const [sha, m] of commitMeta(workspace.root, [...missing])) {
        const ms = Date.parse(m.committerDate);
        if (!Number.isNaN(ms)) marks.set(sha, { ms, sha, date: m.committerDate });
      }
      const time = backdatedCommits(batch, marks);
      carryMarks(highWater, marksLeft, time.highWater, batch, childCount);
      backdated = time.backdated;
    }
    const inRange = batch.flatMap((c, i) => (context.outside.has(c.sha) ? [] : [{ c, f: contextFacts[i]! }]));
    if (inRange.length === 0) return;
    // On the default branch, a failing commit that is the squash of a branch verified test-first passes.
    if (where === 'default-branch') {
      const failing = inRange
        .map(({ f }) => f)
        .filter((f) => tdd.get(f.sha)?.status === 'fail' && f.parents !== null && f.parentCount === 1);
      const squashes = squashEvidence(
        workspace.root,
        failing.map((f) => ({ sha: f.sha, parent: f.parents![0]! })),
        config,
      );
      for (const [sha, of] of squashes) {
        const t = tdd.get(sha)!;
        tdd.set(sha, {
          ...t,
          status: 'pass',
          message: `the squash of ${of.branch.replace(/^refs\/heads\//, '')} (tip ${of.tip.slice(0, 7)}, ${of.commits} commit(s)), whose commits pass test-first one by one; matched by ${of.matched_by} through its change record on hestai/anchors`,
          squash_of: of,
        });
      }
    }
    const { evidence, runs } = await published;
    // Whether each cited record's HEAD is in the citing commit's history: from the commits of this batch, git
    // asked only past them (src/verify/record-ancestry.ts; parents come before children, so a HEAD in a
    // later batch is never an ancestor).
    const queries: AncestryQuery[] = [];
    for (const { f } of inRange) {
      const m = FULL_DIGEST.exec(lastTrailer(f.trailers, 'HestAI-Anchor') ?? '');
      const head = m ? evidence.records.get(m[1]!)?.record?.head : null;
      if (head) queries.push({ sha: f.sha, head });
    }
    const covered = coveredQueries(
      graph ?? batch,
      queries,
      (heads, tip) => ancestorsAmong(workspace.root, heads, tip),
      {
        ordered: true,
      },
    );
    // The adoption commit carries no trailers: no session can be anchored before it (src/verify/adoption.ts).
    // Merges: from git's remerge of each (read with the batch), one cat-file for the resolved files of all.
    const mergeFacts = batchMergeEvidence(
      workspace.root,
      inRange.flatMap(({ c }) => (c.parents.length > 1 ? [{ sha: c.sha, parents: c.parents }] : [])),
      merges.remerges,
      config.verify.unrelated_histories,
      merges.related,
    );
    const adoptions = await adoptionCommits(
      workspace.root,
      inRange.map(({ c }) => c),
      { rev: policyRev, hasConfig: policyText !== null },
    );
    for (const { c, f } of inRange) {
      const adoption = adoptions.has(f.sha) ? { parent: adoptions.get(f.sha)! } : null;
      const verdicts: Verdict[] = [checkHeader(f, config.commit, where)];
      const t = tdd.get(f.sha);
      verdicts.push(
        t
          ? exemptVerdict(t, config.verify.exempt)
          : {
              rule: 'test-first',
              status: 'skip',
              message: 'bypassed (HestAI-Bypass): not judged; see the bypass verdict',
              clause: 'docs/design.md §7 (verify.bypass)',
            },
      );
      if (config.verify.trailers !== 'off')
        verdicts.push(
          adoption ? adoptionVerdict('trailers', adoption.parent) : checkTrailers(f, config.verify.trailers),
        );
      if (anchorsLevel !== 'off' && adoption) verdicts.push(adoptionVerdict('anchor', adoption.parent));
      else if (anchorsLevel !== 'off') {
        const anchor = checkAnchor(
          f,
          {
            committerDate: c.committerDate,
            headCovered: (head) => covered.has(queryKey({ sha: f.sha, head })),
            backdated: backdated.get(f.sha) ?? null,
          },
          evidence,
          anchorPolicy,
        );
        if (anchor) verdicts.push(anchor);
      }
      if (runs !== null && protocolLevel !== 'off') {
        const run = checkProtocolRun(f, runs, protocolLevel);
        if (run) verdicts.push(run);
      }
      if (c.parents.length > 1) verdicts.push(checkMerge(f.sha, mergeFacts.get(f.sha)!));
      const bypass = checkBypass(f, config.verify.bypass, c.message);
      if (bypass) verdicts.push(bypass);
      const clock = checkClock(f);
      if (clock) verdicts.push(clock);
      if (input.red_green && t && t.status === 'pass' && t.pairedWith.length > 0) {
        const testSha = t.pairedWith[t.pairedWith.length - 1]!;
        const command = config.tdd.test_command;
        verdicts.push(
          redGreenVerdict(
            testSha,
            f.sha,
            runAtCommit(workspace.root, testSha, command, { env: commandEnv }),
            runAtCommit(workspace.root, f.sha, command, { env: commandEnv }),
            command,
          ),
        );
      }
      emit({ sha: f.sha, header: f.header, files: c.files, verdicts });
    }
  };

  // Merges (issue 25): with a single root no two commits are unrelated, and a merge git re-merges to itself
  // exactly (one `git log --diff-merges=remerge` per batch, whatever the number of merges) adds nothing;
  // only the others are re-computed one by one.
  // Asked of git once, when the first batch with merges is read, without blocking the judging.
  let roots: Promise<boolean> | null = null;
  let related = false;
  const singleRoot = async () => {
    roots ??= rootCommits(workspace.root, range.to).then((r) => (related = r.length === 1));
    return roots;
  };
  // A commit of tdd.types pairs by its files (and the inline tests they hold, tdd.inline_tests) only when an
  // unpaired test commit on its line has another scope (testFirstJudge's needsPaths): under `paired` its files
  // are read when test-first asks for them; under `scoped` and `any` they are never a fact, under
  // `same-commit` always.
  const deferFeats = config.tdd.policy !== 'same-commit';
  // One batch read by git (the files its verdicts read, then its merges screened) while the one before it is judged.
  const read = (order: readonly { commit: LogCommit; children: number }[], unsure: ReadonlySet<string>) => {
    const reading = (async () => {
      let batch: LogCommit[];
      let deferred: Set<string>;
      try {
        ({ batch, deferred } = await readBatch(
          workspace.root,
          order.map((o) => o.commit),
          configChanges === null ? null : { config, changing: await configChanges, unsure, defer: deferFeats },
        ));
      } catch (error) {
        throw error instanceof GitError ? gitFailed(error.stderr.trim()) : error;
      }
      const merges = batch.filter((c) => c.parents.length === 2 && !context.outside.has(c.sha)).map((c) => c.sha);
      const remerges =
        merges.length > 0 && (await singleRoot()) ? await remergeDiffs(workspace.root, merges) : new Map();
      const trailers = new Map<string, Trailer[]>();
      const published = publishedFor(batch, trailers);
      published.catch(() => undefined); // awaited when the batch is judged; never an unhandled rejection
      return { order, batch, deferred, remerges, published, trailers };
    })();
    reading.catch(() => undefined); // observed when its turn comes; never an unhandled rejection
    return reading;
  };
  // The merges whose first parent is outside the walk (readBatch): the walk's commits are kept only while
  // they have children still to come.
  const walked = new Map<string, number>();
  const unsureOf = (order: readonly { commit: LogCommit; children: number }[]) => {
    const unsure = new Set<string>();
    if (configChanges === null) return unsure;
    for (const { commit: c, children } of order) {
      if (c.parents.length > 1 && !walked.has(c.parents[0]!)) unsure.add(c.sha);
      childrenRead(walked, c.parents, () => undefined);
      if (children > 0) walked.set(owned(c.sha), children);
    }
    return unsure;
  };
  try {
    // Two batches read ahead of the one judged, so git reads while node judges even when a batch takes git
    // longer to read than node to judge (flat folders).
    const ahead: ReturnType<typeof read>[] = [];
    let next = await firstOrder;
    const fill = async () => {
      while (ahead.length < 2 && !next.done) {
        ahead.push(read(next.value, unsureOf(next.value)));
        next = await orders.next();
      }
    };
    await fill();
    while (ahead.length > 0) {
      const { order, batch, deferred, remerges, published, trailers } = await ahead.shift()!;
      await fill();
      const children = new Map(order.map((o) => [o.commit.sha, o.children]));
      if (graph !== null)
        growGraph(
          graph,
          batch.map((c) => ({ sha: owned(c.sha), parents: c.parents.map(owned) })),
        );
      await judgeBatch(batch, published, deferred, { remerges, related }, children, trailers);
    }
  } catch (error) {
    if (error instanceof GitStreamError) throw gitFailed(error.stderr);
    throw error;
  } finally {
    await orders.return(undefined);
  }
  if (protocol !== null && held.length > 0) held[0]!.verdicts.push(protocol);
  for (const h of held) send(h);
  return {
    ok: errors === 0,
    range: reported,
    policy_changes: policy,
    where,
    errors,
    warnings,
    count: counted.count,
  };
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
async function readBatch(
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
const owned = (s: string): string => Buffer.from(s, 'latin1').toString('latin1');

/**
 * The commits test-first judges the range's commits against: whatever the base (a push verified
 * from its previous tip), their ancestry since the branch's base (src/verify/pairing-context.ts), read in
 * the same `git log`, with the commits of that history outside the range (`outside`: reported on by no
 * verdict); the range itself when that history does not contain it all, or reaches a shallow boundary
 * (then the range is judged alone, as before).
 */
async function pairingContext(
  root: string,
  range: VerifyRange,
  pairing: { revisions: string[] } | null,
): Promise<{ revisions: string[]; outside: ReadonlySet<string> }> {
  const alone = { revisions: range.revisions, outside: new Set<string>() };
  if (pairing === null) return alone;
  const excluded = pairing.revisions.filter((r) => r.startsWith('^'));
  const rangeExcluded = range.revisions.filter((r) => r.startsWith('^'));
  // A range commit outside the history: one the history's exclusions reach (its base is an ancestor of `to`).
  for (const x of excluded) {
    if (rangeExcluded.includes(x)) continue;
    if (anyCommit(root, [x.slice(1), ...rangeExcluded])) return alone;
  }
  if (range.shallow.size > 0 && (await firstCommitIn(root, pairing.revisions, range.shallow)) !== null) return alone;
  // The history's commits that are not in the range: those `from` reaches.
  const outside = await commitSet(root, [range.from, ...excluded]);
  return { revisions: pairing.revisions, outside };
}

/**
 * What each merge of a batch adds beyond git's automatic merge of its parents. A two-parent merge of related
 * histories is read from git's remerge of it ({@link remergeDiffs}, one `git log` per batch): clean, or the
 * paths it changes outside its conflicts and the conflicted files it resolved, whose texts (the merge's and
 * each parent's) come from ONE `git cat-file --batch` for the whole batch. Only an octopus, a merge whose
 * parents may be unrelated, or one whose remerge holds a conflict the reader does not know is re-computed on
 * its own ({@link mergeEvidence}).
 */
function batchMergeEvidence(
  root: string,
  merges: readonly { sha: string; parents: readonly string[] }[],
  remerges: ReadonlyMap<string, Remerge>,
  unrelated: 'error' | 'allow',
  related: boolean,
): Map<string, MergeEvidence> {
  const evidence = new Map<string, MergeEvidence>();
  const resolved: {
    sha: string;
    parents: readonly string[];
    added: string[];
    conflicted: string[];
    paths: string[];
  }[] = [];
  for (const m of merges) {
    const r = remerges.get(m.sha);
    if (r?.clean) evidence.set(m.sha, { kind: 'recomputed', parents: 2, added: [], conflicted: [], invented: [] });
    else if (r?.exact && related && m.parents.length === 2) {
      const conflicted = new Set(r.conflicted);
      resolved.push({
        sha: m.sha,
        parents: m.parents,
        added: r.differing.filter((p) => !conflicted.has(p)),
        conflicted: r.conflicted,
        paths: r.differing.filter((p) => conflicted.has(p)),
      });
    } else evidence.set(m.sha, mergeEvidence(root, m.sha, m.parents, unrelated, related));
  }
  const specs = resolved.flatMap((m) => m.paths.flatMap((p) => [m.sha, ...m.parents].map((c) => `${c}:${p}`)));
  const blobs = specs.length > 0 ? catFileBatch(root, specs, { content: true }) : new Map<string, never>();
  for (const m of resolved)
    evidence.set(m.sha, {
      kind: 'recomputed',
      parents: 2,
      added: m.added,
      conflicted: m.conflicted,
      invented: resolvedInvented(blobs, m.sha, m.parents, m.paths),
    });
  return evidence;
}

/** The resolved files of a merge holding a line none of its parents' versions has (texts read by cat-file). */
function resolvedInvented(
  blobs: ReadonlyMap<string, { found: boolean; content?: Buffer }>,
  sha: string,
  parents: readonly string[],
  paths: readonly string[],
): string[] {
  const text = (spec: string) => {
    const b = blobs.get(spec);
    return b && b.found && b.content ? b.content.toString('utf8') : null;
  };
  return inventedLines(
    paths.map((p) => ({ path: p, merged: text(`${sha}:${p}`), sides: parents.map((c) => text(`${c}:${p}`)) })),
  );
}

/**
 * What a real merge (2+ parents) adds beyond git's automatic merge of its parents, one parent at a time
 * (an octopus through scratch commits); a parent with no history in common with the first is refused
 * unless `verify.unrelated_histories: allow`. Conflicted files are read (one `git cat-file --batch`) to
 * find lines that none of the parents has.
 */
function mergeEvidence(
  root: string,
  sha: string,
  parents: readonly string[],
  unrelated: 'error' | 'allow',
  related: boolean,
): MergeEvidence {
  const first = parents[0]!;
  for (const p of related ? [] : parents.slice(1)) {
    if (mergeBase(root, first, p) === null) {
      if (unrelated === 'error') return { kind: 'unrelated', parent: p };
    }
  }
  const allowUnrelated = unrelated === 'allow';
  let current = first;
  let auto: { tree: string; conflicted: string[] } | null = null;
  for (let k = 1; k < parents.length; k++) {
    auto = automaticMerge(root, current, parents[k]!, { allowUnrelated });
    if (auto === null) return { kind: 'unknown', reason: 'git merge-tree --write-tree (git 2.38 or newer) failed' };
    if (parents.length > 2 && auto.conflicted.length > 0) return { kind: 'octopus', parents: parents.length };
    if (k < parents.length - 1) current = scratchMergeCommit(root, auto.tree, [current, parents[k]!]);
  }
  const conflicted = new Set(auto!.conflicted);
  const differing = differingPaths(root, auto!.tree, `${sha}^{tree}`);
  const added = differing.filter((p) => !conflicted.has(p));
  const resolved = differing.filter((p) => conflicted.has(p));
  let invented: string[] = [];
  if (resolved.length > 0) {
    const blobs = catFileBatch(
      root,
      resolved.flatMap((p) => [sha, ...parents].map((c) => `${c}:${p}`)),
      { content: true },
    );
    invented = resolvedInvented(blobs, sha, parents, resolved);
  }
  return { kind: 'recomputed', parents: parents.length, added, conflicted: auto!.conflicted, invented };
}
