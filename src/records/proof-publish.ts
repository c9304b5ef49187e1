/**
 * Writes proof records and session events into the anchors branch (`hestai/anchors`, see src/git/anchors.ts)
 * of the repository. The pre-push hook publishes that branch with the user's `git push`.
 */
import { GitError } from '../git/exec.js';
import { anchorStoreHeadAsync, writeAnchorStoreAsync } from '../git/anchors.js';
import type { WorkspacePaths } from '../paths.js';
import { readJsonl } from '../state/store.js';
import { isRecord } from '../util/validate.js';
import {
  eventPath,
  PROOF_EVENT_KIND,
  proofBytes,
  proofDigest,
  recordPath,
  type ProofEvent,
  type ProofRecord,
  type ProofReset,
} from './proof-record.js';
import { protocolRunBytes, protocolRunPath, type ProtocolRunRecord } from './protocol-record.js';

/** HEAD and the anchors tip, or null when the workspace is not inside a git repository (nothing to prove there). */
async function storeHead(root: string): Promise<{ head: string | null; tip: string | null } | null> {
  try {
    return await anchorStoreHeadAsync(root);
  } catch (error) {
    if (error instanceof GitError && /not a git repository/i.test(error.stderr)) return null;
    throw error;
  }
}

/** The anchor resets of a session recorded in the audit log (best effort: an unreadable log gives none). */
export function auditedResets(paths: WorkspacePaths, sessionId: string): ProofReset[] {
  try {
    return readJsonl(paths.auditLog)
      .filter(
        (r) =>
          isRecord(r) && r['event'] === 'anchor_reset' && r['session_id'] === sessionId && typeof r['at'] === 'string',
      )
      .map((r) => {
        const rec = r as Record<string, unknown>;
        return { at: rec['at'] as string, reason: typeof rec['reason'] === 'string' ? rec['reason'] : null };
      });
  } catch {
    return [];
  }
}

/**
 * Stores a proof record in the anchors branch; its `head` is data in the record, never a parent of the
 * anchors commit (nothing the pushed refs lack is published). Returns the digest (hex), or null outside git.
 */
export async function publishProofRecord(
  root: string,
  build: (head: string | null) => ProofRecord,
  at: Date,
): Promise<string | null> {
  const store = await storeHead(root);
  if (store === null) return null;
  const record = build(store.head);
  const digest = proofDigest(record);
  await writeAnchorStoreAsync(
    root,
    [{ path: recordPath(digest), content: proofBytes(record) }],
    `hestai: anchor ${record.session_id} (${record.role}, ${record.tier})`,
    // The recorded HEAD is data in the record, never a parent of the anchors commit: a commit dropped
    // before any push (one holding a secret) must not reach the remote with the records (issue 24).
    { tip: store.tip, at },
  );
  return digest;
}

/** Stores a session event (ack, reset, refresh) in the anchors branch; a no-op outside git. */
export async function publishProofEvent(
  root: string,
  event: Omit<ProofEvent, 'kind' | 'version'>,
  at: Date,
): Promise<void> {
  const store = await storeHead(root);
  if (store === null) return;
  const full: ProofEvent = { kind: PROOF_EVENT_KIND, version: 1, ...event };
  await writeAnchorStoreAsync(
    root,
    [{ path: eventPath(full.session_id, proofDigest(full)), content: proofBytes(full) }],
    `hestai: ${full.event} ${full.session_id}`,
    { tip: store.tip, at },
  );
}

/** Stores a protocol run record (src/records/protocol-record.ts) in the anchors branch; a no-op outside git. */
export async function publishProtocolRun(root: string, record: ProtocolRunRecord, at: Date): Promise<void> {
  const store = await storeHead(root);
  if (store === null) return;
  await writeAnchorStoreAsync(
    root,
    [{ path: protocolRunPath(record), content: protocolRunBytes(record) }],
    `hestai: protocol run ${record.session_id} (${record.outcome})`,
    { tip: store.tip, at },
  );
}
