import { describe, expect, it } from 'vitest';
import { conflictPieces, oldSide, unresolvedDifference } from '../../../src/verify/resolution.js';

// Issue 40 item 1: a conflicted file passes only as git's re-merge with each hunk resolved from its sides.
const remerged = [
  'a',
  'guard',
  'b',
  '<<<<<<< x',
  'OURS',
  '||||||| base',
  'BASE',
  '=======',
  'THEIRS',
  '>>>>>>> y',
  'c',
];

describe('unresolvedDifference (a conflicted file against git re-merge with diff3 markers)', () => {
  it('passes a hunk resolved with lines of its sides, in any order, and one taking a single side', () => {
    expect(unresolvedDifference(remerged, 'a\nguard\nb\nTHEIRS\nOURS\nc\n', [])).toBeNull();
    expect(unresolvedDifference(remerged, 'a\nguard\nb\nOURS\nc\n', [])).toBeNull();
    expect(unresolvedDifference(remerged, 'a\nguard\nb\nc\n', [])).toBeNull();
  });

  it('fails a deleted line outside the hunk, a moved one, a new one, naming the first differing line', () => {
    expect(unresolvedDifference(remerged, 'a\nb\nOURS\nc\n', [])).toBe(
      "line 2: git's re-merge has `guard`, the merge has `b`",
    );
    expect(unresolvedDifference(remerged, 'guard\nb\nOURS\na\nc\n', [])).toContain('line 1');
    expect(unresolvedDifference(remerged, 'a\nguard\nb\nOURS\nevil()\nc\n', [])).toContain('`evil()`');
    expect(unresolvedDifference(remerged, 'a\nguard\nb\nOURS\nc\nextra\n', [])).toContain('line 6');
  });

  it('a re-merge without hunks (modify/delete) or unreadable: removed, or one parent version whole', () => {
    expect(unresolvedDifference(['x'], null, ['x\n', null])).toBeNull();
    expect(unresolvedDifference(['x'], 'x\ny\n', ['x\n', null])).toContain('line 2');
    expect(unresolvedDifference(null, 'bin', ['bin', 'other'])).toBeNull();
    expect(unresolvedDifference(null, 'new', ['bin', 'other'])).toContain('could not be read');
  });

  it('rebuilds the re-merge from the recorded file and the -U0 hunks; refuses hunks that do not fit', () => {
    const hunks = [
      '@@ -2 +1,0 @@ a',
      '-if admin',
      '@@ -8 +6,0 @@ f',
      '-<<<<<<< 8d6',
      '@@ -10,2 +7,0 @@ M',
      '-=======',
      '->>>>>>> 65a',
    ];
    const merged = ['a', 'b', 'c', 'd', 'e', 'f', 'M', 'g'];
    expect(oldSide(merged, hunks)).toEqual([
      'a',
      'if admin',
      'b',
      'c',
      'd',
      'e',
      'f',
      '<<<<<<< 8d6',
      'M',
      '=======',
      '>>>>>>> 65a',
      'g',
    ]);
    expect(oldSide(['a'], hunks)).toBeNull();
    expect(conflictPieces(['<<<<<<< x', 'open'])).toBeNull();
  });
});
