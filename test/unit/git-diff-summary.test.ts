import { describe, expect, it } from 'vitest';
import { parseDiffSummary } from '../../src/git/parse-diff.js';

const patch = [
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1111111..2222222 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1 +1,2 @@',
  '-old',
  '+new',
  '+more',
  '@@ -10,0 +12 @@ function x() {',
  '+added',
  'diff --git "a/sp ace\\tname.md" "b/sp ace\\tname.md"',
  'index 1111111..2222222 100644',
  '--- "a/sp ace\\tname.md"',
  '+++ "b/sp ace\\tname.md"',
  '@@ -3,2 +2,0 @@',
  '--- a line that starts with two dashes',
  '-gone',
  'diff --git a/img.png b/img.png',
  'index 1111111..2222222 100644',
  'Binary files a/img.png and b/img.png differ',
  'diff --git a/b c.txt b/b c.txt',
  'deleted file mode 100644',
  'index 1111111..0000000',
  '--- a/b c.txt',
  '+++ /dev/null',
  '@@ -1,3 +0,0 @@',
  '-1',
  '-2',
  '-3',
  '',
].join('\n');

describe('parseDiffSummary (STEP_5: the working-tree diff, bounded)', () => {
  it('counts files, hunks, added and removed lines per file, binary files apart', () => {
    const summary = parseDiffSummary(patch, { truncated: false, top: 10 });
    expect(summary).toEqual({
      available: true,
      reason: null,
      files: 4,
      hunks: 4,
      added: 3,
      removed: 6,
      binary: 1,
      truncated: false,
      top: [
        { path: 'src/a.ts', hunks: 2, added: 3, removed: 1, binary: false },
        { path: 'b c.txt', hunks: 1, added: 0, removed: 3, binary: false },
        { path: 'sp ace\tname.md', hunks: 1, added: 0, removed: 2, binary: false },
        { path: 'img.png', hunks: 0, added: 0, removed: 0, binary: true },
      ],
    });
  });

  it('lists at most `top` files, the largest first, and says when the output was cut', () => {
    const many = Array.from(
      { length: 30 },
      (_, i) => `diff --git a/f${i} b/f${i}\n--- a/f${i}\n+++ b/f${i}\n@@ -1 +1,${i + 1} @@\n`,
    ).join('');
    const summary = parseDiffSummary(many, { truncated: true, top: 5 });
    expect(summary.files).toBe(30);
    expect(summary.added).toBe((30 * 31) / 2);
    expect(summary.truncated).toBe(true);
    expect(summary.top.map((f) => f.path)).toEqual(['f29', 'f28', 'f27', 'f26', 'f25']);
  });

  it('is empty for an empty diff', () => {
    expect(parseDiffSummary('', { truncated: false, top: 10 })).toMatchObject({ files: 0, hunks: 0, top: [] });
  });
});
