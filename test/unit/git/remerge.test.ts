import { describe, expect, it } from 'vitest';
import { parseRemerge } from '../../../src/git/log-stream.js';
import { diffHeaderPath } from '../../../src/git/parse-diff.js';

describe('parseRemerge (one merge of git log --diff-merges=remerge -p)', () => {
  it('reads the paths that differ from the automatic merge and the conflicted ones', () => {
    const body = [
      '',
      'diff --git a/docs/a b.md b/docs/a b.md',
      'remerge CONFLICT (content): Merge conflict in docs/a b.md',
      'index f6ed497..1849518 100644',
      '--- a/docs/a b.md',
      '+++ b/docs/a b.md',
      '@@ -2,3 +1,0 @@ a',
      '-<<<<<<< 324ffb1 (main)',
      'diff --git a/gone.md b/gone.md',
      'remerge CONFLICT (modify/delete): gone.md deleted in a30bb14 and modified in e55cfda.',
      'diff --git "a/tab\\there \\303\\274.md" "b/tab\\there \\303\\274.md"',
      'index 1849518..492a426 100644',
      '+slipped',
    ].join('\n');
    expect(parseRemerge(body)).toMatchObject({
      clean: false,
      differing: ['docs/a b.md', 'tab\there ü.md'],
      conflicted: ['docs/a b.md', 'gone.md'],
      exact: true,
    });
    expect(parseRemerge('\n')).toMatchObject({ clean: true, differing: [], conflicted: [], exact: true });
    expect(parseRemerge(body).hunks.get('docs/a b.md')).toEqual(['@@ -2,3 +1,0 @@ a', '-<<<<<<< 324ffb1 (main)']);
  });

  it('is not exact for a conflict kind that may name other paths, or a header it cannot read', () => {
    const rename =
      'diff --git a/b.md b/b.md\nremerge CONFLICT (rename/delete): a.md renamed to b.md in X, but deleted in Y.\n';
    expect(parseRemerge(rename)).toMatchObject({ clean: false, exact: false });
    expect(parseRemerge('diff --git a/x b/y\n+1\n')).toMatchObject({ clean: false, exact: false });
    expect(diffHeaderPath('diff --git a/x b/y')).toBeNull();
    expect(diffHeaderPath('diff --git a/a b/c b/a b/c')).toBe('a b/c');
    expect(diffHeaderPath('diff --git "a/\\"q\\"" "b/\\"q\\""')).toBe('"q"');
  });
});
