import picomatch from 'picomatch';

/** A predicate telling whether a repository path is a test file, per `tdd.test_globs`. */
export function testFileMatcher(globs: readonly string[]): (file: string) => boolean {
  return picomatch([...globs], { dot: true });
}
