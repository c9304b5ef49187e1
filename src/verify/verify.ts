import { systemClock, type Clock } from '../clock.js';
import { configFromText } from '../config/load.js';
import { usageError } from '../errors.js';
import { gateEnvironment, isTrusted, TRUST_REMEDY } from '../trust/index.js';
import { fileAtCommit } from '../git/show.js';
import { policyChanges, type PolicyChange } from './policy.js';
import { history } from '../git/history.js';
import type { CommitFacts } from '../tdd/commit.js';
import { checkHeader } from '../tdd/header-rule.js';
import { evaluateTestFirst, type TddVerdict } from '../tdd/rule.js';
import { lastTrailer } from '../tdd/trailers.js';
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
import { catFileBatch, isAncestor } from '../git/anchors.js';
import { coveredQueries, queryKey, type AncestryQuery } from './record-ancestry.js';
import { mergeBase } from '../git/repo.js';
import { PROTOCOL_FILE, protocolPolicyVerdict } from './protocol-policy.js';
import { checkProtocolRun, type ProtocolRuns, type ProtocolRunsReader } from './protocol-run-rule.js';
import { adoptionCommits, adoptionVerdict } from './adoption.js';

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
  range: { from: string | null; to: string; base?: string; policy?: string };
  commits: CommitReport[];
  /** Policy keys (tdd.*, verify.*, anchors.*, anchor.*, freshness.*) the branch changes; each is a warning. */
  policy_changes: PolicyChange[];
  /** Whether the range's commits are already on the default branch (their history cannot be reordered). */
  where?: 'branch' | 'default-branch';
  errors: number;
  warnings: number;
}

const WORKSPACE_FILE = '.hestai_workspace.yaml';

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
}

