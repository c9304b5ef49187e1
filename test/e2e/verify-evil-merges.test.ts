import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { verdictOf, type VerifyReport } from '../helpers/anchored-repo.js';

// Issue 24 item 2: merges git cannot reproduce are errors. Pushed to a bare remote, judged in a fresh clone.

function adopted(config = ''): { repo: TempRepo; remote: string } {
  const repo = makeRepo();
  repo.commit('chore: config', {
    '.hestai_workspace.yaml': `verify:\n  anchors: off\n  trailers: off\n${config}`,
    'a.txt': 'one\ntwo\nthree\n',
  });
  const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
  repo.git(['init', '-q', '--bare', remote]);
  repo.git(['remote', 'add', 'origin', remote]);
  repo.git(['push', '-q', 'origin', 'main']);
  return { repo, remote };
}

function pushAndVerify(repo: TempRepo, remote: string) {
  repo.git(['push', '-q', '-f', 'origin', 'feat/x']);
  const clone = path.join(tempDir('hestai-ci-'), 'clone');
  repo.git(['clone', '-q', '--branch', 'feat/x', `file://${remote}`, clone]);
  const result = repo.hestai(['verify', '--format', 'json'], { cwd: clone });
  return { status: result.status, report: JSON.parse(result.stdout) as VerifyReport };
}

/** A commit with the given parents whose tree is `tree` plus `extra` files (git commit-tree, no hooks). */
function forge(repo: TempRepo, tree: string, parents: string[], extra: Record<string, string>, message: string) {
  const index = { GIT_INDEX_FILE: path.join(repo.dir, '.git', 'forge-index') };
  repo.git(['read-tree', tree], { env: index });
  for (const [file, content] of Object.entries(extra)) {
    const blob = repo.git(['hash-object', '-w', '--stdin'], { input: content }).stdout.trim();
    repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], { env: index });
  }
  const written = repo.git(['write-tree'], { env: index }).stdout.trim();
  const sha = repo.git(['commit-tree', written, ...parents.flatMap((p) => ['-p', p]), '-m', message]).stdout.trim();
  repo.git(['update-ref', 'refs/heads/feat/x', sha]);
  repo.git(['checkout', '-q', '-f', 'feat/x']);
  return sha;
}

