// Pure statistics for the bench: medians, quantiles, paired ratios, budget verdicts and run-to-run deltas.
// No I/O here, so the numbers the bench prints are tested (test/unit/bench-stats.test.ts).

function checked(xs) {
  if (xs.length === 0) throw new Error('statistics of an empty sample are undefined');
  for (const x of xs) if (!Number.isFinite(x)) throw new Error(`sample value ${x} is not a finite number`);
  return [...xs].sort((a, b) => a - b);
}

/** The q-quantile (0..1) of a sample, interpolating linearly between order statistics. */
export function quantile(xs, q) {
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile ${q} must be between 0 and 1`);
  const sorted = checked(xs);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** The median of a sample (the mean of the two middle values for an even count). */
export function median(xs) {
  return quantile(xs, 0.5);
}

/** A sample's median, quartiles, 10th/90th percentiles, minimum and maximum. */
export function summarize(xs) {
  const sorted = checked(xs);
  const round = (x) => Math.round(x * 1e6) / 1e6;
  return {
    n: sorted.length,
    median: round(quantile(sorted, 0.5)),
    p10: round(quantile(sorted, 0.1)),
    p25: round(quantile(sorted, 0.25)),
    p75: round(quantile(sorted, 0.75)),
    p90: round(quantile(sorted, 0.9)),
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

/** case[i] / baseline[i] for every interleaved pair (each pair ran back to back, so drift cancels). */
export function pairedRatios(cases, baselines) {
  if (cases.length !== baselines.length) {
    throw new Error(`paired ratios need pairs: ${cases.length} case samples vs ${baselines.length} baseline samples`);
  }
  return cases.map((value, i) => {
    if (baselines[i] === 0) throw new Error(`baseline sample ${i} is zero; a ratio to it is undefined`);
    return value / baselines[i];
  });
}

/** PASS/FAIL of a measured value against a budget `{op: '<' | '<=', limit}`; SKIP when nothing was measured. */
export function budgetVerdict(value, budget) {
  if (value === undefined || value === null) return 'SKIP';
  const ok = budget.op === '<' ? value < budget.limit : value <= budget.limit;
  return ok ? 'PASS' : 'FAIL';
}

/** Relative change of every metric median present in both runs: (current - previous) / previous. */
export function compareRuns(previous, current) {
  const deltas = [];
  for (const [id, metrics] of Object.entries(current.results ?? {})) {
    const before = previous.results?.[id];
    if (!before) continue;
    for (const [metric, value] of Object.entries(metrics ?? {})) {
      const prev = before[metric]?.median;
      const cur = value?.median;
      if (typeof prev !== 'number' || typeof cur !== 'number' || prev === 0) continue;
      deltas.push({ id, metric, previous: prev, current: cur, delta: Math.round(((cur - prev) / prev) * 1e6) / 1e6 });
    }
  }
  return deltas;
}
