import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { history } from '../../src/git/history.js';
import { branchHistory } from '../../src/hooks/branch-history.js';
import { restoreEnvAfterEach, useRepo } from '../helpers/process-env.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// Issue 27 (git answers git questions): every fact the hooks use is what git itself says, in a packed
// repository and after `git gc` too. git reads an object from a pack before a loose file of the same name,
// so a loose file planted next to a packed commit must change nothing the hooks see.

restoreEnvAfterEach();

const rev = (repo: TempRepo, name: string) => repo.git(['rev-parse', name]).stdout.trim();

function gitBranchLog(repo: TempRepo, excludes: string[]) {
  const r = history(repo.dir, { revisions: ['HEAD', ...excludes.map((e) => `^${e}`)], topoOrder: true });
  if (!('commits' in r)) throw new Error(r.error);
  return r.commits;
}

function fixture() {
  const repo = makeRepo();
  useRepo(repo);
  const main = rev(repo, 'HEAD');
  repo.git(['switch', '-q', '-c', 'feat/x']);
  repo.commit('chore: start', { 'src/a.ts': 'a\n' });
  return { repo, main, scope: { defaultBranch: 'main', since: null } };
}

describe("the hooks' branch history is git's in a packed repository", () => {
  it('after git gc every commit is packed and the history the hooks read is the one git prints', () => {
    const { repo, main, scope } = fixture();
    expect(branchHistory(repo.dir, scope)).toEqual(gitBranchLog(repo, [main]));
    repo.commit('test(a): covers a', { 'test/a.test.ts': 't\n' });
    repo.commit('feat(a): a', { 'src/a.ts': 'a2\n' });
    repo.git(['gc', '-q']);
    expect(fs.readdirSync(path.join(repo.dir, '.git', 'objects', 'pack')).some((f) => f.endsWith('.pack'))).toBe(true);
    expect(branchHistory(repo.dir, scope)).toEqual(gitBranchLog(repo, [main]));
    repo.commit('chore: after gc', { 'g.txt': 'g\n' });
    expect(branchHistory(repo.dir, scope)).toEqual(gitBranchLog(repo, [main]));
  });

  it('a loose object planted next to a packed commit (git reads the pack) does not change the history', () => {
    const { repo, main, scope } = fixture();
    // The branch has "chore: start"; then a feat without its test is made and packed.
    expect(branchHistory(repo.dir, scope)).toHaveLength(1);
    const feat = repo.commit('feat(a): a', { 'src/a.ts': 'a2\n' });
    // The commit object alone goes into a pack (as a fetch or a partial repack leaves it); the rest stays loose.
    repo.git(['pack-objects', '-q', path.join(repo.dir, '.git', 'objects', 'pack', 'pack')], { input: `${feat}\n` });
    repo.git(['prune-packed']);
    const loose = path.join(repo.dir, '.git', 'objects', feat.slice(0, 2), feat.slice(2));
    expect(fs.existsSync(loose)).toBe(false);
    // A forged loose copy under the packed commit's name: same tree and parent, a test commit's message.
    const body = repo.git(['cat-file', 'commit', feat]).stdout.replace('feat(a): a', 'test(a): covers a');
    fs.mkdirSync(path.dirname(loose), { recursive: true });
    fs.writeFileSync(loose, zlib.deflateSync(Buffer.from(`commit ${Buffer.byteLength(body)}\0${body}`)));
    expect(repo.git(['log', '-1', '--format=%s', feat]).stdout.trim()).toBe('feat(a): a');
    const seen = branchHistory(repo.dir, scope);
    expect(seen.map((c) => c.message.trim())).toEqual(['chore: start', 'feat(a): a']);
    expect(seen).toEqual(gitBranchLog(repo, [main]));
  });
});
