/**
 * Proof records: what `hestai verify` re-checks in CI from git objects alone (DESIGN.md, "What CI can
 * know is what git carries"). A record is canonical JSON, named by the sha256 of its bytes; the
 * `HestAI-Anchor` trailer carries that digest in full (`sha256:<64 hex>`). Events (acknowledgments,
 * anchor resets, refreshes) made after the record are separate content-addressed files of the session,
 * so the record and its digest never change. Pure: building, naming, parsing; the git writes are in
 * `publish.ts`.
 */
import { canonicalJson, type Strictness } from './anchor.js';
import { sha256Hex } from '../util/sha256.js';
import type { AgentIdentity } from './attribution.js';

export const PROOF_RECORD_KIND = 'hestai.anchor-proof';
export const PROOF_EVENT_KIND = 'hestai.anchor-event';

export interface ProofAcknowledgment {
  at: string;
  context_generated_at: string;
  reason: string;
}

export interface ProofReset {
  at: string;
  reason: string | null;
}

/** The proof record of one validated anchor. */
export interface ProofRecord {
  kind: typeof PROOF_RECORD_KIND;
  version: 1;
  session_id: string;
  role: string;
  tier: Strictness;
  mode: 'full' | 'lite';
  source: 'anchor' | 'odyssean_anchor';
  /** The canonical RAPH v4.0 vector (BIND, server ARM, TENSION, COMMIT). */
  canonical_anchor: string;
  /** The commit HEAD pointed at when the anchor was validated (null in a repository without commits). */
  head: string | null;
  anchored_at: string;
  /** The session's context generation when it anchored (what the freshness rule measures). */
  context_generated_at: string;
  acknowledgments: ProofAcknowledgment[];
  resets: ProofReset[];
  /** The agent runtime that started the session and its model (absent: a person's session, or an older hestai). */
  agent?: AgentIdentity;
}

/** A later event of a session: `ack` (covers one context generation), `reset`, or `refresh` (a new generation). */
export interface ProofEvent {
  kind: typeof PROOF_EVENT_KIND;
  version: 1;
  event: 'ack' | 'reset' | 'refresh';
  session_id: string;
  at: string;
  /** ack: the generation covered; refresh: the new generation. */
  context_generated_at: string | null;
  reason: string | null;
}

/** The exact bytes stored in git for a record or an event. */
export function proofBytes(value: ProofRecord | ProofEvent): string {
  return canonicalJson(value);
}

/** The digest naming a record or event: sha256 (hex) of its bytes. */
export function proofDigest(value: ProofRecord | ProofEvent): string {
  return sha256Hex(proofBytes(value));
}

/** Path of a record in the anchors tree. */
export function recordPath(digest: string): string {
  return `records/${digest}.json`;
}

/** Path of an event in the anchors tree. */
export function eventPath(sessionId: string, digest: string): string {
  return `events/${sessionId}/${digest}.json`;
}
