import { describe, expect, it } from 'vitest';
import { treeChanges, treeDiffSession } from '../../src/git/merge.js';
import { makeRepo } from '../helpers/git-repo.js';

describe('one git diff-tree --stdin for a whole run (treeDiffSession)', () => {
  it('answers each ask as treeChanges does: added, changed, deleted and unchanged, asks in flight together', async () => {
    const repo = makeRepo();
    const first = repo.commit('docs: files', { 'docs/a.md': 'alpha\n', 'src/b.ts': 'b\n', 'gone.txt': 'x\n' });
    repo.git(['rm', '-q', 'gone.txt']);
    const second = repo.commit('docs: more', { 'docs/a.md': 'beta\n', 'docs/new file.md': 'new\n' });
    const session = treeDiffSession(repo.dir);
    try {
      const asks = [
        [{ from: first, to: second }],
        [
          { from: second, to: first },
          { from: second, to: second },
        ],
      ];
      for (let round = 0; round < 2; round++) {
        const got = await Promise.all(asks.map((pairs) => session.changes(pairs)));
        for (const [i, pairs] of asks.entries()) expect(got[i]).toEqual(await treeChanges(repo.dir, pairs));
        expect([...got[0]![0]!.keys()].sort()).toEqual(['docs/a.md', 'docs/new file.md', 'gone.txt']);
        expect(got[1]![1]!.size).toBe(0);
      }
      expect(await session.changes([])).toEqual([]);
    } finally {
      session.close();
    }
  });

  it('says null for a pair git cannot diff (a missing object, skipped or fatal to git), and answers the next ask', async () => {
    const repo = makeRepo();
    const head = repo.commit('docs: a', { 'a.md': 'a\n' });
    const session = treeDiffSession(repo.dir);
    try {
      for (const pairs of [[{ from: head, to: '0'.repeat(40) }], [{ from: '0'.repeat(40), to: head }]]) {
        expect(await session.changes(pairs)).toBeNull();
        expect((await session.changes([{ from: head, to: head }]))?.[0]?.size).toBe(0);
      }
    } finally {
      session.close();
    }
  });
});
