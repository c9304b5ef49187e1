/**
 * One zod schema per kind of file on `hestai/anchors`: a proof record, an event, a protocol run, a change
 * record. Every blob read from that branch is validated here before any of its fields is used; a file that
 * does not match is skipped with a warning naming it (src/evidence/store.ts). Unknown keys are kept out of the
 * value (they are ignored, as a newer writer's additions are).
 */
import { z } from 'zod';
import { UUID_V4 } from '../util/validate.js';
import { PROOF_EVENT_KIND, PROOF_RECORD_KIND, type ProofEvent, type ProofRecord } from '../records/proof-record.js';
import { PROTOCOL_RUN_KIND, type ProtocolRunRecord } from '../records/protocol-record.js';
import type { ChangeRecord } from '../git/change-records.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const iso = z.string().regex(ISO, 'expected an ISO-8601 time');
const oid = z.string().regex(OID, 'expected a full object id');
const session = z.string().regex(UUID_V4, 'expected a session id (UUID v4)');

const proofRecord = z.object({
  kind: z.literal(PROOF_RECORD_KIND),
  version: z.literal(1),
  session_id: session,
  role: z.string(),
  tier: z.enum(['quick', 'default', 'deep']),
  mode: z.enum(['full', 'lite']),
  source: z.enum(['anchor', 'odyssean_anchor']),
  canonical_anchor: z.string(),
  head: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/, 'expected a commit id')
    .nullable(),
  anchored_at: iso,
  context_generated_at: iso,
  acknowledgments: z.array(z.object({ at: z.string(), context_generated_at: z.string(), reason: z.string() })),
  resets: z.array(z.object({ at: z.string(), reason: z.string().nullable() })),
  agent: z.object({ runtime: z.string(), model: z.string().nullable() }).optional(),
});

const proofEvent = z.object({
  kind: z.literal(PROOF_EVENT_KIND),
  version: z.literal(1),
  event: z.enum(['ack', 'reset', 'refresh']),
  session_id: session,
  at: z.string(),
  context_generated_at: z.string().nullable(),
  reason: z.string().nullable(),
});

const protocolRun = z.object({
  kind: z.literal(PROTOCOL_RUN_KIND),
  version: z.literal(1),
  session_id: session,
  outcome: z.string(),
  started_at: z.string(),
  ended_at: z.string(),
  protocol_sha256: z.string(),
  starting_commit: z.string().nullable(),
  commit_sha: z.string().nullable(),
  commits: z.array(z.string()),
  forced: z.array(z.string()),
  violations: z.array(z.object({ phase: z.string(), requirement: z.string(), severity: z.string() })),
  commands: z
    .array(z.object({ gate: z.string(), run: z.string(), result: z.enum(['passed', 'failed', 'not run']) }))
    .optional(),
});

const changeRecord = z.object({
  kind: z.literal('hestai.change'),
  version: z.literal(1),
  branch: z.string(),
  tip: oid,
  tree: oid,
  base: oid.nullable(),
  patch_id: oid.nullable(),
  pushed_at: z.string(),
});

/** `coverage/<session>/<sha256>.json`: the commits one push says a session made (the pre-push hook writes it). */
const coverageRecord = z.object({
  kind: z.literal('hestai.coverage'),
  version: z.literal(1),
  session_id: session,
  branch: z.string(),
  tip: oid,
  /** The branch's change as one patch (base to tip): what a squash of it is. */
  patch_id: oid.nullable(),
  commits: z.array(z.object({ id: oid, patch_id: oid.nullable() })).max(10_000),
  pushed_at: z.string(),
});

export type CoverageRecord = z.infer<typeof coverageRecord>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Pure: JSON bytes checked against `schema`; the problem names the first fields that do not match. */
function parseWith<T>(schema: z.ZodType<T>, text: string): Parsed<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const fields = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(the document)'}: ${i.message}`);
  return { ok: false, problem: fields.join('; ') };
}

export const parseRecord = (text: string): Parsed<ProofRecord> => parseWith(proofRecord, text) as Parsed<ProofRecord>;
export const parseEvent = (text: string): Parsed<ProofEvent> => parseWith(proofEvent, text) as Parsed<ProofEvent>;
export const parseRun = (text: string): Parsed<ProtocolRunRecord> =>
  parseWith(protocolRun, text) as Parsed<ProtocolRunRecord>;
export const parseChange = (text: string): Parsed<ChangeRecord> =>
  parseWith(changeRecord, text) as Parsed<ChangeRecord>;
export const parseCoverage = (text: string): Parsed<CoverageRecord> => parseWith(coverageRecord, text);