export async function verifyRange(
  input: VerifyInput,
  deps: VerifyDeps = { clock: systemClock },
): Promise<VerifyReport> {
  const workspace = resolveWorkspace(input.working_dir);
  // The base decides, even which base (DESIGN.md 2026-11-26): the range starts at a base chosen outside the
  // branch (--from, the GitHub event, origin/HEAD), and the policy is read from the base's
  // .hestai_workspace.yaml (or from --policy when auditing a branch's own history); the branch's own
  // changes to the policy are reported, never applied.
  const base = resolveBase(workspace, input, input.env ?? {});
  const policyRev = input.policy === undefined ? base.rev : resolvePolicyCommit(workspace, input.policy);
  const config = await configFromText(
    fileAtCommit(workspace.root, policyRev, WORKSPACE_FILE),
    `${policyRev.slice(0, 7)}:${WORKSPACE_FILE}`,
  );
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
    fileAtCommit(workspace.root, range.to, WORKSPACE_FILE),
    `${range.to.slice(0, 7)}:${WORKSPACE_FILE}`,
  ).catch(() => config);
  const policy: PolicyChange[] = policyChanges(config, tip);
  // --red-green runs a command the repository configured: only in a trusted workspace, and with the
  // minimal gate environment (never the caller's tokens), like every repository command (src/trust).
  const callerEnv = input.env ?? process.env;
  if (input.red_green && !isTrusted({ root: workspace.root }, callerEnv))
    throw usageError(
      `verify --red-green runs tdd.test_command (${JSON.stringify(config.tdd.test_command)}) from ${policyRev.slice(0, 7)}:${WORKSPACE_FILE}, and this workspace is not trusted`,
      {
        code: 'UNTRUSTED',
        remedy: `${TRUST_REMEDY} In CI: run \`npx hestai trust\` in a step of your own before verify.`,
      },
    );
  const commandEnv = gateEnvironment(callerEnv);
  const result = history(workspace.root, { revisions: range.revisions, topoOrder: true });
  if ('error' in result) {
    // Only a shallow clone hides history; any other failure (a missing object) is reported as git said it.
    if (workspace.repo?.isShallow) throw shallowRangeError(range.to);
    throw usageError(`git log failed for the range ${range.revisions.join(' ')}: ${result.error}`, {
      code: 'GIT_FAILED',
      remedy: 'Check the repository (git fsck); fetch missing objects (git fetch --refetch origin) or clone it again.',
    });
  }
  for (const c of result.commits) if (range.shallow.has(c.sha)) throw shallowRangeError(c.sha);

  // Test-first judges each commit against its ancestry since its branch's base, not the range alone.
  const since = config.tdd.since ? resolveCommit(workspace.root, config.tdd.since) : null;
  const pairing = pairingRevisions(workspace.root, config, range.to, since);
  const context = pairingContext(workspace.root, range, pairing, result.commits);
  const contextFacts = logFacts(workspace.root, context, config, { earnedReverts: true });
  const factsBySha = new Map(contextFacts.map((f) => [f.sha, f]));
  const facts = result.commits.map((c) => factsBySha.get(c.sha)!);
  const bypassed = (f: CommitFacts, i: number) =>
    lastTrailer(f.trailers, 'HestAI-Bypass') !== null || bypassLine(context[i]!.message) !== null;
  const judged = contextFacts.filter((f, i) => !bypassed(f, i));
  const tdd = new Map<string, TddVerdict>();
  const where = pairing?.onDefault === true ? 'default-branch' : 'branch';
  for (const v of evaluateTestFirst(judged, { ...config.tdd, where })) tdd.set(v.sha, v);
  // On the default branch, a failing commit that is the squash of a branch verified test-first passes.
  if (where === 'default-branch') {
    const failing = facts.filter((f) => tdd.get(f.sha)?.status === 'fail' && f.parents !== null && f.parentCount === 1);
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

  const anchorsLevel = config.verify.anchors;
  let evidence: AnchorEvidence = { refs: [], records: new Map(), events: new Map() };
  if (anchorsLevel !== 'off' && config.anchors.publish) {
    const digests = new Set<string>();
    const sessions = new Set<string>();
    for (const f of facts) {
      const m = FULL_DIGEST.exec(lastTrailer(f.trailers, 'HestAI-Anchor') ?? '');
      if (m) digests.add(m[1]!);
      const s = lastTrailer(f.trailers, 'HestAI-Session');
      if (s) sessions.add(s);
    }
    if (!deps.anchorEvidence)
      throw new Error(
        'verifyRange: verify.anchors is on but no anchorEvidence reader was given (pass gatherAnchorEvidence from src/anchor/reverify.ts)',
      );
    evidence = deps.anchorEvidence(workspace.root, digests, sessions);
  }
  // Protocol runs published by `session end` (issue 30), per protocol.verify from the base.
  const protocolLevel = config.protocol.verify;
  let runs: ProtocolRuns | null = null;
  if (protocolLevel !== 'off' && deps.protocolRuns) {
    const sessions = new Set<string>();
    for (const f of facts) {
      const s = lastTrailer(f.trailers, 'HestAI-Session');
      if (s) sessions.add(s);
    }
    if (sessions.size > 0) runs = deps.protocolRuns(workspace.root, sessions);
  }
  // Whether each cited record's HEAD is in the citing commit's history: from the commits read, git asked
  // only past them (src/verify/record-ancestry.ts).
  const queries: AncestryQuery[] = [];
  for (const f of facts) {
    const m = FULL_DIGEST.exec(lastTrailer(f.trailers, 'HestAI-Anchor') ?? '');
    const head = m ? evidence.records.get(m[1]!)?.record?.head : null;
    if (head) queries.push({ sha: f.sha, head });
  }
  const covered = coveredQueries(context, queries, (a, b) => isAncestor(workspace.root, a, b));
  const anchorPolicy = {
    level: anchorsLevel === 'off' ? 'warn' : anchorsLevel,
    required: config.anchor.required,
    publish: config.anchors.publish,
    maxAgeHours: config.freshness.max_age_hours,
  } as const;

  // The adoption commit carries no trailers: no session can be anchored before it (src/verify/adoption.ts).
  const adoptions = await adoptionCommits(workspace.root, result.commits);
  const commits: CommitReport[] = facts.map((f, i) => {
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
      verdicts.push(adoption ? adoptionVerdict('trailers', adoption.parent) : checkTrailers(f, config.verify.trailers));
    if (anchorsLevel !== 'off' && adoption) verdicts.push(adoptionVerdict('anchor', adoption.parent));
    else if (anchorsLevel !== 'off') {
      const anchor = checkAnchor(
        {
          ...f,
          committerDate: result.commits[i]!.committerDate,
          headCovered: (head) => covered.has(queryKey({ sha: f.sha, head })),
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
    const parents = result.commits[i]!.parents;
    if (parents.length > 1)
      verdicts.push(
        checkMerge(f.sha, mergeEvidence(workspace.root, f.sha, parents, config.verify.unrelated_histories)),
      );
    const bypass = checkBypass(f, config.verify.bypass, result.commits[i]!.message);
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
    return { sha: f.sha, header: f.header, files: result.commits[i]!.files, verdicts };
  });
  // The protocol on the branch may not weaken the base's: judged once for the range, reported on the
  // last commit that changed .hestai/protocol.yaml.
  const protocol = await protocolPolicyVerdict(workspace.root, policyRev, range.to);
  if (protocol !== null) {
    const changer = [...commits].reverse().find((c) => c.files.includes(PROTOCOL_FILE)) ?? commits[commits.length - 1];
    changer?.verdicts.push(protocol);
  }
  let errors = 0;
  let warnings = policy.length;
  for (const c of commits) {
    for (const v of c.verdicts) {
      if (v.status === 'fail') errors++;
      else if (v.status === 'warn') warnings++;
    }
  }
  return {
    ok: errors === 0,
    range: { from: range.from, to: range.to, base: base.source, policy: policyRev },
    commits,
    policy_changes: policy,
    where,
    errors,
    warnings,
  };
}

/**
 * The commits test-first judges the range's commits against: whatever the base (a push verified
 * from its previous tip), their ancestry since the branch's base (src/verify/pairing-context.ts), read with
 * one more `git log`; the range itself when that history does not contain it all, or reaches a shallow
 * boundary (then the range is judged alone, as before).
 */
function pairingContext(
  root: string,
  range: VerifyRange,
  pairing: { revisions: string[] } | null,
  commits: readonly LogCommit[],
): readonly LogCommit[] {
  if (pairing === null) return commits;
  const result = history(root, { revisions: pairing.revisions, topoOrder: true });
  if ('error' in result) return commits;
  const shas = new Set(result.commits.map((c) => c.sha));
  if (!commits.every((c) => shas.has(c.sha))) return commits;
  if (result.commits.some((c) => range.shallow.has(c.sha))) return commits;
  return result.commits;
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
): MergeEvidence {
  const first = parents[0]!;
  for (const p of parents.slice(1)) {
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
    const specs = resolved.flatMap((p) => [sha, ...parents].map((c) => `${c}:${p}`));
    const blobs = catFileBatch(root, specs, { content: true });
    const text = (spec: string) => {
      const b = blobs.get(spec);
      return b && b.found && b.content ? b.content.toString('utf8') : null;
    };
    invented = inventedLines(
      resolved.map((p) => ({ path: p, merged: text(`${sha}:${p}`), sides: parents.map((c) => text(`${c}:${p}`)) })),
    );
  }
  return { kind: 'recomputed', parents: parents.length, added, conflicted: auto!.conflicted, invented };
}
