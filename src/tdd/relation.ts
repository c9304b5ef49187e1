import type { CommitFacts } from './commit.js';

/**
 * When a test commit relates to the commit it would pair with (docs/enforcement.md, "Which test commit
 * pairs"): pure, from the two commits' headers and changed paths.
 */

/** Folders that hold sources, tests or workspaces rather than name a part of the project. */
const GENERIC = new Set([
  'src',
  'source',
  'sources',
  'lib',
  'libs',
  'test',
  'tests',
  'spec',
  'specs',
  '__tests__',
  '__mocks__',
  'testdata',
  'testing',
  'unit',
  'integration',
  'e2e',
  'fixtures',
  'packages',
  'apps',
  'crates',
  'modules',
  'internal',
  'pkg',
  'cmd',
  'main',
  'java',
  'kotlin',
  'scala',
  'resources',
]);

/** Pure: the package a path belongs to: its first folder that is not a generic one (`''`: the root package). */
export function packageKey(path: string): string {
  const dirs = path.split('/').slice(0, -1);
  return dirs.find((d) => !GENERIC.has(d.toLowerCase())) ?? '';
}

/** File names too common to tie a test to a file by name alone. */
const COMMON_NAMES = new Set(['index', 'mod', 'main', 'lib', 'init', '__init__', 'utils', 'util', 'types', 'conftest']);

/** Pure: what a file is named after, test markers removed (`json.test.ts`, `test_json.py`, `json_test.go` → `json`). */
export function testedName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = base.replace(/\..*$/, '');
  return stem
    .replace(/^test_/, '')
    .replace(/(?:_test|_spec|Test|Tests|Spec)$/, '')
    .toLowerCase();
}

const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The paths a commit changes that are not test files: what a test must be about. */
export function subjectPaths(commit: CommitFacts): string[] {
  const tests = new Set([...commit.testFiles, ...commit.testFilesRemoved]);
  for (const m of commit.mixedFiles) tests.delete(m); // code and its inline test: a subject too
  const subjects = commit.paths.filter((p) => !tests.has(p));
  // Documentation last: a relation through code is the one worth naming.
  const doc = (p: string) => /(?:^|\/)docs?\/|\.(?:md|mdx|rst|txt|adoc)$/i.test(p);
  return [...subjects.filter((p) => !doc(p)), ...subjects.filter(doc)];
}

/** The folders of a path that name a part of the project (generic ones left out), lower case. */
function folders(path: string): string[] {
  return path
    .split('/')
    .slice(0, -1)
    .map((d) => d.toLowerCase())
    .filter((d) => !GENERIC.has(d));
}

/** What a test file is about: its folders that name a part of the project and the name it tests. */
function testNames(tests: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const t of tests) {
    for (const d of folders(t)) names.add(d);
    const name = testedName(t);
    names.add(name);
    // A test named after several things (`runtime-codex`, `git_parse`) tests each of them.
    for (const part of name.split(/[-_]/)) if (part.length >= 3 && part !== name) names.add(part);
  }
  for (const common of COMMON_NAMES) names.delete(common);
  names.delete('');
  return names;
}

/**
 * Pure: how the test files `tests` relate to the changed paths `subjects`, or null: a test is in (or
 * named after) a package a subject is in, or is named after a subject file; or both are in the root package.
 */
export function pathRelation(tests: readonly string[], subjects: readonly string[]): string | null {
  const names = testNames(tests);
  for (const s of subjects) {
    const hit = folders(s).find((d) => names.has(d));
    if (hit !== undefined) return `tests in package ${hit}, which it changes`;
  }
  for (const s of subjects) {
    if (names.has(testedName(s))) return `tests ${fileName(s)}, which it changes`;
  }
  for (const s of subjects) {
    if (packageKey(s) === '' && tests.some((t) => packageKey(t) === ''))
      return 'tests in the root package, which it changes';
  }
  return null;
}

/**
 * Pure: why `test` relates to `change`, or null (case-insensitive throughout):
 * - both have the same scope;
 * - the test's scope is a package (a folder other than `src`, `test`, `packages`, ...) `change` changes,
 *   or `change`'s scope is a package the test's files are in;
 * - a test file is in (or named after) a package `change` changes, or is named after a file it changes
 *   (`json.test.ts`, `test_json.py`, `json_test.go` test `json.*`; `runtime-codex.test.ts` tests `runtime.*` and
 *   `codex.*`; `index`, `mod`, `main`, ... are too common);
 * - both change files of the root package (no package folder at all).
 * A commit that changes no file at all (`--allow-empty`) has nothing to compare: any test commit relates.
 */
export function testRelation(test: CommitFacts, change: CommitFacts): string | null {
  const a = test.conventional?.scope ?? null;
  const b = change.conventional?.scope ?? null;
  if (a !== null && b !== null && a.toLowerCase() === b.toLowerCase()) return `same scope (${b})`;
  if (change.paths.length === 0) return 'the commit changes no file';
  const subjects = subjectPaths(change);
  const byPath = pathRelation(test.testFiles, subjects);
  if (byPath !== null) return byPath;
  if (a !== null && subjects.some((s) => folders(s).includes(a.toLowerCase())))
    return `its scope (${a}) is a package it changes`;
  if (b !== null && testNames(test.testFiles).has(b.toLowerCase())) return `tests in package ${b}, its scope`;
  return null;
}
