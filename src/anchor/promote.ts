/**
 * Promotion (docs/design.md §2): the sealed anchor is written completely to `pending/{token}/anchor.json`
 * (atomic write), then moved with ONE rename(2) to `active/{token}/anchor.json` (same filesystem), so
 * no reader ever sees a partial or unvalidated anchor. The caller holds the token's handshake lock and
 * has re-checked the handshake stage, which makes exactly one of concurrent proofs win.
 */
import path from 'node:path';
import { pendingDir, relativeToRoot, type WorkspacePaths } from '../paths.js';
import { markSessionWorking } from '../records/activity.js';
import { assertSafeStatePath, renameStatePath, writeJsonAtomic } from '../state/store.js';
import {
  ANCHOR_FILE,
  anchorDigest,
  anchorFile,
  sealAnchor,
  type AnchorRecord,
  type UnsealedAnchor,
} from '../records/anchor.js';
import { removePending, writeHandshake, type HandshakeRecord } from '../records/handshake.js';
import { readSession } from '../records/session.js';
import { auditedResets, publishProofRecord } from '../records/proof-publish.js';
import { PROOF_RECORD_KIND, type ProofRecord } from '../records/proof-record.js';
import type { WorkPermit } from './results.js';

/**
 * Moves the session CREATED → ACTIVE, then seals, writes and promotes the anchor; marks the handshake
 * BOUND and removes the pending directory.
 */
export async function promoteAnchor(
  paths: WorkspacePaths,
  unsealed: UnsealedAnchor,
  handshake: HandshakeRecord | null,
  now: string,
): Promise<{ anchor: AnchorRecord; permit: WorkPermit }> {
  // The proof record goes into git first (before the commit point): a record nobody names is harmless,
  // an anchor whose record is missing would fail in CI.
  const session = readSession(paths, unsealed.token);
  const record = (head: string | null): ProofRecord => ({
    kind: PROOF_RECORD_KIND,
    version: 1,
    session_id: unsealed.token,
    role: unsealed.role,
    tier: unsealed.tier,
    mode: unsealed.mode,
    source: unsealed.source,
    canonical_anchor: unsealed.canonical_anchor,
    head,
    anchored_at: unsealed.validated_at,
    context_generated_at: session?.context_generated_at ?? unsealed.validated_at,
    acknowledgments: (session?.acknowledgments ?? []).map((a) => ({
      at: a.at,
      context_generated_at: a.context_generated_at,
      reason: a.reason,
    })),
    resets: auditedResets(paths, unsealed.token),
    ...(session?.agent ? { agent: { runtime: session.agent.runtime, model: session.agent.model } } : {}),
  });
  const digest = await publishProofRecord(paths.root, record, new Date(now));
  const anchor = sealAnchor(digest === null ? unsealed : { ...unsealed, record_digest: digest });
  // Before the commit point (the rename): if this bookkeeping fails, the proof fails whole and can be sent
  // again; an ACTIVE session without an anchor is what refresh and ack leave too.
  await markSessionWorking(paths, anchor.token, anchor.validated_at);
  const staged = path.join(pendingDir(paths, anchor.token), ANCHOR_FILE);
  const target = anchorFile(paths, anchor.token);
  writeJsonAtomic(staged, anchor);
  assertSafeStatePath(target, 'file');
  renameStatePath(staged, target);
  if (handshake !== null) writeHandshake(paths, { ...handshake, stage: 'BOUND', updated_at: now });
  removePending(paths, anchor.token);
  return {
    anchor,
    permit: {
      token: anchor.token,
      role: anchor.role,
      tier: anchor.tier,
      anchor_file: relativeToRoot(paths, target),
      anchor_digest: anchorDigest(anchor),
      validated_at: anchor.validated_at,
    },
  };
}
