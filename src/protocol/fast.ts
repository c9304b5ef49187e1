import { hasNoParentSegment, isRelativePath } from '../config/checks.js';
import {
  bool,
  byKey,
  list,
  literal,
  NO,
  num,
  oneOf,
  optional,
  orDefault,
  str,
  strict,
  refined,
  type Check,
} from '../config/mirror.js';
import {
  COMPLETE,
  EVIDENCE_TYPES,
  LEVELS,
  POST_COMMIT_CHECKS,
  PROTOCOL_ID,
  STAGES,
  type CheckType,
  type Protocol,
} from './types.js';

/**
 * `.hestai/protocol.yaml` checked without zod, for the hooks (protocol.enforce): a mirror of schema.ts, the
 * one schema, held equal to it by a property test (test/unit/protocol/fast.test.ts: same accept or reject,
 * same value). It answers a valid protocol or `null`; on `null` the loader asks yaml and zod, which report
 * every problem with its key and line.
 */
export function fastProtocol(raw: unknown): Protocol | null {
  const value = protocol(raw);
  return value === NO ? null : (value as Protocol);
}

const id = str({ pattern: PROTOCOL_ID });
const relPathOrGlob = str({ min: 1, refine: [isRelativePath, hasNoParentSegment] });
const bare = (type: CheckType): Check => strict({ type: literal(type) });

const check = byKey('type', {
  file_exists: strict({ type: literal('file_exists'), path: relPathOrGlob }),
  file_modified_since_start: strict({ type: literal('file_modified_since_start'), path: relPathOrGlob }),
  command: strict({
    type: literal('command'),
    run: str({ min: 1 }),
    timeout_ms: orDefault(num({ int: true, gt: 0, max: 600_000 }), () => 60_000),
  }),
  git_commit_since_start: bare('git_commit_since_start'),
  git_clean: bare('git_clean'),
  branch_not: strict({ type: literal('branch_not'), branches: list(str({ min: 1 }), 1) }),
  anchor_valid: bare('anchor_valid'),
  context_fresh: bare('context_fresh'),
  tests_first: bare('tests_first'),
  git_state: bare('git_state'),
  evidence: strict({
    type: literal('evidence'),
    accepts: list(oneOf(EVIDENCE_TYPES), 1),
    path: optional(relPathOrGlob),
  }),
});

interface RawGate {
  level: string;
  blocking?: boolean;
  pre_commit?: boolean;
  check: { type: CheckType; accepts?: string[]; path?: string };
}
const gate = refined(
  strict({
    id,
    step: str({ min: 1 }),
    level: oneOf(LEVELS),
    blocking: optional(bool),
    check,
    pre_commit: optional(bool),
  }),
  (value) => {
    const g = value as RawGate;
    if (g.pre_commit === true && POST_COMMIT_CHECKS.has(g.check.type)) return NO;
    if (g.check.type === 'evidence' && g.check.accepts!.includes('content_hash') && g.check.path === undefined)
      return NO;
    return {
      ...g,
      blocking: g.blocking ?? g.level === 'MUST',
      pre_commit: g.pre_commit ?? !POST_COMMIT_CHECKS.has(g.check.type),
    };
  },
);

/** No two items with the same id. */
const uniqueIds = (items: ReadonlyArray<{ id: string }>): boolean =>
  new Set(items.map((i) => i.id)).size === items.length;

const phase = refined(
  strict({
    id: str({ pattern: PROTOCOL_ID, refine: [(v) => v !== COMPLETE] }),
    title: optional(str({ min: 1 })),
    stage: orDefault(oneOf(STAGES), () => 'work'),
    gates: orDefault(list(gate), () => []),
  }),
  (value) => {
    const p = value as { id: string; title?: string; gates: Array<{ id: string }> };
    return uniqueIds(p.gates) ? { ...p, title: p.title ?? p.id } : NO;
  },
);

const protocol = refined(strict({ version: literal(1), phases: list(phase, 1) }), (value) =>
  uniqueIds((value as { phases: Array<{ id: string }> }).phases) ? value : NO,
);
