import type { WorkspaceConfig } from '../config/schema.js';
import { resolveCommits } from '../git/history.js';
import type { LogCommit } from '../git/parse.js';
import { commitHunks } from '../git/hunks.js';
import { filesUnder } from '../git/repo.js';
import { newestBySubject, realReverts } from '../git/merge.js';
import {
  commitFacts,
  fixtureHomes,
  homesWithTests,
  revertedSha,
  type CommitFacts,
  type CommitInput,
} from '../tdd/commit.js';
import type { Trailer } from '../tdd/trailers.js';
import {
  classifyHunks,
  compileInlineRules,
  inlineRuleFor,
  inlineTestRegions,
  type CompiledInlineRule,
} from '../tdd/inline-tests.js';
import { ignoreRules } from '../tdd/ignore.js';
import { testFileMatcher } from '../tdd/test-files.js';

/**
 * The facts of logged commits, shared by the commit-msg hook and `hestai verify` so both judge alike:
 * test files per `tdd.test_globs`, ignored headers per `commit.ignore`, and real reverts (their
 * `This reverts commit <sha>` lines resolved with one `git cat-file --batch-check`).
 */
export function logFacts(
  root: string,
  commits: readonly LogCommit[],
  config: Pick<WorkspaceConfig, 'tdd' | 'commit'>,
  options: { earnedReverts?: boolean; trailers?: ReadonlyMap<string, Trailer[]> } = {},
): CommitFacts[] {
  const isTest = testFileMatcher(config.tdd.test_globs);
  const isFixture = testFileMatcher(config.tdd.fixture_globs ?? []);
  const ignore = ignoreRules(config.commit.ignore, config.commit.default_ignores);
  const named = commits.map((c) => revertedSha(c.message));
  const wanted = named.filter((s): s is string => s !== null);
  const resolved = wanted.length === 0 ? new Map<string, string | null>() : resolveCommits(root, wanted);
  // verify: a revert is exempt only when it is one (src/git/merge.ts realReverts); a line naming some
  // existing commit earns nothing.
  if (options.earnedReverts && wanted.length > 0) {
    const pairs = commits.flatMap((c, i) => {
      const target = named[i] ? resolved.get(named[i]!) : null;
      const parent = c.parents[0];
      return target && parent ? [{ sha: c.sha, parent, reverts: target }] : [];
    });
    const real = realReverts(root, pairs);
    commits.forEach((c, i) => {
      if (named[i] && !real.has(c.sha)) named[i] = null;
    });
  }
  const byContent = options.earnedReverts ? revertsByContent(root, commits, named) : new Map<number, string>();
  const input = (c: LogCommit, i: number): CommitInput => ({
    sha: c.sha,
    message: c.message,
    files: c.files,
    ...(c.changes ? { changes: c.changes } : {}),
    parents: c.parents,
    reverts: named[i] ? (resolved.get(named[i]!) ?? null) : (byContent.get(i) ?? null),
    ...(options.trailers?.has(c.sha) ? { trailers: options.trailers.get(c.sha)! } : {}),
  });
  const factOptions = { ignore, isFixture };
  const inputs = commits.map((c, i) => input(c, i));
  const facts = inputs.map((c) => commitFacts(c, isTest, factOptions));
  // Tests inside source files (tdd.inline_tests): only for test commits and commits that need a test,
  // that change such a file; their hunks and new contents come from two more git processes in all.
  const judged = (f: CommitFacts) =>
    f.kind === 'normal' &&
    f.parentCount <= 1 &&
    f.conventional !== null &&
    (f.conventional.type === 'test' || config.tdd.types.includes(f.conventional.type));
  const rules = compileInlineRules(config.tdd.inline_tests ?? []);
  const candidates = facts.filter(
    (f) => rules.length > 0 && judged(f) && f.paths.some((p) => !isTest(p) && inlineRuleFor(rules, p) !== null),
  );
  if (candidates.length > 0) {
    const { hunks, content } = commitHunks(
      root,
      candidates.map((f) => f.sha),
      (config.tdd.inline_tests ?? []).map((r) => r.files),
    );
    facts.forEach((f, i) => {
      const files = hunks.get(f.sha);
      if (!files) return;
      const inline = inlineChanges(f.sha, files, content, rules, isTest);
      if (inline.tests.length === 0) return;
      inputs[i] = { ...inputs[i]!, inline };
      facts[i] = commitFacts(inputs[i]!, isTest, factOptions);
    });
  }
  // Fixture files with no test file in the commit count when their package has one in its tree: one git ls-tree each.
  facts.forEach((f, i) => {
    if (f.fixtureFiles.length === 0 || !judged(f)) return;
    const homes = fixtureHomes(f.fixtureFiles, isFixture);
    const tree = filesUnder(root, f.sha, homes);
    facts[i] = commitFacts({ ...inputs[i]!, fixtureHomes: homesWithTests(homes, tree, isTest) }, isTest, factOptions);
  });
  return facts;
}

/**
 * `Revert "<header>"` commits that are not real reverts of the commit their body names (a commit that landed
 * rebased has another sha): each is one when its change is the exact inverse of the newest commit with that
 * header among its ancestors ({@link realReverts}). By index in `commits`.
 */
function revertsByContent(
  root: string,
  commits: readonly LogCommit[],
  named: readonly (string | null)[],
): Map<number, string> {
  const candidates = commits.flatMap((c, i) => {
    // GitHub's squash merge appends " (#N)" to the revert's header, as to the original's (newestBySubject).
    const header = /^Revert "(.+)"(?: \(#\d+\))?$/.exec(c.message.split('\n', 1)[0]!)?.[1];
    return header !== undefined && named[i] === null && c.parents.length === 1 ? [{ i, c, header }] : [];
  });
  const byContent = new Map<number, string>();
  if (candidates.length === 0) return byContent;
  const targets = newestBySubject(
    root,
    candidates.map(({ c }) => c.parents[0]!),
    candidates.map(({ header }) => header),
  );
  const pairs = candidates.flatMap(({ c, header }) => {
    const target = targets.get(header);
    return target ? [{ sha: c.sha, parent: c.parents[0]!, reverts: target }] : [];
  });
  const real = realReverts(root, pairs);
  for (const { i, c, header } of candidates) if (real.has(c.sha)) byContent.set(i, targets.get(header)!);
  return byContent;
}

/** Pure: which of a commit's source files change inside inline test regions only (`tests`) or inside and outside (`mixed`). */
export function inlineChanges(
  sha: string,
  files: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>,
  content: ReadonlyMap<string, string>,
  rules: readonly CompiledInlineRule[],
  isTest: (file: string) => boolean,
): { tests: string[]; mixed: string[] } {
  const tests: string[] = [];
  const mixed: string[] = [];
  for (const [p, fileHunks] of files) {
    const rule = inlineRuleFor(rules, p);
    const text = content.get(`${sha}:${p}`);
    if (rule === null || text === undefined || isTest(p)) continue;
    const kind = classifyHunks(fileHunks, inlineTestRegions(text, rule.start));
    if (kind === 'test' || kind === 'mixed') tests.push(p);
    if (kind === 'mixed') mixed.push(p);
  }
  return { tests, mixed };
}
