/** Type declarations for the bench's pure statistics helpers (stats.mjs), so tests type-check. */
export interface Summary {
  n: number;
  median: number;
  p10: number;
  p25: number;
  p75: number;
  p90: number;
  min: number;
  max: number;
}
export interface Budget {
  op: '<' | '<=';
  limit: number;
}
export interface Delta {
  id: string;
  metric: string;
  previous: number;
  current: number;
  delta: number;
}
export interface RunLike {
  results: Record<string, Record<string, { median?: number } | undefined>>;
}
export function median(xs: readonly number[]): number;
export function quantile(xs: readonly number[], q: number): number;
export function summarize(xs: readonly number[]): Summary;
export function pairedRatios(cases: readonly number[], baselines: readonly number[]): number[];
export function budgetVerdict(value: number | undefined, budget: Budget): 'PASS' | 'FAIL' | 'SKIP';
export function compareRuns(previous: RunLike, current: RunLike): Delta[];
