import { commitMeta } from '../git/commit-meta.js';
import type { LogCommit } from '../git/parse.js';
import { backdatedCommits, carryMarks, type Backdating, type HighWater } from './committer-time.js';

/** High-water marks of commits whose children are still to come, and how many (carryMarks), kept across batches. */
export interface DatingMarks {
  highWater: Map<string, HighWater>;
  marksLeft: Map<string, number>;
}

/**
 * Committer time along first-parent history (src/verify/committer-time.ts), judged for anchored commits:
 * the high-water marks of earlier batches are carried in while their commits have children to come
 * (carryMarks), and a first parent further out is dated by one git log per batch.
 */
export function batchBackdating(
  root: string,
  batch: readonly LogCommit[],
  carried: DatingMarks,
  childCount: ReadonlyMap<string, number>,
): Map<string, Backdating> {
  const inBatch = new Set(batch.map((c) => c.sha));
  const missing = new Set<string>();
  for (const c of batch) {
    const p = c.parents[0];
    if (p !== undefined && !inBatch.has(p) && !carried.highWater.has(p)) missing.add(p);
  }
  const marks = new Map(carried.highWater);
  for (const [sha, m] of commitMeta(root, [...missing])) {
    const ms = Date.parse(m.committerDate);
    if (!Number.isNaN(ms)) marks.set(sha, { ms, sha, date: m.committerDate });
  }
  const time = backdatedCommits(batch, marks);
  carryMarks(carried.highWater, carried.marksLeft, time.highWater, batch, childCount);
  return time.backdated;
}
