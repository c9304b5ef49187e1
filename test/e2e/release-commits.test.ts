import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// Release tools commit through the installed hooks. Their headers are not Conventional Commits (or are
// chores the rules must not block); the built-in commit.ignore defaults let them through, and verify
// passes the resulting history.

function hookedRepo(): { repo: TempRepo; base: string } {
  const repo = makeRepo();
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  repo.write('.hestai_workspace.yaml', 'anchor:\n  required: false\nverify:\n  trailers: off\n');
  repo.write('package.json', `${JSON.stringify({ name: 'app', version: '0.0.1', private: true }, null, 2)}\n`);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  return { repo, base: repo.git(['rev-parse', 'HEAD']).stdout.trim() };
}

const header = (repo: TempRepo) => repo.git(['log', '-1', '--format=%s']).stdout.trim();

describe('release commits pass the hooks and verify', () => {
  it('npm version patch (a real npm: commit "0.0.2" and tag v0.0.2)', () => {
    const { repo, base } = hookedRepo();
    const npm = spawnSync('npm', ['version', 'patch'], {
      cwd: repo.dir,
      env: { ...repo.env, npm_config_git_tag_version: 'true', npm_config_commit_hooks: 'true' },
      encoding: 'utf8',
    });
    expect(npm.status, npm.stderr).toBe(0);
    expect(header(repo)).toBe('0.0.2');
    expect(repo.git(['tag', '--list', 'v0.0.2']).stdout.trim()).toBe('v0.0.2');
    const verify = repo.hestai(['verify', '--from', base, '--format', 'json']);
    expect(verify.status, verify.stdout).toBe(0);
    expect(JSON.parse(verify.stdout).commits[0].verdicts[0].message).toContain('commit.ignore');
  });

  it('a changesets release (`changeset version` with commit: true, and the action\'s "Version Packages")', () => {
    const { repo, base } = hookedRepo();
    repo.write('package.json', `${JSON.stringify({ name: 'app', version: '0.1.0', private: true }, null, 2)}\n`);
    repo.write('CHANGELOG.md', '# app\n\n## 0.1.0\n');
    repo.git(['add', '-A']);
    // The exact message @changesets/cli writes for `changeset version` with `commit: true`.
    const version = repo.git(
      ['commit', '-q', '-m', 'RELEASING: Releasing 1 package(s)\n\nReleases:\n  app@0.1.0\n\n[skip ci]\n'],
      { allowFail: true },
    );
    expect(version.status, version.stderr).toBe(0);
    const action = repo.git(['commit', '-q', '--allow-empty', '-m', 'Version Packages'], { allowFail: true });
    expect(action.status, action.stderr).toBe(0);
    expect(repo.hestai(['verify', '--from', base]).status).toBe(0);
  });

  it('a lerna release (default "Publish" and conventional "chore(release): publish")', () => {
    const { repo, base } = hookedRepo();
    const lerna = repo.git(['commit', '-q', '--allow-empty', '-m', 'Publish\n\n - app@0.0.2\n'], { allowFail: true });
    expect(lerna.status, lerna.stderr).toBe(0);
    const conventional = repo.git(['commit', '-q', '--allow-empty', '-m', 'chore(release): publish'], {
      allowFail: true,
    });
    expect(conventional.status, conventional.stderr).toBe(0);
    const tag = repo.git(['commit', '-q', '--allow-empty', '-m', 'v3.0.0'], { allowFail: true });
    expect(tag.status, tag.stderr).toBe(0);
    expect(repo.hestai(['verify', '--from', base]).status).toBe(0);
  });

  it('attack: a person lands "Publish" or "Version Packages" with code: the commit-msg hook refuses it, and verify fails it when committed past the hooks', () => {
    const { repo, base } = hookedRepo();
    repo.write('src/backdoor.js', 'module.exports = () => {};\n');
    repo.write('package.json', `${JSON.stringify({ name: 'app', version: '0.0.2', private: true }, null, 2)}\n`);
    repo.git(['add', '-A']);
    for (const header of ['Publish', 'Version Packages']) {
      const hooked = repo.git(['commit', '-q', '-m', header], { allowFail: true });
      expect(hooked.status, header).toBe(1);
      expect(hooked.stderr, header).toContain("a release tool's header");
      expect(hooked.stderr, header).toContain('src/backdoor.js');
    }
    repo.git(['commit', '-q', '--no-verify', '-m', 'Publish']);
    const verify = repo.hestai(['verify', '--from', base, '--format', 'json']);
    expect(verify.status, verify.stdout).toBe(1);
    const [commit] = JSON.parse(verify.stdout).commits;
    expect(commit.header).toBe('Publish');
    expect(commit.verdicts.find((v: { rule: string }) => v.rule === 'header')).toMatchObject({ status: 'fail' });
  });

  it('attack: code renamed onto release files\' names under "Publish" (git mv src/guard.js CHANGELOG.md): the hook refuses it naming the file, verify fails it; a rename inside .changeset/ passes', () => {
    const { repo } = hookedRepo();
    repo.write('src/guard.js', 'module.exports = (x) => x > 0;\n');
    repo.write('test/guard.test.js', "require('../src/guard.js');\n");
    repo.write('.changeset/a.md', '---\napp: patch\n---\n\nfix\n');
    repo.write('pkg/package.json', '{ "name": "pkg", "version": "0.0.1" }\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: add guard']);
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['mv', 'src/guard.js', 'CHANGELOG.md']);
    repo.git(['mv', 'test/guard.test.js', 'pkg/CHANGELOG.md']);
    const hooked = repo.git(['commit', '-q', '-m', 'Publish'], { allowFail: true });
    expect(hooked.status, hooked.stderr).toBe(1);
    expect(hooked.stderr).toContain("a release tool's header");
    expect(hooked.stderr).toContain('src/guard.js');
    repo.git(['commit', '-q', '--no-verify', '-m', 'Publish']);
    const verify = repo.hestai(['verify', '--from', base, '--format', 'json']);
    expect(verify.status, verify.stdout).toBe(1);
    const [commit] = JSON.parse(verify.stdout).commits;
    expect(commit.header).toBe('Publish');
    expect(commit.verdicts.find((v: { rule: string }) => v.rule === 'header')).toMatchObject({ status: 'fail' });
    expect(JSON.stringify(commit.verdicts)).toContain('src/guard.js');
    // a rename that stays inside release files is still a release
    repo.git(['reset', '-q', '--hard', base]);
    repo.git(['mv', '.changeset/a.md', '.changeset/b.md']);
    const changeset = repo.git(['commit', '-q', '-m', 'Version Packages'], { allowFail: true });
    expect(changeset.status, changeset.stderr).toBe(0);
    expect(repo.hestai(['verify', '--from', base]).status).toBe(0);
  });

  it('a real merge through the hooks is not judged by its "Merge branch" header; a single-parent one is', () => {
    const { repo } = hookedRepo();
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.write('side.md', 'x');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'docs: side']);
    repo.git(['checkout', '-q', 'main']);
    repo.write('main.md', 'x');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'docs: main']);
    const merge = repo.git(['merge', '--no-ff', '--no-edit', 'side'], { allowFail: true });
    expect(merge.status, merge.stderr).toBe(0);
    expect(header(repo)).toBe("Merge branch 'side'");
    const fake = repo.git(['commit', '-q', '--allow-empty', '-m', "Merge branch 'side'"], { allowFail: true });
    expect(fake.status).toBe(1);
    expect(fake.stderr).toContain('is not a Conventional Commit header');
  });
});
