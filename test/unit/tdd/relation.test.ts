import { describe, expect, it } from 'vitest';
import { commitFacts, type CommitFacts } from '../../../src/tdd/commit.js';
import { packageKey, testRelation } from '../../../src/tdd/relation.js';
import { evaluateTestFirst, type TddOptions } from '../../../src/tdd/rule.js';
import { testFileMatcher } from '../../../src/tdd/test-files.js';
import { DEFAULT_TEST_GLOBS } from '../../../src/config/defaults.js';

const isTest = testFileMatcher(DEFAULT_TEST_GLOBS);
const commit = (sha: string, header: string, files: string[], parents: string[] = []): CommitFacts =>
  commitFacts({ sha, message: header, files, parents }, isTest);
const paired: TddOptions = { policy: 'paired', types: ['feat'] };
const sameCommit: TddOptions = { policy: 'same-commit', types: ['feat'] };

describe('packageKey: the part of the tree a path belongs to', () => {
  it('is the first directory that is not a source, test or workspace folder', () => {
    expect(packageKey('src/tdd/rule.ts')).toBe('tdd');
    expect(packageKey('test/unit/tdd/rule.test.ts')).toBe('tdd');
    expect(packageKey('packages/cli/src/index.ts')).toBe('cli');
    expect(packageKey('packages/cli/test/index.test.ts')).toBe('cli');
    expect(packageKey('crates/parser/tests/it.rs')).toBe('parser');
    expect(packageKey('pkg/release/release_test.go')).toBe('release');
    expect(packageKey('src/main.rs')).toBe('');
    expect(packageKey('tests/cli.rs')).toBe('');
    expect(packageKey('README.md')).toBe('');
  });
});

describe('testRelation: a test commit relates to a feat only through what both touch', () => {
  it('relates by equal scope, by a shared package, or by the tested file name', () => {
    const feat = commit('f', 'feat(cli): --json', ['packages/cli/src/json.ts']);
    expect(testRelation(commit('t', 'test(cli): x', ['test/other.test.ts']), feat)).toBe('same scope (cli)');
    expect(testRelation(commit('t', 'test: x', ['packages/cli/test/a.test.ts']), feat)).toBe(
      'tests in package cli, which it changes',
    );
    expect(testRelation(commit('t', 'test: x', ['test/json.test.ts']), feat)).toBe('tests json.ts, which it changes');
    expect(testRelation(commit('t', 'test(parser): x', ['packages/parser/test/a.test.ts']), feat)).toBeNull();
    // A test named after several things (runtime-codex.test.ts) tests each of them.
    expect(
      testRelation(
        commit('t', 'test(runtimes): codex', ['test/e2e/runtime-codex.test.ts']),
        commit('f', 'feat(agent): codex', ['src/agent/adapters/codex.ts']),
      ),
    ).toBe('tests codex.ts, which it changes');
  });
});

describe('test-first pairs only related test commits', () => {
  it('policy paired: the previous test commit alone is not enough when it tests something else', () => {
    const verdicts = evaluateTestFirst(
      [
        commit('t1', 'test(parser): rejects tabs', ['packages/parser/test/tabs.test.ts']),
        commit('f1', 'feat(cli): --json', ['packages/cli/src/json.ts'], ['t1']),
      ],
      paired,
    );
    expect(verdicts[1]!.status).toBe('fail');
    expect(verdicts[1]!.message).toContain('t1 "test(parser): rejects tabs"');
    expect(verdicts[1]!.message).toMatch(/relate/);
  });

  it('a pass records each pairing with its relation; an unrelated test stays for a later feat', () => {
    const verdicts = evaluateTestFirst(
      [
        commit('t1', 'test(parser): rejects tabs', ['packages/parser/test/tabs.test.ts']),
        commit('t2', 'test(cli): --json', ['packages/cli/test/json.test.ts'], ['t1']),
        commit('f1', 'feat(cli): --json', ['packages/cli/src/json.ts'], ['t2']),
        commit('f2', 'feat(parser): rejects tabs', ['packages/parser/src/tabs.ts'], ['f1']),
      ],
      paired,
    );
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(verdicts[2]!.pairedWith).toEqual(['t2']);
    expect(verdicts[2]!.pairings).toEqual([{ sha: 't2', header: 'test(cli): --json', relation: 'same scope (cli)' }]);
    expect(verdicts[3]!.pairedWith).toEqual(['t1']);
  });

  it('policy same-commit: a feat that adds a test file passes, whatever it is named; the relation pairs separate test commits', () => {
    const own = evaluateTestFirst(
      [commit('f', 'feat(cli): --json', ['packages/cli/src/json.ts', 'packages/cli/test/json.test.ts'])],
      sameCommit,
    );
    expect(own[0]!.status).toBe('pass');
    expect(own[0]!.message).toContain('packages/cli/test/json.test.ts');
    expect(own[0]!.message).toContain('same-commit');
    const other = evaluateTestFirst(
      [commit('f', 'feat(cli): --json', ['packages/cli/src/json.ts', 'packages/parser/test/a.test.ts'])],
      sameCommit,
    );
    expect(other[0]!.status).toBe('pass');
    const separate = evaluateTestFirst(
      [
        commit('t', 'test(cli): --json', ['packages/cli/test/json.test.ts']),
        commit('f', 'feat(cli): --json', ['packages/cli/src/json.ts'], ['t']),
      ],
      sameCommit,
    );
    expect(separate[1]!.status).toBe('pass');
    // Under the default policy a feat's own test is not a preceding test commit.
    expect(
      evaluateTestFirst(
        [commit('f', 'feat(cli): --json', ['packages/cli/src/json.ts', 'packages/cli/test/json.test.ts'])],
        paired,
      )[0]!.status,
    ).toBe('fail');
  });
});
