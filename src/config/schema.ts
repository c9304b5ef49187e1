import { z } from 'zod';
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
  .min(1, 'expected a non-empty relative path')
  .refine(isRelativePath, 'expected a path relative to the repository root')
  .refine(hasNoParentSegment, 'expected a path inside the repository (no "..")');

const commitType = z
  .string()
  .regex(COMMIT_TYPE, 'expected a Conventional Commit type in lower case, e.g. "feat" or "fix"');

export const qualityGateSchema = z.strictObject({
  name: z.string().min(1).describe('A short label shown in the clock-in context'),
  command: z.string().min(1).describe('Shell command run in the repository root'),
  timeout_ms: z.number().int().positive().max(600_000).default(30_000).describe('Kill the command after this long'),
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
  context_paths: z
    .strictObject({
      additional: z.array(relPath).default([]).describe('Extra files or directories offered as context'),
      exclude: z
        .array(relPath)
        .default(() => [...DEFAULTS.context_paths.exclude])
        .describe('Prefixes never offered as context'),
    })
    .default(() => structuredClone(DEFAULTS.context_paths)),
  github: z
    .strictObject({
      issue_search: z
        .boolean()
        .default(DEFAULTS.github.issue_search)
        .describe('Search GitHub issues matching the focus (needs gh)'),
      pr_context: z
        .boolean()
        .default(DEFAULTS.github.pr_context)
        .describe('Include the open pull request of the branch (needs gh)'),
      timeout_ms: z.number().int().positive().max(60_000).default(DEFAULTS.github.timeout_ms),
    })
    .default(() => structuredClone(DEFAULTS.github)),
  ai: z
    .strictObject({
      model_override: z.string().min(1).optional().describe('Model name used instead of the provider default'),
      base_url: z.url().optional().describe('OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1'),
      api_key_env: z
        .string()
        .regex(ENV_NAME, 'expected an environment variable name')
        .optional()
        .describe('Name of the environment variable holding the API key (the key itself never goes in this file)'),
      timeout_ms: z.number().int().positive().max(120_000).default(DEFAULTS.ai.timeout_ms),
    })
    .default(() => structuredClone(DEFAULTS.ai)),
  cleanup: z
    .strictObject({
      stale_session_hours: z.number().positive().default(DEFAULTS.cleanup.stale_session_hours),
      archive_retention_days: z.number().positive().default(DEFAULTS.cleanup.archive_retention_days),
    })
    .default(() => structuredClone(DEFAULTS.cleanup)),
  freshness: z
    .strictObject({
      max_age_hours: z
        .number()
        .positive()
        .default(DEFAULTS.freshness.max_age_hours)
        .describe('Context older than this blocks commits until acknowledged'),
    })
    .default(() => structuredClone(DEFAULTS.freshness)),
  tdd: z
    .strictObject({
      policy: z.enum(['paired', 'scoped', 'any', 'same-commit']).default(DEFAULTS.tdd.policy),
      types: z
        .array(commitType)
        .min(1)
        .default(() => [...DEFAULTS.tdd.types])
        .describe('Commit types that need a preceding test commit'),
      test_globs: z
        .array(z.string().min(1))
        .min(1)
        .default(() => [...DEFAULTS.tdd.test_globs])
        .describe('A test commit must change at least one file matching these globs'),
      inline_tests: z
        .array(
          z.strictObject({
            files: z.string().min(1).describe('A glob of the source files that keep tests inside them'),
            start: z
              .string()
              .min(1)
              .max(500)
              .refine(isRegExpSource, 'expected a JavaScript regular expression, e.g. "^\\s*#\\[test\\]"')
              .describe('The line that opens a test region (it runs to the end of the next {...} block)'),
          }),
        )
        .default(() => structuredClone(DEFAULTS.tdd.inline_tests))
        .describe('Tests kept inside source files: a change inside a region counts as a test change'),
      since: z
        .string({ error: readAsNumber('the sha', 'since') })
        .regex(COMMIT_SHA, { error: (issue) => commitShaProblem(String(issue.input)) ?? undefined })
        .nullable()
        .default(DEFAULTS.tdd.since),
      default_branch: z
        .string({ error: readAsNumber('the branch name', 'default_branch') })
        .min(1)
        .default(DEFAULTS.tdd.default_branch),
      test_command: z
        .string()
        .min(1)
        .default(DEFAULTS.tdd.test_command)
        .describe('Used by `hestai verify --red-green`'),
    })
    .default(() => structuredClone(DEFAULTS.tdd)),
  commit: z
    .strictObject({
      ignore: z
        .array(
          z
            .string()
            .min(1)
            .max(500)
            .refine(isRegExpSource, 'expected a JavaScript regular expression, e.g. "^Release v\\d+"'),
        )
        .default([])
        .describe('Regular expressions matched against the header: matching commits are not judged'),
      default_ignores: z
        .boolean()
        .default(DEFAULTS.commit.default_ignores)
        .describe('Also ignore version bumps and release-tool commits'),
      type_case: z
        .enum(['insensitive', 'lower'])
        .default(DEFAULTS.commit.type_case)
        .describe('insensitive: the spec (Feat: is a feat); lower: only lower-case types'),
      body_separator: z
        .enum(['error', 'warn', 'off'])
        .default(DEFAULTS.commit.body_separator)
        .describe('A body not separated from the header by a blank line'),
    })
    .default(() => structuredClone(DEFAULTS.commit)),
  anchor: z
    .strictObject({
      required: z.boolean().default(DEFAULTS.anchor.required).describe('pre-commit blocks without a valid anchor'),
      strictness: z.enum(['quick', 'default', 'deep']).default(DEFAULTS.anchor.strictness),
      handshake_ttl_minutes: z
        .number()
        .int()
        .positive()
        .max(24 * 60)
        .default(DEFAULTS.anchor.handshake_ttl_minutes),
      valid_hours: z
        .number()
        .int()
        .positive()
        .max(24 * 30)
        .default(DEFAULTS.anchor.valid_hours)
        .describe('An anchor (and its proof record) covers commits made up to this many hours after it was validated'),
      constitutions: z
        .enum(['install', 'strict'], {
          error:
            'expected "install" (a missing role constitution is installed from the packaged defaults) or "strict" (it is refused)',
        })
        .default(DEFAULTS.anchor.constitutions)
        .describe('What the identity stage does when a role has no constitution in .hestai-sys/agents/'),
    })
    .default(() => structuredClone(DEFAULTS.anchor)),
  hooks: z
    .strictObject({
      pre_commit: z.boolean().default(DEFAULTS.hooks.pre_commit),
      commit_msg: z.boolean().default(DEFAULTS.hooks.commit_msg),
      trailers: z
        .boolean()
        .default(DEFAULTS.hooks.trailers)
        .describe('commit-msg appends HestAI-Session and HestAI-Anchor'),
    })
    .default(() => structuredClone(DEFAULTS.hooks)),
  verify: z
    .strictObject({
      trailers: z
        .enum(['off', 'warn', 'error'])
        .default(DEFAULTS.verify.trailers)
        .describe('Missing or malformed HestAI trailers'),
      bypass: z.enum(['warn', 'error']).default(DEFAULTS.verify.bypass).describe('Commits carrying HestAI-Bypass'),
      unrelated_histories: z
        .enum(['error', 'allow'])
        .default(DEFAULTS.verify.unrelated_histories)
        .describe('A merge of a history that shares no commit with the branch (another root)'),
      anchors: z
        .enum(['off', 'warn', 'error'])
        .default(DEFAULTS.verify.anchors)
        .describe("Re-validating each commit's anchor from its published proof record"),
      exempt: z
        .enum(['allow', 'warn', 'error'])
        .default(DEFAULTS.verify.exempt)
        .describe('Commits carrying TDD-Exempt'),
    })
    .default(() => structuredClone(DEFAULTS.verify)),
  protocol: z
    .strictObject({
      enforce: z
        .boolean()
        .default(DEFAULTS.protocol.enforce)
        .describe(
          'pre-commit blocks while a blocking gate of the current phase is unmet; MCP tools refuse while a blocking start gate is unmet',
        ),
      force_limit: z
        .number()
        .int()
        .min(0)
        .max(100)
        .default(DEFAULTS.protocol.force_limit)
        .describe('Forced advances allowed per session'),
      history_limit: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .default(DEFAULTS.protocol.history_limit)
        .describe('Records kept in the protocol history'),
      verify: z
        .enum(['off', 'warn', 'error'])
        .default(DEFAULTS.protocol.verify)
        .describe(
          'hestai verify: commits made under a session whose published protocol run ended INCOMPLETE or with violations',
        ),
    })
    .default(() => structuredClone(DEFAULTS.protocol)),
  agents: z
    .strictObject({
      stop_gate: z
        .boolean()
        .default(DEFAULTS.agents.stop_gate)
        .describe(
          "with protocol.enforce, agent runtimes' Stop hook sends the agent back (once per turn) while a MUST end gate is unmet",
        ),
      read_tools: z
        .array(
          z.string().superRefine((pattern, ctx) => {
            const problem = readToolPatternProblem(pattern);
            if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
          }),
        )
        .default(() => [...DEFAULTS.agents.read_tools])
        .describe(
          'Tools (exact names, or a prefix ending in "*") an agent may call before its anchor as reads; read from the base branch\'s committed file',
        ),
    })
    .default(() => structuredClone(DEFAULTS.agents)),
  anchors: z
    .strictObject({
      publish: z
        .boolean()
        .default(DEFAULTS.anchors.publish)
        .describe('The pre-push hook publishes the anchors branch (hestai/anchors) with every git push'),
    })
    .default(() => structuredClone(DEFAULTS.anchors)),
  quality_gates: z.array(qualityGateSchema).default([]),
});

export type WorkspaceConfig = z.infer<typeof configSchema>;
