import path from 'node:path';
import { activeDir, type WorkspacePaths } from '../paths.js';
import { isHestaiError } from '../errors.js';
import { readJsonIfExists, type Validate } from '../state/store.js';
import { isLive, readSession } from './session.js';
import { sha256Hex } from '../util/sha256.js';
import * as z from 'zod/mini';
import { isoDate, recordChecker, UUID_V4 } from '../util/validate.js';

export const STRICTNESS = ['quick', 'default', 'deep'] as const;
export type Strictness = (typeof STRICTNESS)[number];

/** The server-authoritative ARM (docs/design.md §2), as computed when the anchor was validated. */
export interface ArmSnapshot {
  phase: string;
  branch: string;
  ahead: number;
  behind: number;
  files_count: number;
  top_files: string[];
  focus: string;
  context_hash: string;
}

/** `.hestai/sessions/active/{token}/anchor.json`: a validated anchor, sealed with an integrity hash. */
export interface AnchorRecord {
  version: 1;
  token: string;
  validated: true;
  role: string;
  mode: 'full' | 'lite';
  tier: Strictness;
  /** `anchor` (staged v5) or `odyssean_anchor` (one-shot v4 vector). */
  source: 'anchor' | 'odyssean_anchor';
  validated_at: string;
  arm: ArmSnapshot;
  /** The canonical RAPH v4.0 vector (server ARM, normalised operators). */
  canonical_anchor: string;
  /** sha256 (hex) of the proof record published in the anchors branch (absent outside a git repository). */
  record_digest?: string;
  integrity: { algorithm: 'sha256'; hash: string };
}

export type UnsealedAnchor = Omit<AnchorRecord, 'integrity'>;

export const ANCHOR_FILE = 'anchor.json';

/** JSON with object keys sorted at every level: the canonical form the integrity hash covers. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The sha256 (hex) over the canonical content of an anchor, i.e. everything but `integrity`. */
export function anchorIntegrityHash(anchor: UnsealedAnchor | AnchorRecord): string {
  const { integrity: _ignored, ...content } = anchor as AnchorRecord;
  return sha256Hex(canonicalJson(content));
}

/** Seals an anchor: adds the integrity hash over its canonical content. */
export function sealAnchor(anchor: UnsealedAnchor): AnchorRecord {
  return { ...anchor, integrity: { algorithm: 'sha256', hash: anchorIntegrityHash(anchor) } };
}

/**
 * The `HestAI-Anchor` trailer value: `sha256:` and the full digest of the anchor's proof record (the
 * name `hestai verify` looks the record up by), or of the anchor itself when it has no record.
 */
export function anchorDigest(anchor: AnchorRecord): string {
  return `sha256:${anchor.record_digest ?? anchor.integrity.hash}`;
}

const hex64 = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'expected 64 hex digits'));

/** The shape of anchor.json (extra keys pass; the integrity hash covers them). */
const anchorSchema = z.looseObject({
  version: z.literal(1),
  token: z.string().check(z.regex(UUID_V4)),
  validated: z.boolean(),
  role: z.string(),
  mode: z.enum(['full', 'lite']),
  tier: z.enum(STRICTNESS),
  source: z.enum(['anchor', 'odyssean_anchor']),
  validated_at: isoDate,
  canonical_anchor: z.string(),
  record_digest: z.optional(hex64),
  arm: z.looseObject({
    phase: z.string(),
    branch: z.string(),
    focus: z.string(),
    context_hash: z.string(),
    ahead: z.number(),
    behind: z.number(),
    files_count: z.number(),
    top_files: z.array(z.unknown()),
  }),
  integrity: z.looseObject({ algorithm: z.literal('sha256'), hash: hex64 }),
});
export const validateAnchorRecord: Validate<AnchorRecord> = recordChecker(anchorSchema);

export function anchorFile(paths: WorkspacePaths, token: string): string {
  return path.join(activeDir(paths, token), ANCHOR_FILE);
}

export type AnchorCheck =
  | { valid: true; anchor: AnchorRecord }
  | {
      valid: false;
      /** Machine-readable reason. */
      code:
        | 'INVALID_TOKEN'
        | 'NO_SESSION'
        | 'NO_ANCHOR'
        | 'CORRUPT'
        | 'NOT_VALIDATED'
        | 'TAMPERED'
        | 'TOKEN_MISMATCH'
        | 'SESSION_CLOSED'
        | 'EXPIRED';
      /** One sentence for humans: what is wrong and where. */
      reason: string;
    };

/**
 * Gating (seed 001): does `active/{token}/anchor.json` hold a valid anchor? Checks that the file exists,
 * is JSON of the right shape, says `validated: true`, carries an integrity hash matching its content and
 * the token of its directory, and that the session it belongs to is still open.
 */
export function hasValidAnchor(paths: WorkspacePaths, token: string): AnchorCheck {
  if (!UUID_V4.test(token))
    return { valid: false, code: 'INVALID_TOKEN', reason: `"${token}" is not a session token (UUID v4)` };
  const file = anchorFile(paths, token);
  let session: ReturnType<typeof readSession>;
  try {
    session = readSession(paths, token);
  } catch (error) {
    return { valid: false, code: 'CORRUPT', reason: isHestaiError(error) ? error.message : String(error) };
  }
  if (session === null)
    return { valid: false, code: 'NO_SESSION', reason: `no active session ${token} in ${paths.active}` };
  if (!isLive(session)) {
    return { valid: false, code: 'SESSION_CLOSED', reason: `session ${token} is ${session.state}` };
  }
  let anchor: AnchorRecord | null;
  try {
    anchor = readJsonIfExists(file, validateAnchorRecord);
  } catch (error) {
    return { valid: false, code: 'CORRUPT', reason: isHestaiError(error) ? error.message : String(error) };
  }
  if (anchor === null)
    return { valid: false, code: 'NO_ANCHOR', reason: `session ${token} has no anchor (${file} does not exist)` };
  if (anchor.validated !== true) return { valid: false, code: 'NOT_VALIDATED', reason: `${file} is not validated` };
  if (anchor.token !== token)
    return { valid: false, code: 'TOKEN_MISMATCH', reason: `${file} belongs to token ${anchor.token}` };
  if (anchorIntegrityHash(anchor) !== anchor.integrity.hash)
    return {
      valid: false,
      code: 'TAMPERED',
      reason: `${file} does not match its integrity hash (edited after validation)`,
    };
  return { valid: true, anchor };
}
