import { describe, expect, it } from 'vitest';
import { streamCommits } from '../../src/git/log-stream.js';
import { makeRepo } from '../helpers/git-repo.js';

describe('streamCommits reads records longer than a chunk', () => {
  it('a 3 MB commit message between two short ones arrives whole, in order, with its neighbours', async () => {
    const repo = makeRepo();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('docs: before');
    const body = `${'ab\u00e9c'.repeat(250)}\n`.repeat(3000); // multi-byte characters across chunk boundaries
    repo.git(['commit', '-q', '--allow-empty', '--no-verify', '-F', '-'], { input: `docs: huge\n\n${body}` });
    repo.commit('docs: after');
    const read: { header: string; length: number }[] = [];
    for await (const batch of streamCommits(repo.dir, ['HEAD', `^${base}`], 2))
      for (const { commit } of batch)
        read.push({ header: commit.message.split('\n')[0]!, length: commit.message.length });
    expect(read.map((r) => r.header)).toEqual(['docs: before', 'docs: huge', 'docs: after']);
    expect(read[1]!.length).toBeGreaterThanOrEqual(body.trimEnd().length);
  });
});
