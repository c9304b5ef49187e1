import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

interface Verdict {
  rule: string;
  status: string;
  message: string;
  clause?: string;
}
interface Report {
  ok: boolean;
  commits: { sha: string; header: string; verdicts: Verdict[] }[];
  error?: { code: string; message: string; remedy?: string };
}
const verify = (repo: TempRepo, args: string[] = [], cwd = repo.dir) => {
  const result = repo.hestai(['verify', '--format', 'json', ...args], { cwd });
  return { ...result, report: JSON.parse(result.stdout) as Report };
};
const verdictOf = (report: Report, header: string, rule: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === rule);
const CONFIG = 'verify:\n  trailers: off\n  anchors: off\n';

function repoWithConfig(): TempRepo {
  const repo = makeRepo();
  repo.write('.hestai_workspace.yaml', CONFIG);
  repo.commit('chore: config');
  return repo;
}

describe('verify on real histories', () => {
  it('pairs each feat with a test commit on its own line of history (parallel branches)', () => {
    const repo = repoWithConfig();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('test(side): s', { 'test/s.test.ts': 's' });
    repo.commit('feat(side): s', { 'src/s.ts': 's' });
    repo.git(['checkout', '-q', 'main']);
    repo.commit('test(main): m', { 'test/m.test.ts': 'm' });
    repo.commit('feat(main): m', { 'src/m.ts': 'm' });
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
    const { status, report } = verify(repo, ['--from', base]);
    expect(status, JSON.stringify(report, null, 2)).toBe(0);
    expect(verdictOf(report, 'feat(side): s', 'test-first')?.message).toContain('"test(side): s"');
    expect(verdictOf(report, 'feat(main): m', 'test-first')?.message).toContain('"test(main): m"');
  });

  it('a side-branch feat whose only test is on the main line fails, and the main-line feat passes', () => {
    const repo = repoWithConfig();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('feat(side): no test', { 'src/s.ts': 's' });
    repo.git(['checkout', '-q', 'main']);
    repo.commit('test(main): m', { 'test/m.test.ts': 'm' });
    repo.commit('feat(main): m', { 'src/m.ts': 'm' });
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
    const { status, report } = verify(repo, ['--from', base]);
    expect(status).toBe(1);
    expect(verdictOf(report, 'feat(side): no test', 'test-first')?.status).toBe('fail');
    expect(verdictOf(report, 'feat(main): m', 'test-first')?.status).toBe('pass');
  });

  it('a test commit both parallel lines have pairs with a feat on each; verified whole or up to either, the same verdicts (issue 40 item 3)', () => {
    // vite c4e01dc5a, 5da659de9: T on main; side merges main in and adds A; main adds B; side merges into main.
    const repo = repoWithConfig();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('docs: side starts', { 'docs/s.md': 's' });
    repo.git(['checkout', '-q', 'main']);
    repo.commit('test(css): url()', { 'test/css.test.ts': 't' });
    repo.git(['checkout', '-q', 'side']);
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'main']);
    const a = repo.commit('feat(css): url() on side', { 'src/css.ts': 'a' });
    repo.git(['checkout', '-q', 'main']);
    const b = repo.commit('feat(css): url() on main', { 'src/css-main.ts': 'b' });
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
    repo.commit('feat(css): after both', { 'src/css-after.ts': 'c' });
    const whole = verify(repo, ['--from', base]).report;
    for (const [to, header] of [
      [a, 'feat(css): url() on side'],
      [b, 'feat(css): url() on main'],
    ] as const) {
      const upTo = verify(repo, ['--from', base, '--to', to]).report;
      expect(verdictOf(upTo, header, 'test-first')?.status).toBe('pass');
      expect(verdictOf(whole, header, 'test-first'), header).toEqual(verdictOf(upTo, header, 'test-first'));
    }
    // After the merge the test was paired on both lines: it pairs with nothing more.
    expect(verdictOf(whole, 'feat(css): after both', 'test-first')?.status).toBe('fail');
  });

  it('a test commit that was reverted, or that only renames or deletes tests, does not count', () => {
    const repo = repoWithConfig();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('test: a', { 'test/a.test.ts': 'a\n'.repeat(20) });
    repo.git(['revert', '--no-edit', 'HEAD']);
    repo.commit('feat: a', { 'src/a.ts': 'a' });
    repo.commit('test: b', { 'test/b.test.ts': 'b\n'.repeat(20) });
    repo.commit('feat: b', { 'src/b.ts': 'b' });
    repo.git(['mv', 'test/b.test.ts', 'test/b2.test.ts']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'test: rename b']);
    repo.commit('feat: c', { 'src/c.ts': 'c' });
    const { report } = verify(repo, ['--from', base]);
    const revert = report.commits.find((c) => c.header.startsWith('Revert "test: a"'))!;
    expect(revert.verdicts.find((v) => v.rule === 'header')?.status).toBe('skip');
    expect(verdictOf(report, 'feat: a', 'test-first')?.status).toBe('fail');
    expect(verdictOf(report, 'feat: b', 'test-first')?.status).toBe('pass');
    expect(verdictOf(report, 'test: rename b', 'test-first')?.message).toContain('only deletes or renames');
    expect(verdictOf(report, 'feat: c', 'test-first')?.status).toBe('fail');
  });

  it('single-parent "Merge " and "Revert \\"" headers are judged; real merges and reverts are not', () => {
    const repo = repoWithConfig();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit("Merge branch 'x' into main", { 'a.md': 'a' });
    repo.commit('Revert "docs: nothing"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.', {
      'b.md': 'b',
    });
    const { report } = verify(repo, ['--from', base]);
    expect(verdictOf(report, "Merge branch 'x' into main", 'header')?.status).toBe('fail');
    expect(verdictOf(report, 'Revert "docs: nothing"', 'header')?.status).toBe('fail');
  });

  it('headers with leading whitespace or a BOM fail with a clear message; every verdict cites its clause', () => {
    const repo = repoWithConfig();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['commit', '-q', '--no-verify', '--allow-empty', '--cleanup=verbatim', '-m', '  docs: indented']);
    repo.git(['commit', '-q', '--no-verify', '--allow-empty', '-m', '\uFEFFdocs: bom']);
    const { report } = verify(repo, ['--from', base]);
    expect(verdictOf(report, '  docs: indented', 'header')?.message).toContain('starts with whitespace');
    expect(verdictOf(report, '\uFEFFdocs: bom', 'header')?.message).toContain('byte order mark');
    for (const c of report.commits)
      for (const v of c.verdicts)
        if (v.rule === 'header' || v.rule === 'test-first') expect(v.clause, `${c.header} ${v.rule}`).toBeTruthy();
  });

  it('commit.ignore patterns are validated and applied', () => {
    const repo = makeRepo();
    repo.write('.hestai_workspace.yaml', `${CONFIG}commit:\n  ignore: ["^WIP "]\n`);
    repo.commit('chore: config');
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('WIP stuff');
    repo.commit('1.0.1');
    expect(verify(repo, ['--from', base]).status).toBe(0);
    repo.write('.hestai_workspace.yaml', `${CONFIG}commit:\n  ignore: ["(unclosed"]\n`);
    const bad = repo.hestai(['verify', '--from', base]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('commit.ignore');
  });
});

