import { parseConventionalHeader, type ConventionalHeader } from './header.js';
import { ignoredBy, type IgnoreRule } from './ignore.js';
import { messageHeader } from './message.js';
import { lastTrailer, parseTrailers, type Trailer } from './trailers.js';

/** One changed path of a commit, as `git log --name-status` reports it against the first parent. */
export interface FileChange {
  /** `A`dded, `M`odified, `D`eleted, `T`ype changed, `R`enamed, `C`opied. */
  status: 'A' | 'M' | 'D' | 'T' | 'R' | 'C';
  path: string;
  /** The old path of a rename or copy. */
  from?: string;
  /** Similarity of a rename or copy (100 = same content). */
  score?: number;
}

/** Everything the commit rules need to know about one commit, as plain data. */
export interface CommitFacts {
  sha: string;
  /** The first line of the stored message, byte for byte. */
  header: string;
  conventional: ConventionalHeader | null;
  /**
   * Not judged by the header and test-first rules: real merges (2+ parents), real reverts (a
   * `This reverts commit <sha>` line resolving in the repository), fixup!/squash!/amend! commits, and
   * headers matched by `commit.ignore`.
   */
  kind: 'merge' | 'revert' | 'fixup' | 'ignored' | 'normal';
  /** The shas of the parents (those outside the range included); null when only their number is known (a linear list). */
  parents: string[] | null;
  parentCount: number;
  /** The commit a real revert reverts (resolved), or null. */
  reverts: string | null;
  /** The `commit.ignore` pattern that matched the header, or null. */
  ignoredBy: string | null;
  /** Test files (tdd.test_globs) the commit adds or modifies: what makes a `test` commit count. */
  testFiles: string[];
  /** Test files it only deletes or renames without changing them. */
  testFilesRemoved: string[];
  /**
   * Fixture files (`tdd.fixture_globs`) it adds or changes that did not count as test files: no test file in
   * the same commit, nor in the fixture's package in the commit's tree.
   */
  fixtureFiles: string[];
  /** Every path it changes (added, modified, deleted, renamed: the new path): what its test must relate to. */
  paths: string[];
  /** The old paths of its renames and copies: with `paths`, every path a release tool's header must leave to release files. */
  sources?: string[];
  /** Source files it changes both inside and outside an inline test region: test files and code at once. */
  mixedFiles: string[];
  /** For an `amend!` commit: the header of its replacement message (the first line after the blank line), or null. */
  amendHeader: string | null;
  /** The second line of the message is empty (or there is none): the body is separated from the header. */
  bodySeparated: boolean;
  /** The reason of a `TDD-Exempt:` trailer, or null. */
  exemption: string | null;
  trailers: Trailer[];
}

export interface CommitInput {
  sha: string;
  /** The stored (cleaned) message. */
  message: string;
  /** Changed paths relative to the first parent; each counts as modified when `changes` is absent. */
  files: readonly string[];
  /** Changed paths with their status (from `git log --name-status -M`). */
  changes?: readonly FileChange[];
  /** The parents' shas, or their number. */
  parents: number | readonly string[];
  /** What this commit's `This reverts commit <sha>` line resolves to in the repository (null: not a real revert). */
  reverts?: string | null;
  /** Source files whose change lies (partly) inside inline test regions (src/tdd/inline-tests.ts). */
  inline?: { tests: readonly string[]; mixed: readonly string[] };
  /** `parseTrailers` of the message, when the caller already has it (verify parses a batch's ahead of judging it). */
  trailers?: Trailer[];
  /** The packages ({@link fixtureHome}) of its fixture files that hold a test file in the commit's tree (read by the caller). */
  fixtureHomes?: ReadonlySet<string>;
}

export interface FactOptions {
  /** Headers not judged (`commit.ignore` plus the defaults). */
  ignore?: readonly IgnoreRule[];
  /** Fixture files (`tdd.fixture_globs`): tests only beside a test file of the same commit or package. */
  isFixture?: (file: string) => boolean;
}

/**
 * Pure: the package of a fixture file: the folder holding its outermost fixture folder
 * (`pkg/json/testdata/a/b.json` → `pkg/json`; `fixtures/a.json` → the root, `''`).
 */
export function fixtureHome(path: string, isFixture: (file: string) => boolean): string {
  const dirs = path.split('/').slice(0, -1);
  let home = dirs.length;
  // `_` stands for any file in the folder: a folder is a fixture folder when its files match.
  while (home > 0 && isFixture(`${dirs.slice(0, home).join('/')}/_`)) home--;
  return dirs.slice(0, home).join('/');
}

