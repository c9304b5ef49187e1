import type { TempRepo } from '../helpers/git-repo.js';

/**
 * History fixtures built by script on a real repository (no hooks): each returns the commit to verify from
 * and, per commit header (unique within a fixture), the expected verdict of each rule with the clause that
 * decides it. `test/integration/corpus.test.ts` builds them and runs `hestai verify` on them.
 */
export interface Expected {
  header?: 'pass' | 'fail' | 'warn' | 'skip';
  testFirst?: 'pass' | 'fail' | 'warn' | 'skip';
  /** The header of the test commit a passing feat is paired with. */
  pairedWith?: string;
  /** The clause deciding the verdict. */
  clause: string;
}
export interface HistoryFixture {
  name: string;
  build(repo: TempRepo): { base: string; expected: Record<string, Expected> };
}

const head = (repo: TempRepo) => repo.git(['rev-parse', 'HEAD']).stdout.trim();
const TEST_FIRST = 'docs/design.md §6 (tdd.policy)';

export const HISTORIES: HistoryFixture[] = [
  {
    name: 'parallel branches',
    build(repo) {
      const base = head(repo);
      repo.git(['checkout', '-q', '-b', 'side']);
      repo.commit('test(side): s', { 'packages/side/test/s.test.ts': 's' });
      repo.commit('feat(side): s', { 'packages/side/src/s.ts': 's' });
      repo.commit('feat(side): no test of its own', { 'packages/side/src/t.ts': 't' });
      repo.git(['checkout', '-q', 'main']);
      repo.commit('test(main): m', { 'test/m.test.ts': 'm' });
      repo.commit('feat(main): m', { 'src/m.ts': 'm' });
      repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
      repo.commit('test(after): a', { 'src/__tests__/a.test.ts': 'a' });
      repo.commit('feat(after): a', { 'src/a.ts': 'a' });
      return {
        base,
        expected: {
          'test(side): s': { header: 'pass', testFirst: 'pass', clause: TEST_FIRST },
          'feat(side): s': { header: 'pass', testFirst: 'pass', pairedWith: 'test(side): s', clause: TEST_FIRST },
          'feat(side): no test of its own': { testFirst: 'fail', clause: TEST_FIRST },
          'test(main): m': { testFirst: 'pass', clause: TEST_FIRST },
          'feat(main): m': { testFirst: 'pass', pairedWith: 'test(main): m', clause: TEST_FIRST },
          "Merge branch 'side'": { header: 'skip', testFirst: 'skip', clause: 'real merge (2 parents)' },
          'feat(after): a': { testFirst: 'pass', pairedWith: 'test(after): a', clause: TEST_FIRST },
        },
      };
    },
  },
  {
    name: 'reverts',
    build(repo) {
      const base = head(repo);
      repo.commit('test: a', { 'test/a.test.ts': 'a\n'.repeat(10) });
      const t = head(repo);
      repo.git(['revert', '--no-edit', t]);
      repo.commit('feat: a', { 'src/a.ts': 'a' });
      repo.commit('test: b', { 'test/b.test.ts': 'b\n'.repeat(10) });
      repo.commit('feat: b', { 'src/b.ts': 'b' });
      repo.git(['revert', '--no-edit', 'HEAD']);
      repo.commit('Revert "feat: never existed"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.', {
        'src/c.ts': 'c',
      });
      return {
        base,
        expected: {
          'test: a': { testFirst: 'pass', clause: TEST_FIRST },
          'Revert "test: a"': {
            header: 'skip',
            testFirst: 'skip',
            clause: 'real revert (This reverts commit <sha> resolves)',
          },
          'feat: a': { testFirst: 'fail', clause: `${TEST_FIRST}: its test was reverted before it` },
          'feat: b': { testFirst: 'pass', pairedWith: 'test: b', clause: TEST_FIRST },
          'Revert "feat: b"': { header: 'skip', clause: 'real revert' },
          'Revert "feat: never existed"': {
            header: 'fail',
            clause: 'CC 1.0.0 §1 (the reverted sha does not resolve: not a real revert)',
          },
        },
      };
    },
  },
  {
    name: 'renames and deletions',
    build(repo) {
      const base = head(repo);
      repo.commit('test: add x', { 'tests/x_test.py': 'def test_x():\n    assert True\n'.repeat(5) });
      repo.commit('feat: x', { 'x.py': 'x' });
      repo.git(['mv', 'tests/x_test.py', 'tests/test_x_moved.py']);
      repo.git(['commit', '-q', '--no-verify', '-m', 'test: move x']);
      repo.commit('feat: y after a pure rename', { 'y.py': 'y' });
      repo.git(['rm', '-q', 'tests/test_x_moved.py']);
      repo.git(['commit', '-q', '--no-verify', '-m', 'test: drop x']);
      repo.commit('feat: z after a deletion', { 'z.py': 'z' });
      repo.commit('test: go test', { 'cmd/app/main_test.go': 'package main\n'.repeat(5) });
      repo.git(['mv', 'cmd/app/main_test.go', 'cmd/app/app_test.go']);
      repo.write('cmd/app/app_test.go', `${'package main\n'.repeat(5)}func TestApp() {}\n`);
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '--no-verify', '-m', 'test: move and extend the go test']);
      repo.commit('feat: app', { 'cmd/app/main.go': 'package main' });
      return {
        base,
        expected: {
          'feat: x': { testFirst: 'pass', pairedWith: 'test: add x', clause: TEST_FIRST },
          'test: move x': { testFirst: 'warn', clause: `${TEST_FIRST}: a pure rename does not count` },
          'feat: y after a pure rename': { testFirst: 'fail', clause: TEST_FIRST },
          'test: drop x': { testFirst: 'warn', clause: `${TEST_FIRST}: a deletion does not count` },
          'feat: z after a deletion': { testFirst: 'fail', clause: TEST_FIRST },
          'feat: app': { testFirst: 'pass', clause: TEST_FIRST },
        },
      };
    },
  },
  {
    name: 'release flow',
    build(repo) {
      const base = head(repo);
      repo.git(['checkout', '-q', '-b', 'feature/login']);
      repo.commit('test(auth): login', { 'services/auth/src/test/java/LoginTest.java': 'class LoginTest {}' });
      repo.commit('feat(auth): login', { 'services/auth/src/main/java/Login.java': 'class Login {}' });
      repo.git(['checkout', '-q', 'main']);
      repo.git(['merge', '-q', '--no-ff', '-m', 'Merge pull request #12 from org/feature/login', 'feature/login']);
      repo.commit('0.1.0', { 'package.json': '{"version":"0.1.0"}' });
      repo.git(['tag', 'v0.1.0']);
      repo.commit('chore(release): 0.1.1', { 'CHANGELOG.md': '## 0.1.1' });
      repo.commit('Version Packages', { 'CHANGELOG.md': '## 0.1.2' });
      repo.commit('Merged PR 42: hotfix from Azure DevOps', { 'hotfix.md': 'x' });
      repo.commit('Merge pull request #13 from org/squashed', { 'squashed.md': 'x' });
      repo.commit('Feat(auth): logout', { 'services/auth/src/main/java/Logout.java': 'class Logout {}' });
      return {
        base,
        expected: {
          'feat(auth): login': { testFirst: 'pass', pairedWith: 'test(auth): login', clause: TEST_FIRST },
          'Merge pull request #12 from org/feature/login': { header: 'skip', clause: 'real merge (2 parents)' },
          '0.1.0': { header: 'skip', testFirst: 'skip', clause: 'commit.ignore (built-in: version bump)' },
          'chore(release): 0.1.1': { header: 'skip', clause: 'commit.ignore (built-in: release tool)' },
          'Version Packages': { header: 'skip', clause: 'commit.ignore (built-in: changesets)' },
          'Merged PR 42: hotfix from Azure DevOps': {
            header: 'fail',
            clause: 'CC 1.0.0 §1 (single parent: a merge bot header is no exemption)',
          },
          'Merge pull request #13 from org/squashed': {
            header: 'fail',
            clause: 'CC 1.0.0 §1 (single parent: not a real merge)',
          },
          'Feat(auth): logout': {
            header: 'pass',
            testFirst: 'fail',
            clause: 'CC 1.0.0 §15 (type is case-insensitive, so it is a feat); docs/design.md §6',
          },
        },
      };
    },
  },
];
