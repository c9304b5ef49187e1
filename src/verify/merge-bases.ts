/**
 * Merge bases from the walk verify does anyway (pure): the last commits of the range, parents before children
 * (`--topo-order --reverse`), kept by index in a bounded window, so a merge's base is found without one
 * `git merge-base` process per merge (issue 40 item 2). Where the answer is not certain (a parent outside the
 * window or the range, a criss-cross with several bases, a long search) there is none: git's re-merge decides.
 */

const ONE = 1;
const TWO = 2;
const STALE = 4;

/** The commits of a walk, the last `size` of them, and the single merge base of two of them. */
export class CommitWindow {
  private readonly index = new Map<string, number>();
  private readonly shas: string[] = [];
  private readonly parents: number[][] = [];
  private next = 0;

  constructor(
    private readonly size = 20_000,
    private readonly steps = 20_000,
  ) {}

  /** Adds the next commit of the walk (its parents already added, or outside the walk). */
  add(sha: string, parents: readonly string[]): void {
    const slot = this.next % this.size;
    const old = this.shas[slot];
    if (old !== undefined) this.index.delete(old);
    this.shas[slot] = sha;
    this.parents[slot] = parents.map((p) => this.at(p));
    this.index.set(sha, this.next);
    this.next += 1;
  }

  /** The index of a commit still in the window, or -1. */
  private at(sha: string): number {
    const i = this.index.get(sha);
    return i !== undefined && i >= this.next - this.size ? i : -1;
  }

  private parentsOf(i: number): number[] | null {
    return i >= 0 && i >= this.next - this.size ? this.parents[i % this.size]! : null;
  }

  /**
   * The one merge base of `a` and `b` (git's paint-down, in the walk's order: every child is painted before
   * its parents), or null when the window cannot tell it or there is not exactly one.
   */
  mergeBase(a: string, b: string): string | null {
    const ia = this.at(a);
    const ib = this.at(b);
    if (ia < 0 || ib < 0) return null;
    const flags = new Map<number, number>([[ia, ONE]]);
    flags.set(ib, (flags.get(ib) ?? 0) | TWO);
    const queue = new MaxQueue();
    queue.push(ia);
    if (ib !== ia) queue.push(ib);
    const found: number[] = [];
    for (let step = 0; queue.size() > 0; step++) {
      if (step > this.steps) return null;
      if (queue.all((i) => ((flags.get(i) ?? 0) & STALE) !== 0)) break;
      const i = queue.pop();
      let f = flags.get(i)!;
      if ((f & (ONE | TWO)) === (ONE | TWO) && (f & STALE) === 0) {
        found.push(i);
        f |= STALE;
        flags.set(i, f);
      }
      const parents = this.parentsOf(i);
      for (const p of parents ?? []) {
        const known = p >= 0 && this.parentsOf(p) !== null;
        if (!known) {
          if ((f & STALE) === 0) return null;
          continue;
        }
        const pf = flags.get(p) ?? 0;
        if ((pf & f) === f) continue;
        flags.set(p, pf | f);
        queue.push(p);
      }
      if (parents === null) return null;
    }
    return found.length === 1 ? this.shas[found[0]! % this.size]! : null;
  }
}

/** A binary max-heap of indices, each at most once. */
class MaxQueue {
  private readonly heap: number[] = [];
  private readonly queued = new Set<number>();

  size(): number {
    return this.heap.length;
  }

  all(test: (i: number) => boolean): boolean {
    return this.heap.every(test);
  }

  push(i: number): void {
    if (this.queued.has(i)) return;
    this.queued.add(i);
    const h = this.heap;
    h.push(i);
    for (let k = h.length - 1; k > 0;) {
      const up = (k - 1) >> 1;
      if (h[up]! >= h[k]!) break;
      [h[up], h[k]] = [h[k]!, h[up]!];
      k = up;
    }
  }

  pop(): number {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      for (let k = 0; ;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < h.length && h[l]! > h[m]!) m = l;
        if (r < h.length && h[r]! > h[m]!) m = r;
        if (m === k) break;
        [h[m], h[k]] = [h[k]!, h[m]!];
        k = m;
      }
    }
    this.queued.delete(top);
    return top;
  }
}
