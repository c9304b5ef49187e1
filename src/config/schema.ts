import * as z from 'zod/mini';
import { readToolPatternProblem } from '../util/agent-tools.js';
import {
  COMMIT_SHA,
  commitShaProblem,
  COMMIT_TYPE,
  ENV_NAME,
  hasNoParentSegment,
  isRegExpSource,
  isRelativePath,
} from './checks.js';
import { DEFAULTS } from './defaults.js';

/**
 * The workspace configuration (`.hestai_workspace.yaml`): the seed's keys (context_paths, github, ai,
 * cleanup) and ours (freshness, tdd, anchor, hooks, verify, quality_gates). Every default lives here and
 * nowhere else. Objects are strict: an unknown key is an error that suggests the nearest known key.
 *
 * Thresholds (freshness, cleanup) are human authority: the tool reads them and never writes them.
 */
const relPath = z
  .string()
  .check(
    z.minLength(1, 'expected a non-empty relative path'),
    z.refine(isRelativePath, 'expected a path relative to the repository root'),
    z.refine(hasNoParentSegment, 'expected a path inside the repository (no "..")'),
  );
const commitType = z
  .string()
  .check(z.regex(COMMIT_TYPE, 'expected a Conventional Commit type in lower case, e.g. "feat" or "fix"'));
const nonEmpty = () => z.string().check(z.minLength(1));
const regExpSource = (example: string) =>
  z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(500),
      z.refine(isRegExpSource, `expected a JavaScript regular expression, e.g. ${JSON.stringify(example)}`),
    );
/** A whole number above 0 and at most `max`. */
const count = (max: number) => z.int().check(z.positive(), z.maximum(max));
/** A section of the config: a strict object whose own default is the section of DEFAULTS. */
const section = <S extends z.core.$ZodLooseShape, K extends keyof typeof DEFAULTS>(key: K, shape: S) =>
  z._default(z.strictObject(shape), () => structuredClone(DEFAULTS[key]) as never);
const flag = (value: boolean) => z._default(z.boolean(), value);
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, value: T[number]) =>
  z._default(z.enum(values), value);

export const qualityGateSchema = z.strictObject({
  name: nonEmpty(),
  /** Shell command run in the repository root. */
  command: nonEmpty(),
  timeout_ms: z._default(count(600_000), 30_000),
});

/**
 * The message for a string key YAML read as a number: a plain sha of digits (`1234...`), or of digits around
 * one `e` (`1234e5...`, a float), or a branch named `123`, is a number to YAML. Its text cannot be had back
 * (leading zeros, exponents), so the fix is to quote it; `hestai init` writes both keys quoted.
 */
function readAsNumber(what: string, key: string) {
  return (issue: { input?: unknown }): string | undefined =>
    typeof issue.input === 'number'
      ? `YAML reads it as the number ${issue.input}, not a string: write ${what} in double quotes: ${key}: "..."`
      : undefined;
}

