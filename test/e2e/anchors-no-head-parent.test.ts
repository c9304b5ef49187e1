import { describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';

// Issue 24 item 4: the anchors branch never carries a commit that the pushed refs do not contain: the
// recorded HEAD is data in the record, not a parent of the anchors commit.

describe('publishing the anchors does not publish the HEAD', () => {
  it('attack: a local commit dropped before any push (say, one holding a secret) does not reach the remote through hestai/anchors', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const secret = repo.commit('docs: holds a secret', { 'secret.txt': 'AKIAIOSFODNN7EXAMPLE\n' });
    repo.anchor();
    repo.git(['reset', '-q', '--hard', 'HEAD~1']);
    expect(repo.commitHooked('docs: anchored work', { 'docs/a.md': 'a\n' }).status).toBe(0);
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);
    expect(
      repo.git(['--git-dir', repo.remote, 'rev-parse', '--verify', '-q', 'refs/heads/hestai/anchors']).status,
    ).toBe(0);
    const leaked = repo.git(['--git-dir', repo.remote, 'cat-file', '-e', `${secret}^{commit}`], { allowFail: true });
    expect(leaked.status).not.toBe(0);
  });
});
