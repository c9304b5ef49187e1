import { describe, expect, it } from 'vitest';
import { commitFacts, revertedSha } from '../../../src/tdd/commit.js';
import { testFileMatcher } from '../../../src/tdd/test-files.js';
import { DEFAULT_TEST_GLOBS } from '../../../src/config/defaults.js';

const isTest = testFileMatcher(DEFAULT_TEST_GLOBS);

describe('testFileMatcher', () => {
  it('matches the default test globs', () => {
    for (const file of [
      'test/a.ts',
      'tests/x/y.py',
      'src/__tests__/a.js',
      'src/a.test.ts',
      'lib/b.spec.js',
      'pkg/test_x.py',
      'cmd/x_test.go',
      '.github/__tests__/x',
    ]) {
      expect(isTest(file), file).toBe(true);
    }
    for (const file of ['src/a.ts', 'README.md', 'src/testing.ts', 'contest/a.ts', 'src/test.ts']) {
      expect(isTest(file), file).toBe(false);
    }
  });

  it('counts tests where languages keep them: TypeScript type tests (*.test-d.ts, *.spec-d.ts); Go testdata/ is a fixture folder (tdd.fixture_globs), no test glob', () => {
    for (const file of ['src/types.test-d.ts', 'src/x.spec-d.mts']) expect(isTest(file), file).toBe(true);
    for (const file of ['pkg/parse/testdata/golden.txt', 'testdata/a.json', 'src/testdata.go'])
      expect(isTest(file), file).toBe(false);
  });

  it('uses custom globs', () => {
    const m = testFileMatcher(['spec/**/*.rb']);
    expect(m('spec/models/user_spec.rb')).toBe(true);
    expect(m('test/a.ts')).toBe(false);
  });
});

describe('commitFacts', () => {
  it('classifies a conventional commit and its test files', () => {
    const facts = commitFacts(
      { sha: 'a1', message: 'test(cli): failing\n\nbody', files: ['test/cli.test.ts', 'README.md'], parents: 1 },
      isTest,
    );
    expect(facts).toMatchObject({
      sha: 'a1',
      header: 'test(cli): failing',
      kind: 'normal',
      conventional: { type: 'test', scope: 'cli' },
      testFiles: ['test/cli.test.ts'],
      exemption: null,
    });
  });

  it('recognises merges, reverts and fixup/squash/amend commits', () => {
    expect(commitFacts({ sha: 'm', message: 'Merge branch x', files: [], parents: 2 }, isTest).kind).toBe('merge');
    expect(
      commitFacts(
        {
          sha: 'r',
          message: 'Revert "feat: x"\n\nThis reverts commit abc1234.',
          files: [],
          parents: 1,
          reverts: 'abc1234'.padEnd(40, '0'),
        },
        isTest,
      ).kind,
    ).toBe('revert');
    // Only real merges and reverts: one parent, or a revert line naming no commit of the repository, is a normal commit.
    expect(commitFacts({ sha: 'm1', message: 'Merge branch x', files: [], parents: 1 }, isTest).kind).toBe('normal');
    expect(
      commitFacts(
        { sha: 'r1', message: 'Revert "feat: x"\n\nThis reverts commit abc1234.', files: [], parents: 1 },
        isTest,
      ).kind,
    ).toBe('normal');
    expect(commitFacts({ sha: 'r2', message: 'revert: feat x', files: [], parents: 1 }, isTest).kind).toBe('normal');
    expect(commitFacts({ sha: 'f', message: 'fixup! feat: x', files: [], parents: 1 }, isTest).kind).toBe('fixup');
    expect(commitFacts({ sha: 's', message: 'squash! feat: x', files: [], parents: 1 }, isTest).kind).toBe('fixup');
    expect(commitFacts({ sha: 'a', message: 'amend! feat: x', files: [], parents: 1 }, isTest).kind).toBe('fixup');
  });

  it('reads the TDD-Exempt trailer; an empty reason is no exemption', () => {
    expect(
      commitFacts({ sha: 'e', message: 'feat: gen\n\nTDD-Exempt: generated client', files: [], parents: 1 }, isTest)
        .exemption,
    ).toBe('generated client');
    expect(
      commitFacts({ sha: 'e', message: 'feat: gen\n\nTDD-Exempt:   ', files: [], parents: 1 }, isTest).exemption,
    ).toBeNull();
  });

  it('keeps a non-conventional header with conventional null', () => {
    const facts = commitFacts({ sha: 'n', message: 'add stuff', files: ['a'], parents: 1 }, isTest);
    expect(facts.conventional).toBeNull();
    expect(facts.kind).toBe('normal');
  });

  it('a fixup!/squash!/amend! marker counts only at the start of the header', () => {
    expect(commitFacts({ sha: 'f', message: 'feat: undo fixup! x', files: [], parents: 1 }, isTest).kind).toBe(
      'normal',
    );
    expect(commitFacts({ sha: 'f', message: 'fixup!x', files: [], parents: 1 }, isTest).kind).toBe('normal');
  });

  it("revertedSha reads only a line that starts with git revert's sentence", () => {
    expect(revertedSha('Revert "x"\n\nThis reverts commit abcdef1.')).toBe('abcdef1');
    expect(revertedSha('docs: x\n\nas git says, This reverts commit abcdef1.')).toBeNull();
    expect(revertedSha('Revert "x"\n\nThis reverts commit abcdef.')).toBeNull();
  });

  it('separates the test files a commit adds, modifies or copies from those it only deletes or renames', () => {
    const facts = commitFacts(
      {
        sha: 'c',
        message: 'test: reshuffle',
        files: [],
        changes: [
          { status: 'A', path: 'test/new.test.ts' },
          { status: 'M', path: 'test/old.test.ts' },
          { status: 'C', path: 'test/copy.test.ts', score: 100 },
          { status: 'D', path: 'test/gone.test.ts' },
          { status: 'R', path: 'test/moved.test.ts', score: 100 },
          { status: 'R', path: 'test/edited.test.ts', score: 90 },
          { status: 'A', path: 'src/a.ts' },
        ],
        parents: ['p'],
      },
      isTest,
    );
    expect(facts.testFiles).toEqual([
      'test/new.test.ts',
      'test/old.test.ts',
      'test/copy.test.ts',
      'test/edited.test.ts',
    ]);
    expect(facts.testFilesRemoved).toEqual(['test/gone.test.ts', 'test/moved.test.ts']);
    expect(facts.parents).toEqual(['p']);
    expect(facts.parentCount).toBe(1);
  });

  it('the body is separated when the second line is empty or only whitespace', () => {
    const sep = (message: string) => commitFacts({ sha: 'b', message, files: [], parents: 1 }, isTest).bodySeparated;
    expect(sep('feat: x')).toBe(true);
    expect(sep('feat: x\n\nbody')).toBe(true);
    expect(sep('feat: x\n \t\nbody')).toBe(true);
    expect(sep('feat: x\nbody')).toBe(false);
  });
});
