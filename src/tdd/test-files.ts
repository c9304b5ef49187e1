import { globToRegExp } from './glob.js';

/** A predicate telling whether a repository path is a test file, per `tdd.test_globs`. */
export function testFileMatcher(globs: readonly string[]): (file: string) => boolean {
  const patterns = globs.map(globToRegExp);
  return (file) => patterns.some((re) => re.test(file));
}
