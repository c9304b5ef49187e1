import { describe, expect, it } from 'vitest';
import { catFileBatch, catFileSession } from '../../src/git/anchors.js';
import { makeRepo } from '../helpers/git-repo.js';

describe('one git cat-file for a whole run (catFileSession)', () => {
  it('answers each ask as catFileBatch does: contents, info, missing objects and unaskable specs, in order', async () => {
    const repo = makeRepo();
    const head = repo.commit('docs: files', {
      'docs/a.md': 'alpha\n',
      'docs/empty.md': '',
      'src/b.ts': 'b\n'.repeat(50_000),
    });
    const session = catFileSession(repo.dir);
    try {
      const contents = [
        `${head}:docs/a.md`,
        `${head}:docs/empty.md`,
        `${head}:src/b.ts`,
        `${head}:nope.md`,
        'bad\nspec',
      ];
      const info = [`${head}^{commit}`, `${head}:docs`, `${head}:missing`];
      for (let round = 0; round < 2; round++) {
        const [got, checked] = await Promise.all([
          session.ask(contents, { content: true }),
          session.ask(info, { content: false }),
        ]);
        expect(got).toEqual(catFileBatch(repo.dir, contents, { content: true }));
        expect(checked).toEqual(catFileBatch(repo.dir, info, { content: false }));
        expect(got.get(`${head}:src/b.ts`)).toMatchObject({ found: true, size: 100_000 });
        expect(checked.get(`${head}:docs`)).toMatchObject({ found: true, type: 'tree' });
      }
    } finally {
      session.close();
    }
  });
});
