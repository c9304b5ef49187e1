import type { Verdict } from '../tdd/verdict.js';
import { PROTOCOL_FILE } from './protocol-policy.js';
import type { CommitReport } from './run.js';

/**
 * Sends the commit reports on in order, counting their failures and warnings. With a protocol verdict on the
 * range, the reports from the latest commit that changed .hestai/protocol.yaml on are held back until
 * `finish`, which adds the verdict to the first of them.
 */
export function reportOrder(
  sink: { commit(report: CommitReport): void },
  protocol: Verdict | null,
  warnings: number,
): { emit(report: CommitReport): void; finish(): void; counts: { errors: number; warnings: number } } {
  const counts = { errors: 0, warnings };
  const send = (c: CommitReport) => {
    for (const v of c.verdicts) {
      if (v.status === 'fail') counts.errors++;
      else if (v.status === 'warn') counts.warnings++;
    }
    sink.commit(c);
  };
  let held: CommitReport[] = [];
  return {
    emit(c) {
      if (protocol === null) return send(c);
      if (c.files.includes(PROTOCOL_FILE) || held.length === 0) {
        for (const h of held) send(h);
        held = [];
      }
      held.push(c);
    },
    finish() {
      if (protocol !== null && held.length > 0) held[0]!.verdicts.push(protocol);
      for (const h of held) send(h);
      held = [];
    },
    counts,
  };
}
