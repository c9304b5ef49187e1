import { describe, expect, it } from 'vitest';
import {
  backdatedCommits,
  carryMarks,
  COMMITTER_SKEW_HOURS,
  type DatedCommit,
  type HighWater,
} from '../../../src/verify/committer-time.js';

const at = (hours: number) => new Date(Date.UTC(2026, 0, 1) + hours * 3_600_000).toISOString();

describe('committer time along first-parent history', () => {
  it('a commit dated more than the skew before any first-parent ancestor is named with that ancestor; within the skew it is not', () => {
    // base(0, outside) ← a(1) ← b(30) ← c(29.5: a clock 30 min behind) ← d(2: backdated) ← e(31)
    const commits: DatedCommit[] = [
      { sha: 'e', parents: ['d'], committerDate: at(31) },
      { sha: 'd', parents: ['c'], committerDate: at(2) },
      { sha: 'c', parents: ['b'], committerDate: at(29.5) },
      { sha: 'b', parents: ['a'], committerDate: at(30) },
      { sha: 'a', parents: ['base'], committerDate: at(1) },
    ];
    const found = backdatedCommits(
      commits,
      new Map([['base', { ms: Date.parse(at(0)), sha: 'base', date: at(0) }]]),
    ).backdated;
    expect([...found.keys()]).toEqual(['d']);
    expect(found.get('d')).toEqual({ ancestor: 'b', ancestorDate: at(30), hours: 28 });
    expect(COMMITTER_SKEW_HOURS).toBe(1);
  });

  it('steps back one skew at a time are measured against the latest ancestor, not only the parent', () => {
    const commits: DatedCommit[] = [];
    for (let i = 0; i < 5; i++)
      commits.push({ sha: `c${i}`, parents: i ? [`c${i - 1}`] : [], committerDate: at(10 - 0.9 * i) });
    expect([...backdatedCommits(commits, new Map()).backdated.keys()]).toEqual(['c2', 'c3', 'c4']);
  });

  it('only first parents count: a merged branch made earlier is no backdating, and neither is a parent outside dated later when unknown', () => {
    const commits: DatedCommit[] = [
      { sha: 'm', parents: ['a', 'side'], committerDate: at(10) },
      { sha: 'side', parents: ['base'], committerDate: at(2) },
      { sha: 'a', parents: ['base'], committerDate: at(9) },
    ];
    expect(backdatedCommits(commits, new Map()).backdated.size).toBe(0);
    expect([
      ...backdatedCommits(
        commits,
        new Map([['base', { ms: Date.parse(at(5)), sha: 'base', date: at(5) }]]),
      ).backdated.keys(),
    ]).toEqual(['side']);
  });

  it('a batch carries the high-water marks of the one before it', () => {
    const first = backdatedCommits(
      [
        { sha: 'b', parents: ['a'], committerDate: at(30) },
        { sha: 'a', parents: [], committerDate: at(1) },
      ],
      new Map(),
    );
    const second = backdatedCommits([{ sha: 'c', parents: ['b'], committerDate: at(3) }], first.highWater);
    expect(second.backdated.get('c')).toEqual({ ancestor: 'b', ancestorDate: at(30), hours: 27 });
    expect(second.highWater.get('c')?.sha).toBe('b');
  });

  it('judged in batches, a first parent two batches back keeps its high-water mark until its last child is read, then it is dropped', () => {
    // a(10) ← b(0: backdated) ← d(0.5); b ← side(20) on another line, read in between. Parents come first.
    const batches: DatedCommit[][] = [
      [
        { sha: 'a', parents: [], committerDate: at(10) },
        { sha: 'b', parents: ['a'], committerDate: at(0) },
      ],
      [{ sha: 'side', parents: ['b'], committerDate: at(20) }],
      [{ sha: 'd', parents: ['b'], committerDate: at(0.5) }],
    ];
    const children = new Map([
      ['a', 1],
      ['b', 2],
      ['side', 0],
      ['d', 0],
    ]);
    const whole = backdatedCommits(batches.flat(), new Map()).backdated;
    const marks = new Map<string, HighWater>();
    const left = new Map<string, number>();
    const found: string[] = [];
    for (const batch of batches) {
      const time = backdatedCommits(batch, marks);
      found.push(...time.backdated.keys());
      carryMarks(marks, left, time.highWater, batch, children);
    }
    expect(found).toEqual([...whole.keys()]);
    expect(found).toEqual(['b', 'd']);
    // Every child read: nothing is held any more (a stream keeps only what is still to be asked).
    expect([...marks.keys()]).toEqual([]);
    expect([...left.keys()]).toEqual([]);
  });
});
