import { describe, expect, it } from 'vitest';
import { makeRepo, verifyFeatInFreshClone, type TempRepo } from '../helpers/git-repo.js';

// Issue 40 item 4: under tdd.policy same-commit a feat with a test file in it passes; every test-first failure
// names the test files it considered, in the commit and in its pairing window, and why each did not count.
interface Report {
  commits: { header: string; verdicts: { rule: string; status: string; message: string }[] }[];
}

function repoWith(policy: string): TempRepo {
  const repo = makeRepo();
  repo.commit('chore: config', {
    '.hestai_workspace.yaml': `tdd:\n  policy: ${policy}\nverify:\n  trailers: off\n  anchors: off\n`,
    'commitizen/config.py': 'x = 1\n',
  });
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  return repo;
}

const verifyClone = (repo: TempRepo) => verifyFeatInFreshClone<Report>(repo);

const testFirst = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'test-first');

describe('tdd.policy same-commit sees the test in the commit', () => {
  it('a feat that changes a test file the globs match passes, whatever the test is named', () => {
    const repo = repoWith('same-commit');
    repo.commit('feat: read pyproject.toml', {
      'commitizen/config.py': 'x = 2\n',
      'tests/test_conf.py': 'def test_pyproject(): pass\n',
    });
    const { status, report } = verifyClone(repo);
    expect(testFirst(report, 'feat: read pyproject.toml')?.status).toBe('pass');
    expect(testFirst(report, 'feat: read pyproject.toml')?.message).toContain('tests/test_conf.py');
    expect(status).toBe(0);
  });

  it('a failure names the test files of the commit and of its pairing window, and why each did not count', () => {
    const repo = repoWith('paired');
    repo.commit('test(docs): the guide renders', { 'docs/test/guide.test.ts': 'x\n' });
    repo.commit('feat(config): read pyproject.toml', {
      'commitizen/config.py': 'x = 2\n',
      'tests/test_conf.py': 'def test_pyproject(): pass\n',
    });
    const { status, report } = verifyClone(repo);
    expect(status).toBe(1);
    const message = testFirst(report, 'feat(config): read pyproject.toml')?.message ?? '';
    expect(message).toContain('tests/test_conf.py');
    expect(message).toContain('same-commit');
    expect(message).toContain('docs/test/guide.test.ts');
    expect(message).toContain('test(docs): the guide renders');
  });

  it('a failure whose files verify read only to report it still names the test file in the commit', () => {
    const repo = repoWith('paired');
    repo.commit('feat(config): read pyproject.toml', {
      'commitizen/config.py': 'x = 2\n',
      'tests/test_conf.py': 'def test_pyproject(): pass\n',
    });
    const { report } = verifyClone(repo);
    expect(testFirst(report, 'feat(config): read pyproject.toml')?.message).toContain('tests/test_conf.py');
  });

  it('a failure with no test file anywhere says so', () => {
    const repo = repoWith('same-commit');
    repo.commit('feat: read pyproject.toml', { 'commitizen/config.py': 'x = 2\n' });
    const { status, report } = verifyClone(repo);
    expect(status).toBe(1);
    expect(testFirst(report, 'feat: read pyproject.toml')?.message).toContain('no test file');
  });
});
