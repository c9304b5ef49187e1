import { configFromText } from '../config/load.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { usageError } from '../errors.js';
import { fileAtCommit } from '../git/show.js';
import { firstCommitIn, pathChanges } from '../git/log-stream.js';
import { resolveCommit } from '../git/repo.js';
import { WORKSPACE_CONFIG_FILE } from '../paths.js';
import { testFirstJudge } from '../tdd/rule.js';
import type { Verdict } from '../tdd/verdict.js';
import { gateEnvironment, isTrusted, TRUST_REMEDY } from '../trust/index.js';
import { resolveWorkspace, type Workspace } from '../workspace.js';
import { ALLOWED_SIGNERS_FILE } from '../evidence/signatures.js';
import { pairingContext, pairingRevisions } from './pairing-context.js';
import { policyChanges, type PolicyChange } from './policy.js';
import { PROTOCOL_FILE, protocolPolicyVerdict } from './protocol-policy.js';
import { resolveBase, resolvePolicyCommit, resolveRange, shallowRangeError, type VerifyRange } from './range.js';
import type { VerifyDeps, VerifyInput, VerifyRun } from './run.js';
import { readReceiptTimes, type ReceiptTimes, type Receiving } from './receipts.js';

/** The receipts, read on the first batch that asks, once per run. */
function receiptsOnce(root: string, receiving: Receiving | null): () => Promise<ReceiptTimes> {
  let read: Promise<ReceiptTimes> | null = null;
  return () => (read ??= readReceiptTimes(root, receiving));
}

/** The policy a verify run judges by, and the range it judges (src/verify/verify.ts: verifyStream's first step). */
export interface VerifyPolicy {
  workspace: Workspace;
  /** Where the base came from (--from, the event, origin/HEAD). */
  baseSource: string;
  /** The commit whose config is the policy, and that file's text (null: the defaults). */
  policyRev: string;
  policyText: string | null;
  config: WorkspaceConfig;
  range: VerifyRange;
  /** The policy keys the branch changes (each a warning). */
  changes: PolicyChange[];
  /** The environment --red-green's commands run with. */
  commandEnv: NodeJS.ProcessEnv;
}

/**
 * The base decides, even which base (DESIGN.md 2026-11-26): the range starts at a base chosen outside the
 * branch (--from, the GitHub event, origin/HEAD), and the policy is read from the base's
 * .hestai_workspace.yaml (or from --policy when auditing a branch's own history); the branch's own
 * changes to the policy are reported, never applied.
 */
export async function readPolicy(input: VerifyInput): Promise<VerifyPolicy> {
  const workspace = resolveWorkspace(input.working_dir);
  const base = resolveBase(workspace, input, input.env ?? {});
  const policyRev = input.policy === undefined ? base.rev : resolvePolicyCommit(workspace, input.policy);
  const policyText = fileAtCommit(workspace.root, policyRev, WORKSPACE_CONFIG_FILE);
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
  const changes = policyChanges(config, tip);
  return {
    workspace,
    baseSource: base.source,
    policyRev,
    policyText,
    config,
    range,
    changes,
    commandEnv: gateEnvironment(callerEnv),
  };
}

/** The error for a failed `git log` of the range: only a shallow clone hides history; any other failure is reported as git said it. */
export function gitFailure(workspace: Workspace, range: VerifyRange): (error: string) => Error {
  return (error: string) => {
    if (workspace.repo?.isShallow) return shallowRangeError(range.to);
    return usageError(`git log failed for the range ${range.revisions.join(' ')}: ${error}`, {
      code: 'GIT_FAILED',
      remedy: 'Check the repository (git fsck); fetch missing objects (git fetch --refetch origin) or clone it again.',
    });
  };
}

/** A range that reaches past a shallow clone's boundary is refused, naming the first commit hidden. */
export async function refuseShallowRange(root: string, range: VerifyRange): Promise<void> {
  if (range.shallow.size === 0) return;
  const hidden = await firstCommitIn(root, range.revisions, range.shallow);
  if (hidden !== null) throw shallowRangeError(hidden);
}

/**
 * What every batch is judged with: the history test-first pairs against, the commits that change the config
 * or the protocol (one path-limited walk git does while the rest is prepared), the anchor and protocol levels,
 * and the protocol verdict on the range (the branch's protocol may not weaken the base's).
 */
export async function planRun(
  policy: VerifyPolicy,
  input: VerifyInput,
  deps: VerifyDeps,
  gitFailed: (error: string) => Error,
): Promise<{ run: VerifyRun; protocol: Verdict | null }> {
  const { workspace, config, range } = policy;
  // Test-first judges each commit against its ancestry since its branch's base, not the range alone.
  const since = config.tdd.since ? resolveCommit(workspace.root, config.tdd.since) : null;
  const pairing = pairingRevisions(workspace.root, config, range.to, since);
  const context = await pairingContext(workspace.root, range, pairing);
  const configChanges =
    input.files === 'judged'
      ? pathChanges(workspace.root, context.revisions, [WORKSPACE_CONFIG_FILE, PROTOCOL_FILE])
      : null;
  configChanges?.catch(() => undefined); // awaited by the first batch read; never an unhandled rejection
  const where = pairing?.onDefault === true ? 'default-branch' : 'branch';
  const anchorsLevel = config.verify.anchors;
  if (anchorsLevel !== 'off' && config.anchors.publish && !deps.anchorEvidence)
    throw new Error(
      'verifyRange: verify.anchors is on but no anchorEvidence reader was given (pass gatherAnchorEvidence from src/anchor/reverify.ts)',
    );
  const run: VerifyRun = {
    root: workspace.root,
    config,
    policyCommit: { rev: policy.policyRev, hasConfig: policy.policyText !== null },
    to: range.to,
    revisions: context.revisions,
    outside: context.outside,
    where,
    judge: testFirstJudge({ ...config.tdd, where }),
    configChanges,
    // A commit of tdd.types pairs by its files (and the inline tests they hold, tdd.inline_tests) only when an
    // unpaired test commit on its line has another scope (testFirstJudge's needsPaths): under `paired` its
    // files are read when test-first asks for them; under `scoped` and `any` they are never a fact, under
    // `same-commit` always.
    deferFeats: config.tdd.policy !== 'same-commit',
    anchorsLevel,
    anchorPolicy: {
      level: anchorsLevel === 'off' ? 'warn' : anchorsLevel,
      required: config.anchor.required,
      publish: config.anchors.publish,
      maxAgeHours: config.freshness.max_age_hours,
      validHours: config.anchor.valid_hours,
    },
    readsRecords: anchorsLevel !== 'off' && config.anchors.publish,
    protocolLevel: config.protocol.verify,
    receipts: config.verify.receipts === 'off' ? null : receiptsOnce(workspace.root, input.receiving ?? null),
    signatures: config.verify.signatures,
    allowedSigners:
      config.verify.signatures === 'off' ? null : fileAtCommit(workspace.root, policy.policyRev, ALLOWED_SIGNERS_FILE),
    anchorEvidence: deps.anchorEvidence,
    protocolRuns: deps.protocolRuns,
    ...(deps.evidence ? { evidence: deps.evidence } : {}),
    redGreen: input.red_green === true,
    commandEnv: policy.commandEnv,
    gitFailed,
  };
  // Judged once for the range, reported on the last commit that changed .hestai/protocol.yaml (so, while
  // there is such a verdict, the reports from the latest such commit on are held back until the range ends).
  const protocol = await protocolPolicyVerdict(workspace.root, policy.policyRev, range.to);
  return { run, protocol };
}
