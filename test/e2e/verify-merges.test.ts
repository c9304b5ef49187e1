import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { verdictOf, type VerifyReport } from '../helpers/anchored-repo.js';

// Issue 11: merges are judged by what they add. Run as CI meets it: git push to a bare remote, verify in a fresh clone.

describe('verify judges merges by what they add', () => {
  it('attack: a two-parent commit built with git commit-tree that adds code found in neither parent fails, naming the file; a clean merge passes', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n' });
    const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
    repo.git(['init', '-q', '--bare', remote]);
    repo.git(['remote', 'add', 'origin', remote]);
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('docs: on the side', { 'docs/side.md': 'side\n' });
    repo.git(['checkout', '-q', '-b', 'feat/x', 'main']);
    repo.commit('docs: on the branch', { 'docs/branch.md': 'branch\n' });
    repo.git(['merge', '-q', '--no-ff', '--no-verify', '-m', 'Merge branch side', 'side']);
    // The evil merge: the tree of a clean merge of `side2` plus a file neither parent has.
    repo.git(['checkout', '-q', '-b', 'side2', 'main']);
    repo.commit('docs: more on the side', { 'docs/side2.md': 'side2\n' });
    repo.git(['checkout', '-q', 'feat/x']);
    const index = { GIT_INDEX_FILE: path.join(repo.dir, '.git', 'evil-index') };
    const auto = repo.git(['merge-tree', '--write-tree', 'feat/x', 'side2']).stdout.trim();
    repo.git(['read-tree', auto], { env: index });
    const blob = repo
      .git(['hash-object', '-w', '--stdin'], { input: 'export const backdoor = () => true;\n' })
      .stdout.trim();
    repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},src/backdoor.ts`], { env: index });
    const tree = repo.git(['write-tree'], { env: index }).stdout.trim();
    const evil = repo.git(['commit-tree', tree, '-p', 'feat/x', '-p', 'side2', '-m', 'sync with side2']).stdout.trim();
    repo.git(['update-ref', 'refs/heads/feat/x', evil]);
    repo.git(['reset', '-q', '--hard']);
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);

    const clone = path.join(tempDir('hestai-ci-'), 'clone');
    repo.git(['clone', '-q', '--branch', 'feat/x', `file://${remote}`, clone]);
    const result = repo.hestai(['verify', '--format', 'json'], { cwd: clone });
    const report = JSON.parse(result.stdout) as VerifyReport;
    expect(result.status, JSON.stringify(report, null, 1)).toBe(1);
    const bad = verdictOf(report, 'sync with side2', 'merge');
    expect(bad?.status).toBe('fail');
    expect(bad?.message).toContain('src/backdoor.ts');
    expect(bad?.message).not.toContain('docs/side2.md');
    expect(verdictOf(report, 'Merge branch side', 'merge')?.status).toBe('pass');
  });

  it('a merge that only resolves a conflict is not evil', () => {
    const repo = makeRepo();
    repo.commit('chore: config', {
      '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n',
      'a.txt': 'base\n',
    });
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('docs: side edit', { 'a.txt': 'side\n' });
    repo.git(['checkout', '-q', '-b', 'feat/x', 'main']);
    repo.commit('docs: branch edit', { 'a.txt': 'branch\n' });
    repo.git(['merge', '-q', '--no-verify', 'side'], { allowFail: true });
    // A resolution that only picks sides (issue 24: a line found in neither parent is an evil merge).
    repo.write('a.txt', 'side\nbranch\n');
    repo.git(['add', 'a.txt']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'Merge branch side (resolved)']);
    const ok = JSON.parse(repo.hestai(['verify', '--from', 'main', '--format', 'json']).stdout) as VerifyReport;
    expect(verdictOf(ok, 'Merge branch side (resolved)', 'merge')?.status).toBe('pass');
  });
});
