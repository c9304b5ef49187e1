import * as z from 'zod/mini';
import { hasNoParentSegment, isRelativePath } from '../config/checks.js';
import { COMPLETE, EVIDENCE_TYPES, LEVELS, POST_COMMIT_CHECKS, PROTOCOL_ID, STAGES, type Protocol } from './types.js';

/**
 * The zod schema of `.hestai/protocol.yaml`. Strict objects everywhere: an unknown key is an error with
 * the nearest known key. Defaults: `blocking` follows the level (MUST blocks), `pre_commit` follows the
 * check (post-commit checks are never evaluated by the pre-commit hook), `stage` is `work`.
 */
const id = z
  .string()
  .check(z.regex(PROTOCOL_ID, 'expected an identifier: a letter, then letters, digits, "_" or "-" (at most 64)'));

const relPathOrGlob = z
  .string()
  .check(
    z.minLength(1, 'expected a non-empty relative path'),
    z.refine(isRelativePath, 'expected a path relative to the repository root'),
    z.refine(hasNoParentSegment, 'expected a path inside the repository (no "..")'),
  );
const nonEmpty = () => z.string().check(z.minLength(1));
const only = <T extends string>(type: T) => z.strictObject({ type: z.literal(type) });

const checkSchema = z.discriminatedUnion('type', [
  /** The file must exist (a glob matches any file). */
  z.strictObject({ type: z.literal('file_exists'), path: relPathOrGlob }),
  /** The path or glob must have changed since the run started (`names_session`: a changed file names the run's session). */
  z.strictObject({
    type: z.literal('file_modified_since_start'),
    path: relPathOrGlob,
    names_session: z.optional(z.boolean()),
  }),
  /** A shell command run in the repository root; exit 0 passes. */
  z.strictObject({
    type: z.literal('command'),
    run: nonEmpty(),
    timeout_ms: z._default(z.int().check(z.positive(), z.maximum(600_000)), 60_000),
  }),
  only('git_commit_since_start'),
  only('git_clean'),
  /** Branches work must not happen on. */
  z.strictObject({ type: z.literal('branch_not'), branches: z.array(nonEmpty()).check(z.minLength(1)) }),
  only('anchor_valid'),
  only('context_fresh'),
  only('tests_first'),
  only('git_state'),
  /** content_hash: `path` is the file whose sha256 must match; file_path: a glob the path must match. */
  z.strictObject({
    type: z.literal('evidence'),
    accepts: z.array(z.enum(EVIDENCE_TYPES)).check(z.minLength(1)),
    path: z.optional(relPathOrGlob),
  }),
]);

const gateSchema = z.pipe(
  z
    .strictObject({
      id,
      step: nonEmpty(),
      level: z.enum(LEVELS),
      blocking: z.optional(z.boolean()),
      check: checkSchema,
      pre_commit: z.optional(z.boolean()),
    })
    .check(
      z.superRefine((gate, ctx) => {
        if (gate.pre_commit === true && POST_COMMIT_CHECKS.has(gate.check.type)) {
          ctx.addIssue({
            code: 'custom',
            path: ['pre_commit'],
            message: `a ${gate.check.type} check can only hold after the commit; the pre-commit hook never evaluates it (remove pre_commit: true)`,
            input: gate,
          });
        }
        if (
          gate.check.type === 'evidence' &&
          gate.check.accepts.includes('content_hash') &&
          gate.check.path === undefined
        ) {
          ctx.addIssue({
            code: 'custom',
            path: ['check', 'path'],
            message: 'an evidence check accepting content_hash needs path: the file whose sha256 must match',
            input: gate,
          });
        }
      }),
    ),
  z.transform((gate) => ({
    ...gate,
    blocking: gate.blocking ?? gate.level === 'MUST',
    pre_commit: gate.pre_commit ?? !POST_COMMIT_CHECKS.has(gate.check.type),
  })),
);

/** Reports each id already seen earlier in `ids`, at `path`, its index, `id`. */
function noDuplicateIds(
  ids: readonly string[],
  ctx: { addIssue: (issue: z.core.$ZodRawIssue) => void },
  path: string[],
  what: (id: string) => string,
) {
  const seen = new Set<string>();
  ids.forEach((value, i) => {
    if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [...path, i, 'id'], message: what(value), input: value });
    seen.add(value);
  });
}

const phaseSchema = z.pipe(
  z
    .strictObject({
      id: id.check(z.refine((v) => v !== COMPLETE, `"${COMPLETE}" is reserved for the state after the last phase`)),
      title: z.optional(nonEmpty()),
      stage: z._default(z.enum(STAGES), 'work'),
      gates: z._default(z.array(gateSchema), () => []),
    })
    .check(
      z.superRefine((phase, ctx) =>
        noDuplicateIds(
          phase.gates.map((gate) => gate.id),
          ctx,
          ['gates'],
          (gate) => `duplicate gate id "${gate}" in phase ${phase.id}`,
        ),
      ),
    ),
  z.transform((phase) => ({ ...phase, title: phase.title ?? phase.id })),
);

export const protocolSchema = z
  .strictObject({
    version: z.literal(1),
    phases: z.array(phaseSchema).check(z.minLength(1, 'expected at least one phase')),
  })
  .check(
    z.superRefine((protocol, ctx) =>
      noDuplicateIds(
        protocol.phases.map((phase) => phase.id),
        ctx,
        ['phases'],
        (phase) => `duplicate phase id "${phase}"`,
      ),
    ),
  );

/** Type-level proof that the schema produces exactly the plain `Protocol` type. */
export type ParsedProtocol = z.output<typeof protocolSchema>;
const _assignable = (p: ParsedProtocol): Protocol => p;
void _assignable;
