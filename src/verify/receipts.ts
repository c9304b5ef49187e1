/**
 * Receipts as verify reads them (issue 43): `refs/hestai/receipts`, written by a git server's post-receive hook
 * (src/receive/receipts.ts), one commit per pushed ref whose message is the receipt. Each receipt lists the
 * commits that push brought; a commit's receive time is the earliest receipt listing it. A receipt that is not
 * one (bad JSON, missing fields) is skipped.
 */
import { nulFields } from '../git/nul-stream.js';
import { resolveCommit } from '../git/repo.js';
import { ANCHORS_REF, catFileBatch } from '../git/anchors.js';

/** The ref namespace only the server writes (its receive hook refuses client pushes there). */
export const RECEIPTS_REF = 'refs/hestai/receipts';

export interface Receipt {
  kind: 'hestai.receipt';
  version: 1;
  ref: string;
  old: string;
  new: string;
  received_at: string;
  pusher: string;
  /** A push of more commits than one receipt lists (src/receive/receipts.ts RECEIPT_COMMITS): 1, 2, ... */
  part?: number;
  /** The commits this push brought to the server (not reachable from its other refs before). */
  commits: string[];
}

/** Receive times (ms since the epoch) by commit, and the time of a push being received now (receive's own run). */
export interface ReceiptTimes {
  times: ReadonlyMap<string, number>;
  /** `hestai receive`: the commits of the push it judges have no receipt yet; they are received now. */
  pending: number | null;
  /** The hestai/anchors tips received, oldest first (the one being received last): a record's receipt is the first holding it. */
  anchors: { tip: string; at: number }[];
}

/** What `hestai receive` tells verify of the push it judges (VerifyInput.receiving). */
export interface Receiving {
  at: string;
  /** The pushed hestai/anchors tip, when the push has one. */
  anchors: string | null;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** A receipt's fields, or null when the text is not one. */
export function parseReceipt(text: string): Receipt | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const r = value as Partial<Receipt> | null;
  if (r === null || typeof r !== 'object' || r.kind !== 'hestai.receipt' || typeof r.ref !== 'string') return null;
  if (typeof r.received_at !== 'string' || Number.isNaN(Date.parse(r.received_at))) return null;
  if (!Array.isArray(r.commits) || !r.commits.every((c) => typeof c === 'string' && SHA.test(c))) return null;
  return r as Receipt;
}

/** Every commit's earliest receive time in `root`'s receipts (empty when it has none: fetch them first). */
export async function readReceiptTimes(root: string, receiving: Receiving | null): Promise<ReceiptTimes> {
  const times = new Map<string, number>();
  const pending = receiving === null ? null : Date.parse(receiving.at);
  const anchors: { tip: string; at: number }[] = [];
  const done = () => {
    anchors.sort((a, b) => a.at - b.at);
    if (pending !== null && receiving?.anchors) anchors.push({ tip: receiving.anchors, at: pending });
    return { times, pending, anchors };
  };
  if (resolveCommit(root, RECEIPTS_REF) === null) return done();
  for await (const message of nulFields(root, ['log', '-z', '--format=%B', RECEIPTS_REF])) {
    const receipt = parseReceipt(message.trim());
    if (receipt === null) continue;
    const at = Date.parse(receipt.received_at);
    if (receipt.ref === ANCHORS_REF && SHA.test(receipt.new) && !/^0+$/.test(receipt.new))
      anchors.push({ tip: receipt.new, at });
    for (const c of receipt.commits) {
      const known = times.get(c);
      if (known === undefined || at < known) times.set(c, at);
    }
  }
  return done();
}

/**
 * When each record (by digest) was received: the first received hestai/anchors tip holding
 * `records/<digest>.json` (the branch is append-only: src/receive/anchors-push.ts). One `git cat-file`.
 */
export function recordTimes(root: string, r: ReceiptTimes, digests: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (digests.length === 0 || r.anchors.length === 0) return out;
  const spec = (tip: string, d: string) => `${tip}:records/${d}.json`;
  const found = catFileBatch(
    root,
    r.anchors.flatMap((a) => digests.map((d) => spec(a.tip, d))),
    { content: false },
  );
  for (const d of digests) {
    const first = r.anchors.find((a) => found.get(spec(a.tip, d))?.found);
    if (first) out.set(d, first.at);
  }
  return out;
}

/** When `sha` was received: its receipt, else now for the push being received, else null. */
export const receivedAt = (r: ReceiptTimes, sha: string): number | null => r.times.get(sha) ?? r.pending;
