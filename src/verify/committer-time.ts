/**
 * Committer time along first-parent history (issue 24 item 4). A commit cannot be made before its parent
 * exists, so a committer date earlier than one of its first-parent ancestors' is either a clock that is
 * off or a date set by hand: a commit backdated into an older proof record's window. Pure: from the
 * commits verify read, batch by batch (the high-water marks of the previous batch, and the dates of first
 * parents further out, carried in).
 */
import { childrenRead } from '../util/children.js';

/**
 * How far committer time may go back along first-parent history: 1 hour. Measured on 103,282 commits of
 * eight public histories (scripts/committer-skew.mjs; docs/enforcement.md, "Committer time"): every step
 * back that looks like clock drift was at most 6.2 minutes; the only larger ones (2 h to 39 days, five
 * commits) are dates set by hand or clocks hours off.
 */
export const COMMITTER_SKEW_HOURS = 1;

export interface DatedCommit {
  sha: string;
  parents: readonly string[];
  /** ISO committer date. */
  committerDate: string;
}

/** The first-parent ancestor a commit was committed before, by more than the skew. */
export interface Backdating {
  ancestor: string;
  ancestorDate: string;
  hours: number;
}

/** The latest committer time among a commit's first-parent ancestors and itself. */
export interface HighWater {
  ms: number;
  sha: string;
  date: string;
}

/**
 * For every commit in `commits` committed more than `skewHours` before the latest committer time among its
 * first-parent ancestors, that ancestor and by how much. First parents outside `commits` are known by
 * `outside` (their high-water mark, or their own date); the high-water mark of each commit of `commits` is
 * returned too, for the next batch.
 */
export function backdatedCommits(
  commits: readonly DatedCommit[],
  outside: ReadonlyMap<string, HighWater>,
  skewHours: number = COMMITTER_SKEW_HOURS,
): { backdated: Map<string, Backdating>; highWater: Map<string, HighWater> } {
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  const highWater = new Map<string, HighWater>();
  const own = (c: DatedCommit): HighWater | null => {
    const ms = Date.parse(c.committerDate);
    return Number.isNaN(ms) ? null : { ms, sha: c.sha, date: c.committerDate };
  };
  const later = (a: HighWater | null, b: HighWater | null) => (a === null ? b : b === null || a.ms >= b.ms ? a : b);
  const below = (sha: string | undefined): HighWater | null =>
    sha === undefined ? null : bySha.has(sha) ? (highWater.get(sha) ?? null) : (outside.get(sha) ?? null);
  // Walk down each first-parent chain to a commit already known (or out of `commits`), then fill back up.
  for (const c of commits) {
    if (highWater.has(c.sha)) continue;
    const chain: DatedCommit[] = [];
    let x: DatedCommit | undefined = c;
    while (x !== undefined && !highWater.has(x.sha)) {
      chain.push(x);
      const first: string | undefined = x.parents[0];
      x = first === undefined ? undefined : bySha.get(first);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const h = later(below(chain[i]!.parents[0]), own(chain[i]!));
      if (h !== null) highWater.set(chain[i]!.sha, h);
    }
  }
  const backdated = new Map<string, Backdating>();
  for (const c of commits) {
    const mine = own(c);
    const before = below(c.parents[0]);
    if (mine === null || before === null) continue;
    const hours = (before.ms - mine.ms) / 3_600_000;
    if (hours > skewHours) backdated.set(c.sha, { ancestor: before.sha, ancestorDate: before.date, hours });
  }
  return { backdated, highWater };
}

/**
 * Carries this batch's high-water marks into `marks` for the batches to come, each kept while its commit has
 * children still to be read (`children`: each commit's number of children in the range; `left`: the count
 * still to come, kept by the caller across batches), so a first parent several batches back is still known
 * by its mark, and a stream holds only what is still to be asked. A commit whose number of children is
 * unknown is not kept (a later child dates it by git).
 */
export function carryMarks(
  marks: Map<string, HighWater>,
  left: Map<string, number>,
  batchMarks: ReadonlyMap<string, HighWater>,
  batch: readonly DatedCommit[],
  children: ReadonlyMap<string, number>,
): void {
  for (const c of batch) {
    const mark = batchMarks.get(c.sha);
    const n = children.get(c.sha) ?? 0;
    if (mark !== undefined && n > 0) {
      marks.set(c.sha, mark);
      left.set(c.sha, n);
    }
  }
  for (const c of batch) childrenRead(left, c.parents, (p) => marks.delete(p));
}
