import { parseConventionalHeader, type ConventionalHeader } from './header.js';
import { messageHeader } from './message.js';
import { lastTrailer, parseTrailers, type Trailer } from './trailers.js';

/** Everything the commit rules need to know about one commit, as plain data. */
export interface CommitFacts {
  sha: string;
  header: string;
  conventional: ConventionalHeader | null;
  /** Merges, reverts and fixup!/squash!/amend! commits are not judged by the test-first rule. */
  kind: 'merge' | 'revert' | 'fixup' | 'normal';
  /** Changed paths matching the test globs. */
  testFiles: string[];
  /** The reason of a `TDD-Exempt:` trailer, or null. */
  exemption: string | null;
  trailers: Trailer[];
}

export interface CommitInput {
  sha: string;
  /** The cleaned message (as stored in the commit). */
  message: string;
  /** Changed paths (relative to the first parent). */
  files: readonly string[];
  /** Number of parents (2 or more is a merge). */
  parents: number;
}

/** Pure: classifies a commit for the rules. */
export function commitFacts(input: CommitInput, isTestFile: (file: string) => boolean): CommitFacts {
  const header = messageHeader(input.message.trim());
  const conventional = parseConventionalHeader(header);
  const trailers = parseTrailers(input.message);
  const exempt = lastTrailer(trailers, 'TDD-Exempt');
  let kind: CommitFacts['kind'] = 'normal';
  if (input.parents > 1 || /^Merge /.test(header)) kind = 'merge';
  else if (/^Revert "/.test(header) || conventional?.type === 'revert') kind = 'revert';
  else if (/^(fixup|squash|amend)! /.test(header)) kind = 'fixup';
  return {
    sha: input.sha,
    header,
    conventional,
    kind,
    testFiles: input.files.filter(isTestFile),
    exemption: exempt === null || exempt.trim() === '' ? null : exempt.trim(),
    trailers,
  };
}