/** Pure: the packages of fixture files, each once. */
export function fixtureHomes(files: readonly string[], isFixture: (file: string) => boolean): string[] {
  return [...new Set(files.map((f) => fixtureHome(f, isFixture)))];
}

/** Pure: which of `homes` hold a test file among `files` (paths of a tree; `''` holds every path). */
export function homesWithTests(
  homes: readonly string[],
  files: readonly string[],
  isTest: (file: string) => boolean,
): Set<string> {
  const tests = files.filter(isTest);
  return new Set(homes.filter((h) => tests.some((t) => h === '' || t.startsWith(`${h}/`))));
}

/** Pure: the sha named by a `This reverts commit <sha>` line git writes for `git revert`, or null. */
export function revertedSha(message: string): string | null {
  return /^This reverts commit ([0-9a-f]{7,64})\b/m.exec(message)?.[1] ?? null;
}

/**
 * Pure: the header of an `amend!` commit's replacement message (the paragraph after the first blank line),
 * or null when there is none: no body, or only the trailer block the hooks append.
 */
function replacementHeader(message: string, hasTrailers: boolean): string | null {
  const paragraphs = message.split(/\n[ \t]*\n/);
  if (paragraphs.length < 2) return null;
  if (paragraphs.length === 2 && hasTrailers) return null;
  return paragraphs[1]!.split('\n', 1)[0]!;
}

/** A change that adds or modifies content: not a deletion and not a pure rename. */
function addsOrModifies(change: FileChange): boolean {
  if (change.status === 'D') return false;
  if (change.status === 'R') return (change.score ?? 0) < 100;
  return true;
}

/** Pure: classifies a commit for the rules. */
export function commitFacts(
  input: CommitInput,
  isTestFile: (file: string) => boolean,
  options: FactOptions = {},
): CommitFacts {
  const message = input.message.replace(/\n+$/, '');
  const header = messageHeader(message);
  const conventional = parseConventionalHeader(header);
  const trailers = input.trailers ?? parseTrailers(message);
  const exempt = lastTrailer(trailers, 'TDD-Exempt');
  const parents = typeof input.parents === 'number' ? null : [...input.parents];
  const parentCount = typeof input.parents === 'number' ? input.parents : input.parents.length;
  const reverts = input.reverts ?? null;
  const changes = input.changes ?? input.files.map((path): FileChange => ({ status: 'M', path }));
  const paths = changes.map((c) => c.path);
  // a rename's or copy's old path counts too: `git mv src/a.js CHANGELOG.md` deletes code (src/tdd/ignore.ts)
  const sources = changes.flatMap((c) => (c.from === undefined ? [] : [c.from]));
  const ignored = options.ignore ? ignoredBy(header, options.ignore, [...paths, ...sources]) : null;
  let kind: CommitFacts['kind'] = 'normal';
  if (parentCount > 1) kind = 'merge';
  else if (reverts !== null) kind = 'revert';
  else if (/^(fixup|squash|amend)! /.test(header)) kind = 'fixup';
  else if (ignored !== null) kind = 'ignored';
  const tests = changes.filter((c) => isTestFile(c.path));
  const testFiles = [...tests.filter(addsOrModifies).map((c) => c.path), ...(input.inline?.tests ?? [])];
  const isFixture = options.isFixture;
  const fixtures =
    isFixture === undefined
      ? []
      : changes.filter((c) => addsOrModifies(c) && !isTestFile(c.path) && isFixture(c.path)).map((c) => c.path);
  const counts = (f: string) => testFiles.length > 0 || input.fixtureHomes?.has(fixtureHome(f, isFixture!)) === true;
  const second = message.split('\n', 2)[1];
  return {
    sha: input.sha,
    header,
    conventional,
    kind,
    parents,
    parentCount,
    reverts,
    ignoredBy: ignored,
    testFiles: [...testFiles, ...fixtures.filter(counts)],
    testFilesRemoved: tests.filter((c) => !addsOrModifies(c)).map((c) => c.path),
    fixtureFiles: fixtures.filter((f) => !counts(f)),
    paths,
    sources,
    mixedFiles: [...(input.inline?.mixed ?? [])],
    amendHeader: header.startsWith('amend! ') ? replacementHeader(message, trailers.length > 0) : null,
    bodySeparated: second === undefined || second.trim() === '',
    exemption: exempt === null || exempt.trim() === '' ? null : exempt.trim(),
    trailers,
  };
}
