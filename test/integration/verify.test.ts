import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

interface Report {
  ok: boolean;
  range: { from: string | null; to: string };
  commits: { sha: string; header: string; verdicts: { rule: string; status: string; message: string }[] }[];
  errors: number;
  warnings: number;
}
// These repositories have no remote, so no origin/HEAD: the base is named, as a workflow would (`--from main`).
const verify = (repo: TempRepo, args: string[] = [], cwd = repo.dir) => {
  const base = args.includes('--from') ? [] : ['--from', 'main'];
  const result = repo.hestai(['verify', '--format', 'json', ...base, ...args], { cwd });
  return { ...result, report: (result.stdout ? JSON.parse(result.stdout) : null) as Report };
};
const verdict = (report: Report, header: string, rule: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === rule);
const SESSION = `HestAI-Session: 6f1c2a8e-1b2c-4d3e-8f90-0a1b2c3d4e5f\nHestAI-Anchor: sha256:${'0123456789abcdef'.repeat(4)}`;
// These tests are about the commit rules: anchors are re-validated in test/e2e/anchors-ci.test.ts.
const NO_ANCHORS = { '.hestai_workspace.yaml': 'verify:\n  anchors: off\n' };

describe('hestai verify', () => {
  it('judges every commit of a branch since its merge-base, in the JSON shape of docs/design.md §7', () => {
    const repo = makeRepo();
    repo.commit('feat: on main, before the branch', NO_ANCHORS);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit(`test(a): red\n\n${SESSION}`, { 'test/a.test.ts': 'x' });
    repo.commit(`feat(a): green\n\n${SESSION}`, { 'src/a.ts': 'x' });
    const { status, report } = verify(repo);
    expect(status).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.range.from).toBe(repo.git(['rev-parse', 'main']).stdout.trim());
    expect(report.range.to).toBe(repo.git(['rev-parse', 'HEAD']).stdout.trim());
    expect(report.commits.map((c) => c.header)).toEqual(['test(a): red', 'feat(a): green']);
    expect(report.commits[0]!.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(verdict(report, 'feat(a): green', 'test-first')?.status).toBe('pass');
    expect(verdict(report, 'feat(a): green', 'trailers')?.status).toBe('pass');
    expect(report.errors).toBe(0);
    expect(report.warnings).toBe(0);
  });

  it('fails a feat without a test, exits 1, and names the type and the fix in every format', () => {
    const repo = makeRepo();
    repo.commit('chore: config', NO_ANCHORS);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit(`feat(cli): no test\n\n${SESSION}`, { 'src/cli.ts': 'x' });
    const { status, report } = verify(repo);
    expect(status).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.errors).toBe(1);
    expect(verdict(report, 'feat(cli): no test', 'test-first')?.message).toContain('feat commit');
    const text = repo.hestai(['verify', '--from', 'main']);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain('feat(cli): no test');
    expect(text.stdout).toMatch(/commit the failing test first/i);
    const github = repo.hestai(['verify', '--from', 'main', '--format', 'github']);
    expect(github.status).toBe(1);
    expect(github.stdout).toMatch(/^::error file=src\/cli\.ts,title=hestai test-first \([0-9a-f]{7}\)::feat commit/m);
  });

  it('the "fix the history" hint follows a failing test-first verdict only, never an anchor error alone', () => {
    const HINT = 'hint: fix the history before merging';
    const anchorOnly = makeRepo();
    anchorOnly.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  trailers: off\n' });
    anchorOnly.git(['checkout', '-q', '-b', 'docs/x']);
    anchorOnly.commit(`docs: a claimed anchor\n\n${SESSION}`, { 'docs/a.md': 'x' });
    const anchor = verify(anchorOnly);
    expect(anchor.status).toBe(1);
    expect(
      anchor.report.commits.flatMap((c) => c.verdicts.filter((v) => v.status === 'fail').map((v) => v.rule)),
    ).toEqual(['anchor']);
    const anchorText = anchorOnly.hestai(['verify', '--from', 'main']);
    expect(anchorText.status).toBe(1);
    expect(anchorText.stdout).toContain('FAILED: 1 error(s)');
    expect(anchorText.stdout).not.toContain(HINT);

    const testFirst = makeRepo();
    testFirst.commit('chore: config', NO_ANCHORS);
    testFirst.git(['checkout', '-q', '-b', 'feat/x']);
    testFirst.commit(`feat(cli): no test\n\n${SESSION}`, { 'src/cli.ts': 'x' });
    const testFirstText = testFirst.hestai(['verify', '--from', 'main']);
    expect(testFirstText.status).toBe(1);
    expect(testFirstText.stdout).toContain(HINT);
  });

  it('lists bypasses and exemptions as warnings, and missing trailers per verify.trailers (policy from the base)', () => {
    // verify reads its policy from the base of the range, so each policy is committed on main before the branch.
    const scenario = (config: string) => {
      const repo = makeRepo();
      repo.commit('chore: config', { '.hestai_workspace.yaml': config });
      repo.git(['checkout', '-q', '-b', 'feat/x']);
      repo.commit('feat: hotfix\n\nHestAI-Bypass: prod is down', { 'src/a.ts': 'x' });
      repo.commit(`feat: generated\n\nTDD-Exempt: generated client\n${SESSION}`, { 'src/b.ts': 'x' });
      repo.commit('docs: no trailers\n\nHestAI-Session: not-a-uuid');
      return verify(repo);
    };
    // The base lowers them to warnings (by default each is an error: test/e2e/verify-exemptions.test.ts).
    const { status, report } = scenario('verify:\n  anchors: off\n  trailers: warn\n  bypass: warn\n  exempt: warn\n');
    expect(status, JSON.stringify(report, null, 1)).toBe(0);
    expect(verdict(report, 'feat: hotfix', 'bypass')).toMatchObject({ status: 'warn' });
    expect(verdict(report, 'feat: hotfix', 'bypass')?.message).toContain('prod is down');
    expect(verdict(report, 'feat: hotfix', 'test-first')?.status).toBe('skip');
    expect(verdict(report, 'feat: generated', 'test-first')).toMatchObject({ status: 'warn' });
    expect(verdict(report, 'docs: no trailers', 'trailers')?.status).toBe('warn');
    expect(verdict(report, 'docs: no trailers', 'trailers')?.message).toContain('HestAI-Session');
    const strict = scenario('verify:\n  trailers: error\n  bypass: error\n  anchors: off\n');
    expect(strict.status).toBe(1);
    expect(verdict(strict.report, 'feat: hotfix', 'bypass')?.status).toBe('fail');
    expect(
      verdict(scenario('verify:\n  trailers: off\n  anchors: off\n').report, 'docs: no trailers', 'trailers'),
    ).toBeUndefined();
  });

  it('checks an explicit --from..--to range and honours tdd.since on the default branch', () => {
    const repo = makeRepo();
    const old = repo.commit('feat: before adoption');
    repo.write('.hestai_workspace.yaml', `tdd:\n  since: ${old}\nverify:\n  trailers: off\n  anchors: off\n`);
    repo.commit('test: a', { 'test/a.test.ts': 'x' });
    repo.commit('feat: a', { 'src/a.ts': 'x' });
    // Auditing the default branch's own history: from tdd.since, with the policy of its tip.
    const { status, report } = verify(repo, ['--from', old, '--policy', 'HEAD']);
    expect(status).toBe(0);
    expect(report.range.from).toBe(old);
    expect(report.commits.map((c) => c.header)).toEqual(['test: a', 'feat: a']);
    const explicit = verify(repo, ['--from', 'HEAD~1', '--to', 'HEAD']);
    expect(explicit.report.commits.map((c) => c.header)).toEqual(['feat: a']);
    // Pairing looks at the feat's ancestry since its base, not at the range: its test commit is its parent.
    expect(explicit.status).toBe(0);
  });

  it('refuses a shallow clone that hides part of the range, naming fetch-depth: 0', () => {
    const repo = makeRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    for (let i = 0; i < 4; i++) repo.commit(`docs: ${i}\n\n${SESSION}`);
    const clone = path.join(tempDir(), 'clone');
    repo.git(['clone', '-q', '--depth', '2', '--branch', 'feat/x', `file://${repo.dir}`, clone]);
    const result = repo.hestai(['verify', '--from', 'main', '--to', 'HEAD'], { cwd: clone });
    expect(result.status).not.toBe(0);
    expect(result.stderr + result.stdout).toContain('fetch-depth: 0');
    const noFrom = repo.hestai(['verify'], { cwd: clone });
    expect(noFrom.status).not.toBe(0);
    expect(noFrom.stderr + noFrom.stdout).toContain('fetch-depth: 0');
  });

  it('rejects an unknown --from with exit 2 and a bad --format with exit 2', () => {
    const repo = makeRepo();
    expect(repo.hestai(['verify', '--from', 'nope']).status).toBe(2);
    expect(repo.hestai(['verify', '--format', 'xml']).status).toBe(2);
  });

  it('--red-green requires the test to fail at the test commit and pass at the feat commit', () => {
    const repo = makeRepo();
    repo.write(
      '.hestai_workspace.yaml',
      'tdd:\n  test_command: sh test/run.sh\nverify:\n  trailers: off\n  anchors: off\n',
    );
    repo.commit('chore: config');
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('test(a): red', { 'test/run.sh': 'test -f src/a.txt\n' });
    repo.commit('feat(a): green', { 'src/a.txt': 'x' });
    // The test command is the repository's: it runs only once the workspace is trusted (issue 24).
    expect(repo.hestai(['trust']).status).toBe(0);
    const good = verify(repo, ['--red-green']);
    expect(good.status, JSON.stringify(good.report)).toBe(0);
    expect(verdict(good.report, 'feat(a): green', 'red-green')?.status).toBe('pass');
    repo.commit('test(b): already green', { 'test/run-b.sh': 'true\n' });
    repo.commit('feat(b): nothing new', { 'src/b.txt': 'x' });
    const bad = verify(repo, ['--red-green']);
    expect(bad.status).toBe(1);
    expect(verdict(bad.report, 'feat(b): nothing new', 'red-green')?.message).toMatch(/RED/);
    expect(repo.git(['worktree', 'list']).stdout.trim().split('\n')).toHaveLength(1);
  });
});

