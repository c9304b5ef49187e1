import { describe, expect, it } from 'vitest';
import { rankContext } from '../../../src/session/context/rank.js';

describe('rankContext weights', () => {
  it('scores an uncommitted change at 2, above the most recent commit (1.5) and below a focus match (3)', () => {
    const ranked = rankContext({
      role: 'reviewer',
      focus: 'parser',
      candidates: [
        { path: 'src/recent.ts', kind: 'source', recentIndex: 0 },
        { path: 'src/dirty.ts', kind: 'source', modified: true },
        { path: 'src/parser.ts', kind: 'source' },
      ],
      limit: 10,
    });
    expect(ranked.map((r) => [r.path, r.score])).toEqual([
      ['src/parser.ts', 3],
      ['src/dirty.ts', 2],
      ['src/recent.ts', 1.5],
    ]);
    expect(ranked.find((r) => r.path === 'src/dirty.ts')!.reasons).toEqual(['uncommitted change']);
  });

  it('adds the uncommitted weight to the other signals of the same file', () => {
    const [only] = rankContext({
      role: 'reviewer',
      focus: 'general',
      candidates: [{ path: 'src/both.ts', kind: 'source', modified: true, recentIndex: 10 }],
      limit: 1,
    });
    expect(only).toEqual({
      path: 'src/both.ts',
      kind: 'source',
      score: 2.75,
      reasons: ['uncommitted change', 'recent commit'],
    });
  });
});
