import { describe, expect, it } from 'vitest';
import { DEFAULTS, DEFAULT_TEST_GLOBS } from '../../../src/config/defaults.js';
import { commitFacts, type FileChange } from '../../../src/tdd/commit.js';
import { testFileMatcher } from '../../../src/tdd/test-files.js';

// Issue 40 item 5: the default test globs match the layouts people use.
describe('default tdd.test_globs', () => {
  const isTest = testFileMatcher(DEFAULT_TEST_GLOBS);
  it.each([
    ['*_spec.*', 'packages/angular/src/app.component_spec.ts'],
    ['*_spec.* (RSpec)', 'spec/models/user_spec.rb'],
    ['*.spec.*', 'src/a.spec.ts'],
    ['__tests__/', 'src/__tests__/a.ts'],
    ['__tests_*__/', 'packages/vite/src/node/__tests_dts__/plugin.ts'],
    ['tests/', 'tests/helpers.py'],
    ['test/', 'lib/test/helpers.js'],
    ['spec/', 'spec/support/env.rb'],
    ['*_test.go', 'pkg/json_test.go'],
    ['test_*.py', 'test_conf.py'],
    ['*_test.py', 'conf_test.py'],
    ['Rust tests/', 'crates/core/tests/it.rs'],
  ])('%s: %s is a test file', (_glob, file) => expect(isTest(file)).toBe(true));
  it.each(['src/spectrum.ts', 'src/specs.ts', 'src/app.ts', 'pkg/json/testdata/case.json', 'fixtures/a.json'])(
    '%s is not',
    (file) => expect(isTest(file)).toBe(false),
  );
  it("Rust's inline #[cfg(test)] modules are the default inline rule", () => {
    const [rule] = DEFAULTS.tdd.inline_tests;
    expect(rule!.files).toBe('**/*.rs');
    expect(new RegExp(rule!.start).test('#[cfg(test)]')).toBe(true);
  });
});

// Fixture folders tests read count as tests only with a test file of the same commit or package.
describe('default tdd.fixture_globs', () => {
  const isTest = testFileMatcher(DEFAULT_TEST_GLOBS);
  const isFixture = testFileMatcher(DEFAULTS.tdd.fixture_globs);
  const facts = (paths: string[], fixtureHomes?: string[]) =>
    commitFacts(
      {
        sha: 's',
        message: 'test(json): a golden case',
        files: [],
        changes: paths.map((path): FileChange => ({ status: 'A', path })),
        parents: ['p'],
        ...(fixtureHomes ? { fixtureHomes: new Set(fixtureHomes) } : {}),
      },
      isTest,
      { isFixture },
    );

  it.each(['pkg/json/testdata/case.json', 'fixtures/a.json', '.github/fixtures/new/expected.md'])(
    '%s is a fixture file',
    (file) => expect(isFixture(file)).toBe(true),
  );

  it('a fixture alone is no test file; it lists as a fixture that did not count', () => {
    const f = facts(['pkg/json/testdata/case.json']);
    expect(f.testFiles).toEqual([]);
    expect(f.fixtureFiles).toEqual(['pkg/json/testdata/case.json']);
  });

  it('with a test file in the same commit, the fixture counts as a test file', () => {
    const f = facts(['pkg/json/testdata/case.json', 'pkg/json/json_test.go']);
    expect(f.testFiles.sort()).toEqual(['pkg/json/json_test.go', 'pkg/json/testdata/case.json']);
    expect(f.fixtureFiles).toEqual([]);
  });

  it("with a test file in its package (the folder holding the fixture folder, read from git's tree), it counts", () => {
    expect(facts(['pkg/json/testdata/a/case.json'], ['pkg/json']).testFiles).toEqual(['pkg/json/testdata/a/case.json']);
    expect(facts(['pkg/json/testdata/case.json'], ['pkg/yaml']).testFiles).toEqual([]);
  });
});
