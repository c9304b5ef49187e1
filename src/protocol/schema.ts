import { z } from 'zod';
import { hasNoParentSegment, isRelativePath } from '../config/checks.js';
import { COMPLETE, EVIDENCE_TYPES, LEVELS, POST_COMMIT_CHECKS, PROTOCOL_ID, STAGES, type Protocol } from './types.js';

/**
 * The zod schema of `.hestai/protocol.yaml`. Strict objects everywhere: an unknown key is an error with
 * the nearest known key. Defaults: `blocking` follows the level (MUST blocks), `pre_commit` follows the
 * check (post-commit checks are never evaluated by the pre-commit hook), `stage` is `work`.
 */
const id = z
  .string()
  .regex(PROTOCOL_ID, 'expected an identifier: a letter, then letters, digits, "_" or "-" (at most 64)');

const relPathOrGlob = z
  .string()
  .min(1, 'expected a non-empty relative path')
  .refine(isRelativePath, 'expected a path relative to the repository root')
  .refine(hasNoParentSegment, 'expected a path inside the repository (no "..")');

const checkSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('file_exists'),
    path: relPathOrGlob.describe('File that must exist (a glob matches any file)'),
  }),
  z.strictObject({
    type: z.literal('file_modified_since_start'),
    path: relPathOrGlob.describe('Path or glob that must have changed since the run started'),
  }),
  z.strictObject({
    type: z.literal('command'),
    run: z.string().min(1).describe('Shell command run in the repository root; exit 0 passes'),
    timeout_ms: z.number().int().positive().max(600_000).default(60_000),
  }),
  z.strictObject({ type: z.literal('git_commit_since_start') }),
  z.strictObject({ type: z.literal('git_clean') }),
  z.strictObject({
    type: z.literal('branch_not'),
    branches: z.array(z.string().min(1)).min(1).describe('Branches work must not happen on'),
  }),
  z.strictObject({ type: z.literal('anchor_valid') }),
  z.strictObject({ type: z.literal('context_fresh') }),
  z.strictObject({ type: z.literal('tests_first') }),
  z.strictObject({ type: z.literal('git_state') }),
  z.strictObject({
    type: z.literal('evidence'),
    accepts: z.array(z.enum(EVIDENCE_TYPES)).min(1).describe('Evidence types that can satisfy the gate'),
    path: relPathOrGlob
      .optional()
      .describe('content_hash: the file whose sha256 must match; file_path: a glob the path must match'),
  }),
]);

const gateSchema = z
  .strictObject({
    id,
    step: z.string().min(1).describe('The checklist wording'),
    level: z.enum(LEVELS),
    blocking: z.boolean().optional(),
    check: checkSchema,
    pre_commit: z.boolean().optional(),
  })
  .superRefine((gate, ctx) => {
    if (gate.pre_commit === true && POST_COMMIT_CHECKS.has(gate.check.type)) {
      ctx.addIssue({
        code: 'custom',
        path: ['pre_commit'],
        message: `a ${gate.check.type} check can only hold after the commit; the pre-commit hook never evaluates it (remove pre_commit: true)`,
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
      });
    }
  })
  .transform((gate) => ({
    ...gate,
    blocking: gate.blocking ?? gate.level === 'MUST',
    pre_commit: gate.pre_commit ?? !POST_COMMIT_CHECKS.has(gate.check.type),
  }));

const phaseSchema = z
  .strictObject({
    id: id.refine((v) => v !== COMPLETE, `"${COMPLETE}" is reserved for the state after the last phase`),
    title: z.string().min(1).optional(),
    stage: z.enum(STAGES).default('work'),
    gates: z.array(gateSchema).default([]),
  })
  .superRefine((phase, ctx) => {
    const seen = new Set<string>();
    phase.gates.forEach((gate, i) => {
      if (seen.has(gate.id))
        ctx.addIssue({
          code: 'custom',
          path: ['gates', i, 'id'],
          message: `duplicate gate id "${gate.id}" in phase ${phase.id}`,
        });
      seen.add(gate.id);
    });
  })
  .transform((phase) => ({ ...phase, title: phase.title ?? phase.id }));

export const protocolSchema = z
  .strictObject({
    version: z.literal(1),
    phases: z.array(phaseSchema).min(1, 'expected at least one phase'),
  })
  .superRefine((protocol, ctx) => {
    const seen = new Set<string>();
    protocol.phases.forEach((phase, i) => {
      if (seen.has(phase.id))
        ctx.addIssue({ code: 'custom', path: ['phases', i, 'id'], message: `duplicate phase id "${phase.id}"` });
      seen.add(phase.id);
    });
  });

/** Type-level proof that the schema produces exactly the plain `Protocol` type. */
export type ParsedProtocol = z.infer<typeof protocolSchema>;
const _assignable = (p: ParsedProtocol): Protocol => p;
void _assignable;
