import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { runHook } from '../helpers/session-fixture.js';

// Issue 40 item 5: fixture folders (tdd.fixture_globs: testdata/, fixtures/) count as tests only together
// with a test file of the same commit or of the same package (in the commit's tree).

interface Verdict {
  rule: string;
  status: string;
  message: string;
}
interface Report {
  commits: { header: string; verdicts: Verdict[] }[];
}
const testFirst = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'test-first');

function goRepo(): { repo: TempRepo; base: string } {
  const repo = makeRepo();
  repo.write('.hestai_workspace.yaml', 'verify:\n  trailers: off\n  anchors: off\n');
  const base = repo.commit('chore: a Go package with its test', {
    'pkg/json/json.go': 'package json\n',
    'pkg/json/json_test.go': 'package json\n',
  });
  return { repo, base };
}

describe('fixture files count as tests only beside a test file', () => {
  it('verify: a golden file in a package with tests is a test commit; a fixture folder with no test beside it is not, and the failure names it', () => {
    const { repo, base } = goRepo();
    repo.commit('test(json): a golden case', { 'pkg/json/testdata/case.json': '{}\n' });
    repo.commit('feat(json): read the case', { 'pkg/json/json.go': 'package json // 2\n' });
    repo.commit('test(cliff): a fixture', { '.github/fixtures/new/expected.md': 'x\n' });
    repo.commit('feat(cliff): render it', { 'src/cliff.rs': 'fn main() {}\n' });
    const run = repo.hestai(['verify', '--format', 'json', '--from', base]);
    const report = JSON.parse(run.stdout) as Report;
    expect(testFirst(report, 'test(json): a golden case')?.status).toBe('pass');
    expect(testFirst(report, 'feat(json): read the case')?.status).toBe('pass');
    expect(testFirst(report, 'test(cliff): a fixture')?.status).toBe('warn');
    expect(testFirst(report, 'test(cliff): a fixture')?.message).toContain('.github/fixtures/new/expected.md');
    const failed = testFirst(report, 'feat(cliff): render it')!;
    expect(failed.status).toBe('fail');
    expect(failed.message).toContain('"test(cliff): a fixture" (.github/fixtures/new/expected.md)');
    expect(failed.message).toContain('count only with a test file in the same commit or package');
  });

  it('commit-msg: a test commit staging only a golden file in a package with tests gets no warning; a lone fixture does', () => {
    const { repo } = goRepo();
    const hook = (message: string) => {
      const file = path.join(repo.dir, 'COMMIT_MSG_TEST');
      fs.writeFileSync(file, message);
      const result = runHook('commit-msg', repo.dir, repo.env, ['COMMIT_MSG_TEST']);
      fs.rmSync(file);
      return result;
    };
    repo.write('pkg/json/testdata/case.json', '{}\n');
    repo.git(['add', '.']);
    expect(hook('test(json): a golden case\n').stderr).not.toContain('warning');
    repo.git(['reset', '-q']);
    fs.rmSync(path.join(repo.dir, 'pkg/json/testdata'), { recursive: true });
    repo.write('.github/fixtures/new/expected.md', 'x\n');
    repo.git(['add', '.']);
    const lone = hook('test(cliff): a fixture\n');
    expect(lone.stderr).toContain('warning');
    expect(lone.stderr).toContain('.github/fixtures/new/expected.md');
  });
});