describe('hestai verify when git log fails', () => {
  // verify reads what its verdicts depend on (docs/enforcement.md, "Speed"): a test commit's changed files
  // with rename detection (a test file only renamed does not count), so git reads the blobs of its renamed
  // files, and a missing one is git's failure, reported as git said it.
  it('a missing object in a full clone, in a commit a verdict reads, is reported as what git said, never as a shallow clone', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n' });
    repo.commit('test: a', { 'test/a.test.ts': 'one\ntwo\nthree\nfour\nfive\n' });
    repo.git(['mv', 'test/a.test.ts', 'test/b.test.ts']);
    repo.write('test/b.test.ts', 'one\ntwo\nthree\nfour\nsix\n');
    repo.commit('test: b');
    const blob = repo.git(['rev-parse', 'HEAD~1:test/a.test.ts']).stdout.trim();
    fs.rmSync(path.join(repo.dir, '.git/objects', blob.slice(0, 2), blob.slice(2)));
    const result = repo.hestai(['verify', '--from', 'HEAD~2']);
    expect(result.status).toBe(2);
    expect(result.stderr + result.stdout).not.toContain('shallow');
    expect(result.stderr + result.stdout).toContain(blob.slice(0, 7));
  });

  // ... and verify is no fsck: a docs commit's files are not read (no verdict depends on them), so a blob
  // missing from it is not looked for. `git fsck` is the check for a corrupt repository.
  it('does not read, so does not report, an object missing from a commit no verdict reads', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n' });
    repo.commit('docs: a', { 'docs/a.md': 'one\ntwo\nthree\nfour\nfive\n' });
    repo.git(['mv', 'docs/a.md', 'docs/b.md']);
    repo.write('docs/b.md', 'one\ntwo\nthree\nfour\nsix\n');
    repo.commit('docs: b');
    const blob = repo.git(['rev-parse', 'HEAD~1:docs/a.md']).stdout.trim();
    fs.rmSync(path.join(repo.dir, '.git/objects', blob.slice(0, 2), blob.slice(2)));
    const result = verify(repo, ['--from', 'HEAD~2']);
    expect(result.status).toBe(0);
    expect(result.report.commits.map((c) => c.header).sort()).toEqual(['docs: a', 'docs: b']);
    const fsck = repo.git(['fsck'], { allowFail: true });
    expect(fsck.stdout + fsck.stderr).toContain(blob);
  });

  // A feat's files matter to test-first only when an unpaired test commit on its line has another scope
  // (or none): with only test commits of its own scope, it pairs with them whatever it changes.
  function featRenaming(scope: string) {
    const repo = makeRepo();
    const config = repo.commit('chore: config', {
      '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n',
      'src/a.ts': 'one\ntwo\nthree\nfour\nfive\n',
    });
    repo.commit('test(cli): a', { 'test/a.test.ts': '1\n' });
    repo.git(['mv', 'src/a.ts', 'src/b.ts']);
    repo.write('src/b.ts', 'one\ntwo\nthree\nfour\nsix\n');
    repo.commit(`feat(${scope}): b`);
    const blob = repo.git(['rev-parse', 'HEAD~1:src/a.ts']).stdout.trim();
    fs.rmSync(path.join(repo.dir, '.git/objects', blob.slice(0, 2), blob.slice(2)));
    return { repo, config, blob };
  }

  it('does not read the files of a feat whose unpaired test commits all have its scope', () => {
    const { repo, config } = featRenaming('cli');
    const result = verify(repo, ['--from', config]);
    expect(result.status, result.stderr).toBe(0);
    expect(verdict(result.report, 'feat(cli): b', 'test-first')?.message).toContain('same scope (cli)');
  });

  it('reads the files of a feat when an unpaired test commit has another scope (a missing object is then reported)', () => {
    const { repo, config, blob } = featRenaming('git');
    const result = repo.hestai(['verify', '--from', config]);
    expect(result.status).toBe(2);
    expect(result.stderr + result.stdout).toContain(blob.slice(0, 7));
  });
});
