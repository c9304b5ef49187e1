/**
 * The `receipt` verdict of `hestai verify` (pure; issue 43), under `verify.receipts` (`warn` or `required`):
 * the server's receive times replace committer times, which are claims. An anchor counts for a commit only if
 * its record was received no later than the commit, and the commit was received inside the record's validity
 * window. Under `required` a commit, or its anchor's record, with no receipt fails.
 */
import type { ProofRecord } from '../records/proof-record.js';
import type { Verdict } from '../tdd/verdict.js';

export const FETCH_RECEIPTS = 'git fetch origin refs/hestai/receipts:refs/hestai/receipts';

const iso = (ms: number) => new Date(ms).toISOString();

export interface ReceiptFacts {
  sha: string;
  level: 'warn' | 'required';
  /** When the server received the commit (ms), or null. */
  received: number | null;
  /** The record the commit's anchor names, and when its publishing commit was received. */
  anchor: { record: ProofRecord; received: number | null } | null;
  validHours: number;
}

export function checkReceipt(f: ReceiptFacts): Verdict | null {
  const problem = (message: string): Verdict => ({
    rule: 'receipt',
    clause: 'verify.receipts',
    status: f.level === 'required' ? 'fail' : 'warn',
    message: `commit ${f.sha.slice(0, 7)}: ${message} (verify.receipts: ${f.level})`,
  });
  if (f.received === null)
    return f.level === 'required'
      ? problem(
          `no receipt: no push of it through a server running hestai receive is recorded here. hint: ${FETCH_RECEIPTS} (docs/server.md)`,
        )
      : null;
  if (f.anchor !== null) {
    const { record, received } = f.anchor;
    if (received === null)
      return f.level === 'required'
        ? problem(`the anchor's record has no receipt. hint: ${FETCH_RECEIPTS} (docs/server.md)`)
        : null;
    if (received > f.received)
      return problem(
        `the anchor's record was received at ${iso(received)}, after the commit (received at ${iso(f.received)}): the anchor cannot cover it`,
      );
    const validated = Date.parse(record.anchored_at);
    const hours = (f.received - validated) / 3_600_000;
    if (hours > f.validHours)
      return problem(
        `received at ${iso(f.received)}, ${hours.toFixed(1)} h after the anchor was validated (${record.anchored_at}): outside the record's validity window by the server's clock (anchor.valid_hours ${f.validHours}); committer times are claims`,
      );
  }
  return {
    rule: 'receipt',
    clause: 'verify.receipts',
    status: 'pass',
    message: `received at ${iso(f.received)}${f.anchor ? ', after its anchor\u2019s record' : ''}`,
  };
}
