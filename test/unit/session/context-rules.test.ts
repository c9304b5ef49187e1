import { describe, expect, it } from 'vitest';
import { findAdrFiles, parseAdr } from '../../../src/session/context/adr.js';
import { rankContext, focusTokens, type ContextCandidate } from '../../../src/session/context/rank.js';
import { summarizeStructure } from '../../../src/session/context/structure.js';
import { parseStatusV2 } from '../../../src/git/parse-status-v2.js';

describe('summarizeStructure', () => {
  it('counts files, top-level directories and extensions', () => {
    const s = summarizeStructure(['README.md', 'src/a.ts', 'src/b/c.ts', 'test/a.test.ts', 'docs/x.md', 'Makefile']);
    expect(s.tracked_files).toBe(6);
    expect(s.top_directories).toEqual([
      { path: 'src/', files: 2 },
      { path: 'docs/', files: 1 },
      { path: 'test/', files: 1 },
    ]);
    expect(s.extensions[0]).toEqual({ ext: '.ts', files: 3 });
    expect(s.extensions).toContainEqual({ ext: '(none)', files: 1 });
    expect(s.root_files).toEqual(['Makefile', 'README.md']);
  });
});

describe('ADR constraints', () => {
  it('finds ADR files by directory or name', () => {
    expect(
      findAdrFiles([
        'docs/adr/0001-use-git.md',
        'docs/decisions/002.md',
        'ADR-0046-layers.md',
        'src/adr.ts',
        'docs/adr/README.txt',
        'notes.md',
      ]),
    ).toEqual(['ADR-0046-layers.md', 'docs/adr/0001-use-git.md', 'docs/decisions/002.md']);
  });

  it('extracts title, status and the first decision line', () => {
    const text = [
      '# ADR-0033: Dual-layer context',
      '',
      'Status: Accepted',
      '',
      '## Context',
      'blah',
      '',
      '## Decision',
      '',
      'We keep generated state in .hestai/context/state.',
      'More.',
    ].join('\n');
    expect(parseAdr('docs/adr/0033.md', text)).toEqual({
      path: 'docs/adr/0033.md',
      title: 'ADR-0033: Dual-layer context',
      status: 'Accepted',
      decision: 'We keep generated state in .hestai/context/state.',
    });
    const sectioned = [
      '# Use zod',
      '## Status',
      '',
      'Superseded',
      '## Decision',
      'Hand-written validators on the hook path.',
    ].join('\n');
    expect(parseAdr('a.md', sectioned)).toMatchObject({
      status: 'Superseded',
      decision: 'Hand-written validators on the hook path.',
    });
    expect(parseAdr('b.md', 'no heading')).toMatchObject({ title: 'b.md', status: null, decision: null });
  });
});

describe('rankContext (deterministic selection)', () => {
  const candidates: ContextCandidate[] = [
    { path: '.hestai/context/PROJECT-CONTEXT.oct.md', kind: 'human_context' },
    { path: 'docs/adr/0001-session-storage.md', kind: 'adr', adrText: 'sessions are stored as json' },
    { path: 'src/session/clock-in.ts', kind: 'source' },
    { path: 'test/session/clock-in.test.ts', kind: 'source' },
    { path: 'src/unrelated/thing.ts', kind: 'source' },
    { path: 'src/recent.ts', kind: 'source', recentIndex: 0 },
    { path: 'src/dirty.ts', kind: 'source', modified: true },
  ];

  it('scores by focus relevance, recency, role affinity and ADR constraints, with reasons', () => {
    const ranked = rankContext({
      role: 'implementation-lead',
      focus: 'implement clock-in sessions',
      candidates,
      limit: 10,
    });
    const paths = ranked.map((r) => r.path);
    expect(paths[0]).toBe('src/session/clock-in.ts');
    expect(paths).toContain('.hestai/context/PROJECT-CONTEXT.oct.md');
    expect(paths).not.toContain('src/unrelated/thing.ts');
    const adr = ranked.find((r) => r.path.includes('adr'))!;
    expect(adr.reasons).toEqual(expect.arrayContaining(['adr constraint', expect.stringMatching(/^focus:/)]));
    expect(ranked.find((r) => r.path === 'src/dirty.ts')!.reasons).toContain('uncommitted change');
    expect(ranked.find((r) => r.path === 'src/recent.ts')!.reasons).toContain('recent commit');
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
  });

  it('gives test files to a test role and respects the limit', () => {
    const ranked = rankContext({ role: 'test-engineer', focus: 'general', candidates, limit: 3 });
    expect(ranked).toHaveLength(3);
    expect(ranked.find((r) => r.path.startsWith('test/'))?.reasons).toContain('role affinity');
  });

  it('is deterministic', () => {
    const a = rankContext({ role: 'implementation-lead', focus: 'clock-in', candidates, limit: 5 });
    const b = rankContext({
      role: 'implementation-lead',
      focus: 'clock-in',
      candidates: [...candidates].reverse(),
      limit: 5,
    });
    expect(a).toEqual(b);
  });

  it('splits a focus into meaningful words', () => {
    expect(focusTokens('Implement the clock_in flow for #42')).toEqual(['implement', 'clock', 'flow', '42']);
  });
});

describe('parseStatusV2', () => {
  it('reads branch, upstream, ahead/behind and entries (renames carry their source)', () => {
    const out = [
      '# branch.oid 1234567890abcdef1234567890abcdef12345678',
      '# branch.head feat/x',
      '# branch.upstream origin/feat/x',
      '# branch.ab +2 -1',
      '1 .M N... 100644 100644 100644 aaa aaa src/a.ts',
      '2 R. N... 100644 100644 100644 bbb bbb R100 new name.ts',
      'old name.ts',
      '? untracked.txt',
      '',
    ].join('\0');
    expect(parseStatusV2(out)).toEqual({
      head: '1234567890abcdef1234567890abcdef12345678',
      branch: 'feat/x',
      upstream: 'origin/feat/x',
      ahead: 2,
      behind: 1,
      entries: [
        { code: '.M', path: 'src/a.ts' },
        { code: 'R.', path: 'new name.ts', from: 'old name.ts' },
        { code: '??', path: 'untracked.txt' },
      ],
    });
  });

  it('handles an unborn branch and a detached HEAD', () => {
    expect(parseStatusV2('# branch.oid (initial)\0# branch.head main\0')).toMatchObject({
      head: null,
      branch: 'main',
      upstream: null,
      ahead: null,
    });
    expect(parseStatusV2('# branch.oid abc\0# branch.head (detached)\0')).toMatchObject({ head: 'abc', branch: null });
  });
});
