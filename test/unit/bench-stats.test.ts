import { describe, expect, it } from 'vitest';
import { budgetVerdict, compareRuns, median, pairedRatios, quantile, summarize } from '../../bench/lib/stats.mjs';

describe('bench statistics', () => {
  it('takes the median of odd and even samples without reordering the input', () => {
    const xs = [5, 1, 3];
    expect(median(xs)).toBe(3);
    expect(xs).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('refuses an empty sample or a non-finite value', () => {
    expect(() => median([])).toThrow(/empty/);
    expect(() => median([1, Number.NaN])).toThrow(/finite/);
  });

  it('interpolates quantiles linearly between order statistics', () => {
    const xs = [10, 20, 30, 40, 50];
    expect(quantile(xs, 0)).toBe(10);
    expect(quantile(xs, 1)).toBe(50);
    expect(quantile(xs, 0.25)).toBe(20);
    expect(quantile(xs, 0.1)).toBeCloseTo(14);
    expect(() => quantile(xs, 1.5)).toThrow(/between 0 and 1/);
  });

  it('summarizes a sample as median, quartiles, p10/p90, min and max', () => {
    expect(summarize([3, 1, 2, 5, 4])).toEqual({ n: 5, median: 3, p10: 1.4, p25: 2, p75: 4, p90: 4.6, min: 1, max: 5 });
  });

  it('computes ratios pair by pair, then their median', () => {
    const ratios = pairedRatios([20, 44, 30], [10, 20, 30]);
    expect(ratios).toEqual([2, 2.2, 1]);
    expect(median(ratios)).toBe(2);
    // the median of ratios differs from the ratio of medians when pairs drift together
    expect(median(pairedRatios([12, 100, 13], [10, 90, 12]))).toBeCloseTo(1.111, 3);
  });

  it('refuses pairs of different lengths or a zero baseline', () => {
    expect(() => pairedRatios([1, 2], [1])).toThrow(/pairs/);
    expect(() => pairedRatios([1], [0])).toThrow(/zero/);
  });

  it('judges a value against a strict or inclusive budget', () => {
    expect(budgetVerdict(1.3, { op: '<=', limit: 1.3 })).toBe('PASS');
    expect(budgetVerdict(1.31, { op: '<=', limit: 1.3 })).toBe('FAIL');
    expect(budgetVerdict(0.5, { op: '<', limit: 0.5 })).toBe('FAIL');
    expect(budgetVerdict(0.49, { op: '<', limit: 0.5 })).toBe('PASS');
    expect(budgetVerdict(undefined, { op: '<', limit: 0.5 })).toBe('SKIP');
  });

  it('compares two runs metric by metric as relative deltas, ignoring metrics missing on either side', () => {
    const previous = { results: { a: { wall: { median: 100 }, rss: { median: 40 } }, gone: { wall: { median: 1 } } } };
    const current = { results: { a: { wall: { median: 110 }, rss: { median: 40 } }, fresh: { wall: { median: 5 } } } };
    expect(compareRuns(previous, current)).toEqual([
      { id: 'a', metric: 'wall', previous: 100, current: 110, delta: 0.1 },
      { id: 'a', metric: 'rss', previous: 40, current: 40, delta: 0 },
    ]);
  });
});