export const configSchema = z.strictObject({
  context_paths: section('context_paths', {
    additional: z._default(z.array(relPath), () => []),
    exclude: z._default(z.array(relPath), () => [...DEFAULTS.context_paths.exclude]),
  }),
  github: section('github', {
    issue_search: flag(DEFAULTS.github.issue_search),
    pr_context: flag(DEFAULTS.github.pr_context),
    timeout_ms: z._default(count(60_000), DEFAULTS.github.timeout_ms),
  }),
  ai: section('ai', {
    model_override: z.optional(nonEmpty()),
    base_url: z.optional(z.url()),
    /** The name of the environment variable holding the API key (the key itself never goes in this file). */
    api_key_env: z.optional(z.string().check(z.regex(ENV_NAME, 'expected an environment variable name'))),
    timeout_ms: z.optional(count(120_000)),
  }),
  cleanup: section('cleanup', {
    stale_session_hours: z._default(z.number().check(z.positive()), DEFAULTS.cleanup.stale_session_hours),
    archive_retention_days: z._default(z.number().check(z.positive()), DEFAULTS.cleanup.archive_retention_days),
  }),
  freshness: section('freshness', {
    max_age_hours: z._default(z.number().check(z.positive()), DEFAULTS.freshness.max_age_hours),
  }),
  tdd: section('tdd', {
    policy: oneOf(['paired', 'scoped', 'any', 'same-commit'], DEFAULTS.tdd.policy),
    types: z._default(z.array(commitType).check(z.minLength(1)), () => [...DEFAULTS.tdd.types]),
    test_globs: z._default(z.array(nonEmpty()).check(z.minLength(1)), () => [...DEFAULTS.tdd.test_globs]),
    /** Fixture folders: their files count as tests only beside a test file of the same commit or package. */
    fixture_globs: z._default(z.array(nonEmpty()), () => [...DEFAULTS.tdd.fixture_globs]),
    /** Tests kept inside source files: `start` opens a region that runs to the end of the next {...} block. */
    inline_tests: z._default(
      z.array(z.strictObject({ files: nonEmpty(), start: regExpSource('^\\s*#\\[test\\]') })),
      () => structuredClone(DEFAULTS.tdd.inline_tests),
    ),
    since: z._default(
      z.nullable(
        z
          .string({ error: readAsNumber('the sha', 'since') })
          .check(z.regex(COMMIT_SHA, { error: (issue) => commitShaProblem(String(issue.input)) ?? undefined })),
      ),
      DEFAULTS.tdd.since,
    ),
    default_branch: z._default(
      z.string({ error: readAsNumber('the branch name', 'default_branch') }).check(z.minLength(1)),
      DEFAULTS.tdd.default_branch,
    ),
    test_command: z._default(nonEmpty(), DEFAULTS.tdd.test_command),
  }),
  commit: section('commit', {
    /** Regular expressions matched against the header: matching commits are not judged. */
    ignore: z._default(z.array(regExpSource('^Release v\\d+')), () => []),
    default_ignores: flag(DEFAULTS.commit.default_ignores),
    type_case: oneOf(['insensitive', 'lower'], DEFAULTS.commit.type_case),
    body_separator: oneOf(['error', 'warn', 'off'], DEFAULTS.commit.body_separator),
    attribution: oneOf(['off', 'warn', 'required'], DEFAULTS.commit.attribution),
  }),
  anchor: section('anchor', {
    required: flag(DEFAULTS.anchor.required),
    strictness: oneOf(['quick', 'default', 'deep'], DEFAULTS.anchor.strictness),
    handshake_ttl_minutes: z._default(count(24 * 60), DEFAULTS.anchor.handshake_ttl_minutes),
    /** An anchor (and its proof record) covers commits made up to this many hours after it was validated. */
    valid_hours: z._default(count(24 * 30), DEFAULTS.anchor.valid_hours),
    constitutions: z._default(
      z.enum(['install', 'strict'], {
        error:
          'expected "install" (a missing role constitution is installed from the packaged defaults) or "strict" (it is refused)',
      }),
      DEFAULTS.anchor.constitutions,
    ),
  }),
  hooks: section('hooks', {
    pre_commit: flag(DEFAULTS.hooks.pre_commit),
    commit_msg: flag(DEFAULTS.hooks.commit_msg),
    trailers: flag(DEFAULTS.hooks.trailers),
  }),
  verify: section('verify', {
    trailers: oneOf(['off', 'warn', 'error'], DEFAULTS.verify.trailers),
    bypass: oneOf(['warn', 'error'], DEFAULTS.verify.bypass),
    unrelated_histories: oneOf(['error', 'allow'], DEFAULTS.verify.unrelated_histories),
    anchors: oneOf(['off', 'warn', 'error'], DEFAULTS.verify.anchors),
    exempt: oneOf(['allow', 'warn', 'error'], DEFAULTS.verify.exempt),
    receipts: oneOf(['off', 'warn', 'required'], DEFAULTS.verify.receipts),
    merge_regenerated: z._default(z.array(nonEmpty()), () => [...DEFAULTS.verify.merge_regenerated]),
    signatures: oneOf(['off', 'warn', 'required'], DEFAULTS.verify.signatures),
  }),
  protocol: section('protocol', {
    enforce: flag(DEFAULTS.protocol.enforce),
    force_limit: z._default(z.int().check(z.minimum(0), z.maximum(100)), DEFAULTS.protocol.force_limit),
    history_limit: z._default(z.int().check(z.minimum(1), z.maximum(10_000)), DEFAULTS.protocol.history_limit),
    verify: oneOf(['off', 'warn', 'error'], DEFAULTS.protocol.verify),
  }),
  agents: section('agents', {
    stop_gate: flag(DEFAULTS.agents.stop_gate),
    /** Tools (exact names, or a prefix ending in "*") an agent may call before its anchor as reads. */
    read_tools: z._default(
      z.array(
        z.string().check(
          z.superRefine((pattern, ctx) => {
            const problem = readToolPatternProblem(pattern);
            if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, input: pattern });
          }),
        ),
      ),
      () => [...DEFAULTS.agents.read_tools],
    ),
  }),
  anchors: section('anchors', { publish: flag(DEFAULTS.anchors.publish) }),
  quality_gates: z._default(z.array(qualityGateSchema), () => []),
});

export type WorkspaceConfig = z.infer<typeof configSchema>;