describe('merges git cannot reproduce are errors', () => {
  it('attack: an octopus merge made with git commit-tree that adds a file fails; a real octopus merge passes', () => {
    const { repo, remote } = adopted();
    for (const b of ['b1', 'b2']) {
      repo.git(['checkout', '-q', '-b', b, 'main']);
      repo.commit(`docs: ${b}`, { [`docs/${b}.md`]: `${b}\n` });
    }
    repo.git(['checkout', '-q', '-b', 'feat/x', 'main']);
    repo.commit('docs: branch', { 'docs/x.md': 'x\n' });
    repo.git(['merge', '-q', '--no-verify', '-m', 'Merge b1 and b2', 'b1', 'b2']);
    expect(repo.git(['rev-list', '--parents', '-n1', 'HEAD']).stdout.trim().split(' ')).toHaveLength(4);
    const honest = pushAndVerify(repo, remote);
    expect(verdictOf(honest.report, 'Merge b1 and b2', 'merge')?.status).toBe('pass');
    for (const b of ['b3', 'b4']) {
      repo.git(['checkout', '-q', '-b', b, 'main']);
      repo.commit(`docs: ${b}`, { [`docs/${b}.md`]: `${b}\n` });
    }
    repo.git(['checkout', '-q', 'feat/x']);
    repo.git(['merge', '-q', '--no-verify', '--no-commit', 'b3', 'b4']);
    const tree = repo.git(['write-tree']).stdout.trim();
    repo.git(['merge', '--abort']);
    forge(repo, tree, ['feat/x', 'b3', 'b4'], { 'src/backdoor.ts': 'export const open = true;\n' }, 'sync b3 b4');
    const evil = pushAndVerify(repo, remote);
    expect(evil.status).toBe(1);
    expect(verdictOf(evil.report, 'sync b3 b4', 'merge')?.status).toBe('fail');
    expect(verdictOf(evil.report, 'sync b3 b4', 'merge')?.message).toContain('src/backdoor.ts');
  });

  it('attack: a merge with an unrelated root fails unless the base policy allows unrelated histories', () => {
    const { repo, remote } = adopted();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('docs: branch', { 'docs/x.md': 'x\n' });
    repo.git(['checkout', '-q', '--orphan', 'other']);
    repo.git(['rm', '-rq', '--cached', '.']);
    repo.commit('chore: another root', { 'vendor/lib.ts': 'export {};\n' });
    repo.git(['checkout', '-q', '-f', 'feat/x']);
    repo.git(['merge', '-q', '--no-verify', '--allow-unrelated-histories', '-m', 'Merge another root', 'other']);
    const { status, report } = pushAndVerify(repo, remote);
    expect(status).toBe(1);
    expect(verdictOf(report, 'Merge another root', 'merge')?.status).toBe('fail');
    expect(verdictOf(report, 'Merge another root', 'merge')?.message).toContain('verify.unrelated_histories');

    const allowed = adopted('  unrelated_histories: allow\n');
    allowed.repo.git(['checkout', '-q', '-b', 'feat/x']);
    allowed.repo.git(['checkout', '-q', '--orphan', 'other']);
    allowed.repo.git(['rm', '-rq', '--cached', '.']);
    allowed.repo.commit('chore: another root', { 'vendor/lib.ts': 'export {};\n' });
    allowed.repo.git(['checkout', '-q', '-f', 'feat/x']);
    allowed.repo.git([
      'merge',
      '-q',
      '--no-verify',
      '--allow-unrelated-histories',
      '-m',
      'Merge another root',
      'other',
    ]);
    const ok = pushAndVerify(allowed.repo, allowed.remote);
    expect(verdictOf(ok.report, 'Merge another root', 'merge')?.status).toBe('pass');
  });

  it('attack: new lines inside a conflict resolution fail, naming the file; a resolution that only picks sides passes', () => {
    const { repo, remote } = adopted();
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('docs: side', { 'a.txt': 'one\nSIDE\nthree\n' });
    repo.git(['checkout', '-q', '-b', 'feat/x', 'main']);
    repo.commit('docs: branch', { 'a.txt': 'one\nBRANCH\nthree\n' });
    const resolve = (content: string, message: string) => {
      repo.git(['merge', '-q', '--no-verify', 'side'], { allowFail: true });
      repo.write('a.txt', content);
      repo.git(['add', 'a.txt']);
      repo.git(['commit', '-q', '--no-verify', '-m', message]);
    };
    resolve('one\nBRANCH\nSIDE\nthree\n', 'Merge side (picked both)');
    expect(verdictOf(pushAndVerify(repo, remote).report, 'Merge side (picked both)', 'merge')?.status).toBe('pass');
    repo.git(['reset', '-q', '--hard', 'HEAD^']);
    resolve('one\nBRANCH\nrequire("child_process").exec(process.env.X)\nthree\n', 'Merge side (resolved)');
    const { status, report } = pushAndVerify(repo, remote);
    expect(status).toBe(1);
    expect(verdictOf(report, 'Merge side (resolved)', 'merge')?.status).toBe('fail');
    expect(verdictOf(report, 'Merge side (resolved)', 'merge')?.message).toContain('a.txt');
  });
});

// Issue 40 item 1: a merge is judged by git's remerge diff; only the conflict hunks may differ, from their sides.
describe('merges judged by the remerge diff', () => {
  const auth = (value: string, admin = true) =>
    [
      'export function check(user) {',
      '  if (!user) throw new Error("none");',
      ...(admin ? ['  if (!user.admin) throw new Error("denied");'] : []),
      '  const a = 1;',
      '  const b = 2;',
      '  const c = 3;',
      '  const d = 4;',
      '  const e = 5;',
      `  return ${value};`,
      '}',
      '',
    ].join('\n');
  function conflicted() {
    const { repo, remote } = adopted();
    repo.commit('docs: auth', { 'src/auth.js': auth('a + b') });
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('docs: side', { 'src/auth.js': auth('SIDE'), 'a.txt': 'one\ntwo\nthree side\n' });
    repo.git(['checkout', '-q', '-b', 'feat/x', 'main']);
    repo.commit('docs: branch', { 'src/auth.js': auth('BRANCH') });
    const resolve = (content: string, message: string) => {
      repo.git(['merge', '-q', '--no-verify', 'side'], { allowFail: true });
      repo.write('src/auth.js', content);
      repo.git(['add', 'src/auth.js']);
      repo.git(['commit', '-q', '--no-verify', '-m', message]);
      return pushAndVerify(repo, remote);
    };
    return { repo, resolve };
  }

  it('attack: a resolution that takes one side and deletes a line both parents have, above the conflict, fails naming it', () => {
    const { resolve } = conflicted();
    const { status, report } = resolve(auth('BRANCH', false), 'Merge side (deleted)');
    expect(status).toBe(1);
    const verdict = verdictOf(report, 'Merge side (deleted)', 'merge');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toContain('src/auth.js');
    expect(verdict?.message).toContain('if (!user.admin) throw new Error("denied");');
  });

  it('attack: a line moved from elsewhere in the file into the conflict hunk fails', () => {
    const { resolve } = conflicted();
    const moved = auth('BRANCH')
      .replace('  const a = 1;\n', '')
      .replace('  return BRANCH;', '  const a = 1;\n  return BRANCH;');
    const { status, report } = resolve(moved, 'Merge side (moved)');
    expect(status).toBe(1);
    const verdict = verdictOf(report, 'Merge side (moved)', 'merge');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toContain('src/auth.js');
    expect(verdict?.message).toContain('const a = 1;');
  });

  it('an honest resolution that keeps both sides passes, and so does one that takes one side', () => {
    const { repo, resolve } = conflicted();
    const both = resolve(
      auth('BRANCH').replace('  return BRANCH;', '  return BRANCH;\n  return SIDE;'),
      'Merge side (both)',
    );
    expect(verdictOf(both.report, 'Merge side (both)', 'merge')?.status).toBe('pass');
    repo.git(['reset', '-q', '--hard', 'HEAD^']);
    const ours = resolve(auth('BRANCH'), 'Merge side (ours)');
    expect(verdictOf(ours.report, 'Merge side (ours)', 'merge')?.status).toBe('pass');
  });
});

