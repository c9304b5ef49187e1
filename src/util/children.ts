/**
 * For a stream of commits read parents first, which keeps a value per commit only while the commit still
 * has children to be read: `left` holds that count for each commit kept. Counts one child read for each of
 * `parents`, and calls `drop` for each parent whose last child this was (its value is needed no more).
 */
export function childrenRead(left: Map<string, number>, parents: readonly string[], drop: (sha: string) => void): void {
  for (const p of parents) {
    const n = left.get(p);
    if (n === undefined) continue;
    if (n > 1) left.set(p, n - 1);
    else {
      left.delete(p);
      drop(p);
    }
  }
}