describe('verify --format json and github always report', () => {
  it('json: one document with error when the run fails early (unknown --from, shallow clone)', () => {
    const repo = makeRepo();
    const unknown = verify(repo, ['--from', 'nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.report).toMatchObject({ ok: false, error: { code: 'BAD_REVISION' } });
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    for (let i = 0; i < 3; i++) repo.commit(`docs: ${i}`);
    const clone = path.join(tempDir(), 'clone');
    repo.git(['clone', '-q', '--depth', '1', '--branch', 'feat/x', `file://${repo.dir}`, clone]);
    const shallow = verify(repo, ['--from', 'HEAD~2'], clone);
    expect(shallow.status).toBe(2);
    expect(shallow.report.error?.code).toBe('SHALLOW');
    expect(shallow.report.error?.remedy).toContain('fetch-depth: 0');
  });

  it('github: an ::error annotation whenever it exits non-zero', () => {
    const repo = makeRepo();
    const early = repo.hestai(['verify', '--format', 'github', '--from', 'nope']);
    expect(early.status).toBe(2);
    expect(early.stdout).toMatch(/^::error /m);
    expect(early.stdout).toContain('nope');
    repo.write('.hestai_workspace.yaml', 'tdd: [not, a, mapping]\n');
    const config = repo.hestai(['verify', '--format', 'github']);
    expect(config.status).toBe(2);
    expect(config.stdout).toMatch(/^::error /m);
  });
});

describe('a commit message cannot forge verify input', () => {
  it('separator characters in a message do not create commits or file lists (git stores every byte but NUL)', () => {
    const repo = repoWithConfig();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['checkout', '-q', '-b', 'side']);
    // The old log format: RS opens a record, US separates fields; this message carries a forged `test:` record.
    const forged = `docs: a\n\n\x1e${base}\x1f\x1f2026-01-01T00:00:00Z\x1ftest: forged\x1f\x1f`;
    repo.commit(forged, { 'test/a.test.ts': 'x' });
    repo.git(['checkout', '-q', 'main']);
    repo.commit('feat: f', { 'src/f.ts': 'f' });
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
    const { report } = verify(repo, ['--from', base]);
    const real = repo
      .git(['rev-list', `${base}..HEAD`])
      .stdout.trim()
      .split('\n');
    expect(report.commits.map((c) => c.sha).sort()).toEqual(real.sort());
    expect(report.commits.some((c) => c.header === 'test: forged')).toBe(false);
    expect(verdictOf(report, 'feat: f', 'test-first')?.status).toBe('fail');
    expect(verdictOf(report, 'docs: a', 'header')?.status).toBe('pass');
  });
});