// Issue 40 item 8: a lockfile regenerated while merging differs from git's re-merge. An error by default; the
// base policy may list such paths (verify.merge_regenerated), each then a warning naming it.
describe('paths regenerated in a merge (verify.merge_regenerated)', () => {
  const lock = (dep: string, version: string) =>
    `{\n  "name": "app",\n  "packages": {\n    "node_modules/${dep}": {\n      "version": "${version}"\n    }\n  }\n}\n`;
  function regenerated(config = '') {
    const { repo, remote } = adopted(config);
    repo.commit('chore: lockfile', { 'package-lock.json': lock('left-pad', '1.0.0') });
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('chore(deps): side', { 'package-lock.json': lock('left-pad', '1.1.0') });
    repo.git(['checkout', '-q', '-b', 'feat/x', 'main']);
    repo.commit('chore(deps): branch', { 'package-lock.json': lock('left-pad', '1.2.0') });
    const merge = (files: Record<string, string>, message: string) => {
      repo.git(['merge', '-q', '--no-verify', 'side'], { allowFail: true });
      for (const [file, content] of Object.entries(files)) {
        repo.write(file, content);
        repo.git(['add', file]);
      }
      repo.git(['commit', '-q', '--no-verify', '-m', message]);
      return pushAndVerify(repo, remote);
    };
    return { repo, merge };
  }
  // npm install after resolving: a version neither side had, and a package neither side named.
  const npmInstalled = `${lock('left-pad', '1.3.0').slice(0, -3)},\n    "node_modules/evil": {}\n  }\n}\n`;

  it('attack: a lockfile regenerated in a merge fails by default, naming it and its first differing line', () => {
    const { merge } = regenerated();
    const { status, report } = merge({ 'package-lock.json': npmInstalled }, 'Merge side (npm install)');
    expect(status).toBe(1);
    const verdict = verdictOf(report, 'Merge side (npm install)', 'merge');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toContain('package-lock.json');
    expect(verdict?.message).toContain('1.3.0');
  });

  it('listed in the base policy, the regenerated lockfile is a warning naming it and verify passes; another path still fails', () => {
    const { repo, merge } = regenerated('  merge_regenerated: ["package-lock.json"]\n');
    const ok = merge({ 'package-lock.json': npmInstalled }, 'Merge side (npm install)');
    expect(ok.status).toBe(0);
    const warned = verdictOf(ok.report, 'Merge side (npm install)', 'merge');
    expect(warned?.status).toBe('warn');
    expect(warned?.message).toContain('package-lock.json');
    expect(warned?.message).toContain('verify.merge_regenerated');
    repo.git(['reset', '-q', '--hard', 'HEAD^']);
    const evil = merge(
      { 'package-lock.json': npmInstalled, 'a.txt': 'one\ntwo\nthree\nbackdoor\n' },
      'Merge side (npm install and more)',
    );
    expect(evil.status).toBe(1);
    const failed = verdictOf(evil.report, 'Merge side (npm install and more)', 'merge');
    expect(failed?.status).toBe('fail');
    expect(failed?.message).toContain('a.txt');
  });

  it('a branch cannot list its own regenerated paths: the policy is the base', () => {
    const { repo, merge } = regenerated();
    repo.commit('chore: allow lockfiles', {
      '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n  merge_regenerated: ["**"]\n',
    });
    const { status, report } = merge({ 'package-lock.json': npmInstalled }, 'Merge side (npm install)');
    expect(status).toBe(1);
    expect(verdictOf(report, 'Merge side (npm install)', 'merge')?.status).toBe('fail');
  });
});
