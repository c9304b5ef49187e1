import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../../src/tdd/glob.js';
import { DEFAULT_TEST_GLOBS } from '../../../src/config/defaults.js';

const globs = [
  ...DEFAULT_TEST_GLOBS,
  'spec/**/*_spec.rb',
  'src/**/*.{test,spec}.ts',
  'a?c/*.js',
  'x/[ab]*.py',
  '*.md',
  'docs/**',
  '*a/x.js',
  'src/*s',
  'src/a**',
  'src/a**/b.ts',
  'x}.js',
  '{src,lib}/a,b.js',
  'a,b.js',
  'a[b.js',
  'x/[a!]*.py',
  'x][ab].js',
];
const paths = [
  'test/a.ts',
  'test/deep/er/a.ts',
  'tests/x.py',
  'src/__tests__/a.js',
  '__tests__/a.js',
  'src/a.test.ts',
  'a.test.ts',
  'lib/b.spec.js',
  'pkg/test_x.py',
  'test_x.py',
  'cmd/x_test.go',
  'x_test.go',
  'src/a.ts',
  'README.md',
  'docs/README.md',
  'src/testing.ts',
  'contest/a.ts',
  'spec/models/user_spec.rb',
  'spec/user_spec.rb',
  'src/a/b.spec.ts',
  'src/a.spec.ts',
  'abc/x.js',
  'abbc/x.js',
  'x/a1.py',
  'x/c1.py',
  '.github/__tests__/x',
  '.hidden/a.test.ts',
  'docs',
  'docs/a/b',
  'a/test/b.ts',
  'test',
  'x.js',
  'ba/x.js',
  'a/b/x.js',
  'src/a/bs',
  'src/bs',
  'src/a/b',
  'src/ab',
  'src/ab/x/b.ts',
  'src/ab/b.ts',
  'x}.js',
  'src/a,b.js',
  'src/a',
  'b.js',
  'lib/a,b.js',
  'a,b.js',
  'a',
  'xb.js',
  'x/!1.py',
  'x/[1.py',
  'x//1.py',
  'a[b.js',
  'x]a.js',
  'x]c.js',
];

describe('globToRegExp', () => {
  it('agrees with picomatch ({dot: true}) on the test globs', () => {
    for (const glob of globs) {
      const ours = globToRegExp(glob);
      const theirs = picomatch(glob, { dot: true });
      for (const file of paths) expect(ours.test(file), `${glob} ~ ${file}`).toBe(theirs(file));
    }
  });

  it('[!...] negates a class as in git and POSIX (picomatch 4 reads it as a literal "!"), like [^...]', () => {
    for (const glob of ['x/[!ab]*.py', 'x/[^ab]*.py']) {
      const re = globToRegExp(glob);
      expect(
        ['x/c1.py', 'x/a1.py', 'x/b.py', 'x/!.py'].map((p) => re.test(p)),
        glob,
      ).toEqual([true, false, false, true]);
    }
  });

  it('"**" next to anything but a slash is a plain "*", as in git\'s wildmatch', () => {
    expect(globToRegExp('**.md').test('README.md')).toBe(true);
    expect(globToRegExp('**.md').test('docs/README.md')).toBe(false);
  });

  it('escapes regular-expression characters in literal parts', () => {
    expect(globToRegExp('a+b(c).ts').test('a+b(c).ts')).toBe(true);
    expect(globToRegExp('a+b(c).ts').test('aab(c)xts')).toBe(false);
  });
});
