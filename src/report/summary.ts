import { parseConventionalHeader } from '../tdd/header.js';
import type { Verdict } from '../tdd/verdict.js';
import type { ProtocolRun, ReportCommit, ReportSummary } from './model.js';

const EXEMPT = 'exempt from test-first';

/**
 * Pure: the summary figures, counted from verify's verdicts (never re-judged): errors and warnings are
 * verify's own counts; test-first is the share of commits verify judged for a preceding test (not test
 * commits, not skipped) whose verdict passed without a `TDD-Exempt`; anchored is the share of non-merge
 * commits whose anchor verdict passed, among those verify did not exempt (skip).
 */
export function summarize(
  commits: readonly ReportCommit[],
  counts: { errors: number; warnings: number },
  protocol: readonly ProtocolRun[] | null,
): ReportSummary {
  const testFirst = { count: 0, of: 0 };
  const anchored = { count: 0, of: 0, exempt: 0 };
  let anchorRule = false;
  const sessions = new Set<string>();
  let bypasses = 0;
  let exemptions = 0;
  const byRule: ReportSummary['byRule'] = {};
  for (const c of commits) {
    if (c.session !== null) sessions.add(c.session);
    if (c.exempt !== null) exemptions++;
    if (c.verdicts.some((v) => v.rule === 'bypass')) bypasses++;
    const anchor = c.verdicts.find((v) => v.rule === 'anchor');
    if (anchor?.status === 'skip') anchored.exempt++;
    else if (c.shape !== 'merge') anchored.of++;
    for (const v of c.verdicts) {
      const row = (byRule[v.rule] ??= { pass: 0, fail: 0, warn: 0, skip: 0 });
      row[v.status]++;
      if (v.rule === 'anchor') {
        anchorRule = true;
        if (v.status === 'pass') anchored.count++;
      }
      if (v.rule === 'test-first') countTestFirst(c, v, testFirst);
    }
  }
  const outcomes: Record<string, number> = {};
  for (const r of protocol ?? []) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  return {
    commits: commits.length,
    testFirst,
    anchored: anchorRule ? anchored : null,
    sessions: sessions.size,
    errors: counts.errors,
    warnings: counts.warnings,
    bypasses,
    exemptions,
    protocol: protocol === null ? null : { runs: protocol.length, outcomes },
    byRule,
  };
}

function countTestFirst(c: ReportCommit, v: Verdict, ratio: { count: number; of: number }): void {
  if (v.status === 'skip' || parseConventionalHeader(c.header)?.type === 'test') return;
  ratio.of++;
  if (v.status === 'pass' && !v.message.startsWith(EXEMPT)) ratio.count++;
}

/** Pure: "33% (1 of 3)", or "none" when nothing was counted; ", 2 exempt" when verify exempted some. */
export function percent(r: { count: number; of: number; exempt?: number }): string {
  const exempt = r.exempt ? `, ${r.exempt} exempt` : '';
  if (r.of === 0) return `none${exempt}`;
  return `${Math.round((100 * r.count) / r.of)}% (${r.count} of ${r.of})${exempt}`;
}
