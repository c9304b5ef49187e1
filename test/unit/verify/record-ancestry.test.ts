import { describe, expect, it } from 'vitest';
import { coveredQueries, queryKey, type AncestryQuery, type GraphCommit } from '../../../src/verify/record-ancestry.js';

// base ← a ← b ← m (merge of b and s) ← c ;  base ← s ;  x is unrelated; `below` is an ancestor of base.
const commits: GraphCommit[] = [
  { sha: 'c', parents: ['m'] },
  { sha: 'm', parents: ['b', 's'] },
  { sha: 's', parents: ['base'] },
  { sha: 'b', parents: ['a'] },
  { sha: 'a', parents: ['base'] },
];

function ask(
  queries: [string, string][],
  order: 'children first' | 'parents first' | 'parents first, ordered' = 'children first',
) {
  const asked: string[] = [];
  const outside = (heads: readonly string[], descendant: string) => {
    asked.push(`${[...heads].sort().join(',')}>${descendant}`);
    return new Set(heads.filter((h) => h === 'below' && descendant === 'base'));
  };
  const list = order === 'children first' ? commits : [...commits].reverse();
  const qs: AncestryQuery[] = queries.map(([head, sha]) => ({ head, sha }));
  const covered = coveredQueries(list, qs, outside, { ordered: order === 'parents first, ordered' });
  return { covers: (head: string, sha: string) => covered.has(queryKey({ head, sha })), asked };
}

describe('a record HEAD in a commit history', () => {
  it.each(['children first', 'parents first', 'parents first, ordered'] as const)(
    'answers from the commits read (%s): strict ancestors only, through both parents of a merge',
    (order) => {
      const { covers, asked } = ask(
        [
          ['a', 'c'],
          ['s', 'c'],
          ['s', 'b'],
          ['b', 'a'],
          ['c', 'c'],
        ],
        order,
      );
      expect(covers('a', 'c')).toBe(true);
      expect(covers('s', 'c')).toBe(true);
      expect(covers('s', 'b')).toBe(false);
      expect(covers('b', 'a')).toBe(false);
      expect(covers('c', 'c')).toBe(false);
      expect(asked).toEqual([]);
    },
  );

  it('asks git only about HEADs outside the commits read, once per parent where that history ends', () => {
    const { covers, asked } = ask([
      ['base', 'c'],
      ['below', 'c'],
      ['below', 'b'],
      ['x', 'c'],
      ['x', 'a'],
    ]);
    expect(covers('base', 'c')).toBe(true);
    expect(covers('below', 'c')).toBe(true);
    expect(covers('below', 'b')).toBe(true);
    expect(covers('x', 'c')).toBe(false);
    expect(covers('x', 'a')).toBe(false);
    expect(asked).toEqual(['base,below,x>base']);
  });

  it('answers for more than 32 HEADs over a long history, far from their commits', () => {
    const long: GraphCommit[] = [];
    for (let i = 1; i <= 20_000; i++) long.push({ sha: `c${i}`, parents: [`c${i - 1}`] });
    const queries: AncestryQuery[] = [];
    for (let k = 1; k <= 100; k++)
      queries.push({ head: `c${k}`, sha: 'c20000' }, { head: `c${20_000 - k}`, sha: `c${k}` });
    const covered = coveredQueries(long, queries, () => new Set());
    for (let k = 1; k <= 100; k++) {
      expect(covered.has(queryKey({ head: `c${k}`, sha: 'c20000' }))).toBe(true);
      expect(covered.has(queryKey({ head: `c${20_000 - k}`, sha: `c${k}` }))).toBe(false);
    }
  });
});
