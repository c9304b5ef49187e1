import { describe, expect, it } from 'vitest';
import { CommitWindow } from '../../../src/verify/merge-bases.js';
import { decideByBlobs } from '../../../src/verify/blob-merge.js';
import { parseRawDiffs, type TreeChanges } from '../../../src/git/merge.js';

/** A window fed `commits` ("sha:parent,parent") in the walk's order, parents first. */
function walk(commits: string[], size?: number): CommitWindow {
  const w = new CommitWindow(size);
  for (const c of commits) {
    const [sha, parents] = c.split(':');
    w.add(sha!, parents ? parents.split(',') : []);
  }
  return w;
}

describe('merge bases from the walk', () => {
  it('finds the fork point of two lines, and an ancestor of the other', () => {
    const w = walk(['r', 'a:r', 'x1:a', 'x2:x1', 'y1:a', 'y2:y1', 'm:x2,y2']);
    expect(w.mergeBase('x2', 'y2')).toBe('a');
    expect(w.mergeBase('x1', 'x2')).toBe('x1');
    expect(w.mergeBase('y2', 'r')).toBe('r');
  });

  it('after main was merged into a topic, the base is the main commit merged', () => {
    const w = walk(['r', 'm1:r', 't1:r', 'm2:m1', 't2:t1,m2', 'm3:m2', 't3:t2']);
    expect(w.mergeBase('m3', 't3')).toBe('m2');
  });

  it('has no answer for a criss-cross (two bases), unrelated lines, or a base beyond the window', () => {
    const criss = walk(['r', 'a:r', 'b:r', 'c:a,b', 'd:b,a']);
    expect(criss.mergeBase('c', 'd')).toBeNull();
    expect(walk(['r', 's', 'a:r', 'b:s']).mergeBase('a', 'b')).toBeNull();
    const long = ['r', 'a:r', 'x0:a', 'y0:a'];
    for (let i = 1; i < 10; i++) long.push(`x${i}:x${i - 1}`, `y${i}:y${i - 1}`);
    expect(walk(long).mergeBase('x9', 'y9')).toBe('a');
    expect(walk(long, 8).mergeBase('x9', 'y9')).toBeNull();
    expect(walk(['a:outside', 'b:a', 'c:outside']).mergeBase('b', 'c')).toBeNull();
  });
});

const entry = (oid: string, mode = '100644') => ({ mode, oid: oid.padEnd(40, '0') });
const NONE = entry('0', '000000');
/** A diff: path -> [old, new] entries. */
const diff = (changes: Record<string, [ReturnType<typeof entry>, ReturnType<typeof entry>]>): TreeChanges =>
  new Map(Object.entries(changes).map(([p, [o, n]]) => [p, { old: o, new: n }]));

describe('merges decided from blob ids', () => {
  const a0 = entry('a0');
  const a1 = entry('a1');
  const b0 = entry('b0');
  const b1 = entry('b1');

  it('passes a merge that changes from its first parent exactly what the second side changed since the base', () => {
    const second = diff({ 'b.txt': [b0, b1], 'gone.txt': [entry('g'), NONE] });
    expect(decideByBlobs(second, diff({ 'b.txt': [b0, b1], 'gone.txt': [entry('g'), NONE] }))).toEqual([]);
    expect(decideByBlobs(new Map(), new Map())).toEqual([]);
  });

  it('leaves to git a path the first side changed too, a side dropped, a mode dropped, a path neither side has', () => {
    // the first parent's a is not the base's: both sides changed it
    expect(decideByBlobs(diff({ 'a.txt': [a0, a1] }), diff({ 'a.txt': [entry('a2'), a1] }))).toBeNull();
    // the second side changed b, the merge kept the first parent's (the base's) b
    expect(decideByBlobs(diff({ 'b.txt': [b0, b1] }), new Map())).toBeNull();
    // the first side changed a, the merge took the second parent's (the base's) a
    expect(decideByBlobs(new Map(), diff({ 'a.txt': [a1, a0] }))).toBeNull();
    const x = entry('t', '100755');
    expect(decideByBlobs(diff({ 't.sh': [entry('t'), x] }), diff({ 't.sh': [entry('t'), entry('t')] }))).toBeNull();
    expect(decideByBlobs(new Map(), diff({ 'evil.ts': [NONE, entry('e')] }))).toBeNull();
  });

  it('names the folders to look up: those the second side added to (in the first parent), deleted from (in the second)', () => {
    const second = diff({ 'old/sub/new.txt': [NONE, entry('n')], 'lib/gone.txt': [entry('g'), NONE] });
    expect(decideByBlobs(second, second)).toEqual([
      { parent: 0, folder: 'old/sub' },
      { parent: 0, folder: 'old' },
      { parent: 1, folder: 'lib' },
    ]);
  });

  it('reads git diff-tree --stdin -z output, one map per line, paths as they are', () => {
    const sha = 'f'.repeat(40);
    const odd = 'a\nb "c".txt';
    const text = `${sha}\0:100644 100755 ${'1'.repeat(40)} ${'1'.repeat(40)} M\0${odd}\0${sha}\0${sha}\0:000000 100644 ${'0'.repeat(40)} ${'2'.repeat(40)} A\0${'3'.repeat(40)}\0`;
    const diffs = parseRawDiffs(text);
    expect(diffs).toHaveLength(3);
    expect(diffs[0]!.get(odd)).toEqual({ old: entry('1'.repeat(40)), new: entry('1'.repeat(40), '100755') });
    expect(diffs[1]!.size).toBe(0);
    expect(diffs[2]!.get('3'.repeat(40))?.new.oid).toBe('2'.repeat(40));
  });
});
