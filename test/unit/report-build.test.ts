import { describe, expect, it } from 'vitest';
import { blobBase } from '../../src/git/commit-meta.js';
import { buildReport } from '../../src/report/build.js';
import { escapeMarkdownCell } from '../../src/report/escape.js';
import { renderHtml } from '../../src/report/html.js';
import type { VerifyReport } from '../../src/verify/verify.js';

const sha = (n: number) => n.toString(16).padStart(40, '0');

function report(commits: VerifyReport['commits']): VerifyReport {
  return { ok: true, range: { from: sha(0), to: sha(9) }, commits, policy_changes: [], errors: 0, warnings: 0 };
}

describe('the report data', () => {
  it("a feat names each test commit verify paired it with and how they relate; verify's squash_of marks a squash", () => {
    const verify = report([
      {
        sha: sha(1),
        header: 'test(a): t',
        files: [],
        verdicts: [{ rule: 'test-first', status: 'pass', message: 'test commit' }],
      },
      {
        sha: sha(2),
        header: 'feat(a): f',
        files: [],
        verdicts: [
          {
            rule: 'test-first',
            status: 'pass',
            message: 'paired with test commit 0000000 "test(a): t"',
            paired_with: [{ sha: sha(1), header: 'test(a): t', relation: 'same scope (a)' }],
          },
        ],
      },
      {
        sha: sha(3),
        header: 'feat: the whole branch',
        files: [],
        verdicts: [
          {
            rule: 'test-first',
            status: 'pass',
            message: 'the squash of feat/x',
            squash_of: { branch: 'refs/heads/feat/x', tip: sha(7), commits: 4, matched_by: 'tree' },
          },
        ],
      },
    ]);
    const data = buildReport({ verify, meta: new Map(), evidence: null, protocol: null, blobBase: null });
    expect(data.commits[1]!.paired).toEqual([{ sha: sha(1), relation: 'same scope (a)' }]);
    expect(data.commits[2]!.shape).toBe('squash');
    const html = renderHtml(data);
    expect(html).toContain('same scope (a)');
    expect(html).toContain('squash of feat/x (tip 0000000, 4 commit(s), matched by tree)');
  });

  it('links cited files only for a remote with a web host; credentials never reach the page', () => {
    expect(blobBase('https://github.com/o/r.git')).toBe('https://github.com/o/r/blob/');
    expect(blobBase('git@github.com:o/r.git')).toBe('https://github.com/o/r/blob/');
    expect(blobBase('ssh://git@gitlab.example.com:2222/g/sub/r.git')).toBe('https://gitlab.example.com/g/sub/r/blob/');
    expect(blobBase('https://x-access-token:secret@github.com/o/r')).toBe('https://github.com/o/r/blob/');
    expect(blobBase('/srv/git/r.git')).toBeNull();
    expect(blobBase('file:///srv/git/r.git')).toBeNull();
    expect(blobBase('https://github.com/o/r"><script>')).toBeNull();
    expect(blobBase(null)).toBeNull();
  });

  it('a markdown cell keeps text as text: no HTML, no cell break, no link or code syntax', () => {
    expect(escapeMarkdownCell('a | b <script>`x`</script> [l](javascript:1)\nnext')).toBe(
      'a \\| b &lt;script&gt;\\`x\\`&lt;/script&gt; \\[l\\]\\(javascript:1\\) next',
    );
  });
});
