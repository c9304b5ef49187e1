import { readToolPatternProblem } from '../util/agent-tools.js';
import { COMMIT_SHA, COMMIT_TYPE, ENV_NAME, hasNoParentSegment, isRegExpSource, isRelativePath } from './checks.js';
import { DEFAULTS } from './defaults.js';
import { bool, list, NO, num, nullable, oneOf, optional, orDefault, str, strict, url, type Check } from './mirror.js';
import type { WorkspaceConfig } from './schema.js';

/**
 * The workspace config checked without zod, for the hooks: loading zod and building the schema costs a hook
 * about 40 ms of CPU on every commit and every agent tool call, checking a parsed file with these functions
 * well under one. zod (schema.ts) stays the one schema: this is a mirror of it, key for key, that a property
 * test (test/unit/config-fast.test.ts) holds equal to it on every key of the schema, with the same accept or
 * reject and the same value. It answers a valid config or `null`, never an error: on `null` the loader asks
 * zod, which reports every problem with its key and line (or accepts, should this mirror ever be stricter).
 */
export function fastConfig(raw: unknown): WorkspaceConfig | null {
  const value = config(raw);
  return value === NO ? null : (value as WorkspaceConfig);
}

/** A section of the config: its keys, defaulting to a copy of its DEFAULTS entry when missing. */
const section = <K extends keyof typeof DEFAULTS>(name: K, shape: Record<string, Check>): Check =>
  orDefault(strict(shape), () => structuredClone(DEFAULTS[name]));

const relPath = str({ min: 1, refine: [isRelativePath, hasNoParentSegment] });
const regExpSource = str({ min: 1, max: 500, refine: [isRegExpSource] });
const D = DEFAULTS;
const qualityGate = strict({
  name: str({ min: 1 }),
  command: str({ min: 1 }),
  timeout_ms: orDefault(num({ int: true, gt: 0, max: 600_000 }), () => 30_000),
});

const config = strict({
  context_paths: section('context_paths', {
    additional: orDefault(list(relPath), () => []),
    exclude: orDefault(list(relPath), () => [...D.context_paths.exclude]),
  }),
  github: section('github', {
    issue_search: orDefault(bool, () => D.github.issue_search),
    pr_context: orDefault(bool, () => D.github.pr_context),
    timeout_ms: orDefault(num({ int: true, gt: 0, max: 60_000 }), () => D.github.timeout_ms),
  }),
  ai: section('ai', {
    model_override: optional(str({ min: 1 })),
    base_url: optional(url),
    api_key_env: optional(str({ pattern: ENV_NAME })),
    timeout_ms: orDefault(num({ int: true, gt: 0, max: 120_000 }), () => D.ai.timeout_ms),
  }),
  cleanup: section('cleanup', {
    stale_session_hours: orDefault(num({ gt: 0 }), () => D.cleanup.stale_session_hours),
    archive_retention_days: orDefault(num({ gt: 0 }), () => D.cleanup.archive_retention_days),
  }),
  freshness: section('freshness', {
    max_age_hours: orDefault(num({ gt: 0 }), () => D.freshness.max_age_hours),
  }),
  tdd: section('tdd', {
    policy: orDefault(oneOf(['paired', 'scoped', 'any', 'same-commit']), () => D.tdd.policy),
    types: orDefault(list(str({ pattern: COMMIT_TYPE }), 1), () => [...D.tdd.types]),
    test_globs: orDefault(list(str({ min: 1 }), 1), () => [...D.tdd.test_globs]),
    inline_tests: orDefault(list(strict({ files: str({ min: 1 }), start: regExpSource })), () =>
      structuredClone(D.tdd.inline_tests),
    ),
    since: orDefault(nullable(str({ pattern: COMMIT_SHA })), () => D.tdd.since),
    default_branch: orDefault(str({ min: 1 }), () => D.tdd.default_branch),
    test_command: orDefault(str({ min: 1 }), () => D.tdd.test_command),
  }),
  commit: section('commit', {
    ignore: orDefault(list(regExpSource), () => []),
    default_ignores: orDefault(bool, () => D.commit.default_ignores),
    type_case: orDefault(oneOf(['insensitive', 'lower']), () => D.commit.type_case),
    body_separator: orDefault(oneOf(['error', 'warn', 'off']), () => D.commit.body_separator),
  }),
  anchor: section('anchor', {
    required: orDefault(bool, () => D.anchor.required),
    strictness: orDefault(oneOf(['quick', 'default', 'deep']), () => D.anchor.strictness),
    handshake_ttl_minutes: orDefault(num({ int: true, gt: 0, max: 24 * 60 }), () => D.anchor.handshake_ttl_minutes),
    valid_hours: orDefault(num({ int: true, gt: 0, max: 24 * 30 }), () => D.anchor.valid_hours),
    constitutions: orDefault(oneOf(['install', 'strict']), () => D.anchor.constitutions),
  }),
  hooks: section('hooks', {
    pre_commit: orDefault(bool, () => D.hooks.pre_commit),
    commit_msg: orDefault(bool, () => D.hooks.commit_msg),
    trailers: orDefault(bool, () => D.hooks.trailers),
  }),
  verify: section('verify', {
    trailers: orDefault(oneOf(['off', 'warn', 'error']), () => D.verify.trailers),
    bypass: orDefault(oneOf(['warn', 'error']), () => D.verify.bypass),
    unrelated_histories: orDefault(oneOf(['error', 'allow']), () => D.verify.unrelated_histories),
    anchors: orDefault(oneOf(['off', 'warn', 'error']), () => D.verify.anchors),
    exempt: orDefault(oneOf(['allow', 'warn', 'error']), () => D.verify.exempt),
  }),
  protocol: section('protocol', {
    enforce: orDefault(bool, () => D.protocol.enforce),
    force_limit: orDefault(num({ int: true, min: 0, max: 100 }), () => D.protocol.force_limit),
    history_limit: orDefault(num({ int: true, min: 1, max: 10_000 }), () => D.protocol.history_limit),
    verify: orDefault(oneOf(['off', 'warn', 'error']), () => D.protocol.verify),
  }),
  agents: section('agents', {
    stop_gate: orDefault(bool, () => D.agents.stop_gate),
    read_tools: orDefault(list(str({ refine: [(p) => readToolPatternProblem(p) === null] })), () => [
      ...D.agents.read_tools,
    ]),
  }),
  anchors: section('anchors', {
    publish: orDefault(bool, () => D.anchors.publish),
  }),
  quality_gates: orDefault(list(qualityGate), () => []),
});
