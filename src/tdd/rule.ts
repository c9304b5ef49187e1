import { childrenRead } from '../util/children.js';
import type { CommitFacts } from './commit.js';
import { testRelation } from './relation.js';
import type { Verdict } from './verdict.js';

export type TddPolicy = 'paired' | 'scoped' | 'any' | 'same-commit';

export interface TddOptions {
  policy: TddPolicy;
  /** Commit types that need a preceding test commit (default `[feat]`). */
  types: readonly string[];
  /**
   * Where the judged commits are: `branch` (their history can still be rewritten) or `default-branch`
   * (already merged, e.g. a squash: the remedy cannot be to reorder them). Default `branch`.
   */
  where?: 'branch' | 'default-branch';
}

/** One test commit a commit was paired with, and why they relate (src/tdd/relation.ts). */
export interface Pairing {
  sha: string;
  header: string;
  relation: string;
}

/** The test-first verdict on one commit. */
export interface TddVerdict extends Verdict {
  rule: 'test-first';
  sha: string;
  /** The test commits this commit was paired with (consumed). */
  pairedWith: string[];
  /** The same, each with its header and how it relates to the commit. */
  pairings: Pairing[];
  /** Set by `hestai verify` when the commit passed as the squash of a branch verified test-first (src/verify/squash-evidence.ts). */
  squash_of?: { branch: string; tip: string; commits: number; matched_by: 'tree' | 'patch-id' };
  /** The `TDD-Exempt` reason when the commit passed only through its exemption. */
  exempt: string | null;
}

const short = (sha: string) => sha.slice(0, 7);
const scopeText = (scope: string | null) => (scope === null ? '' : `(${scope})`);
const CLAUSE = 'docs/design.md §6 (tdd.policy)';

/** What a commit's line of history offers the commits after it. Shared between commits until it changes. */
interface Line {
  /** Test commits on this line (ancestors) not yet paired nor reverted on it, oldest first. */
  pending: readonly CommitFacts[];
  /** The bits ({@link Judging.bits}) of the counting test commits among its ancestors, paired or not. */
  seen: Uint32Array;
  /** Test commits reverted on this line while unpaired, with the revert: a revert of that revert restores them. */
  reverted: readonly { test: CommitFacts; by: string }[];
  /** Some counting test commit is an ancestor (policy any). */
  anyTest: boolean;
  /** The latest test commits on this line that no longer count, each with why: what a failure names. */
  spent: readonly Spent[];
}

/** A test commit that does not count (any more) on a line: `why` follows its header and files in a failure. */
interface Spent {
  sha: string;
  header: string;
  files: readonly string[];
  why: string;
}

/** How many spent test commits a line keeps to name (the latest). */
const SPENT_NAMED = 3;

const EMPTY: Line = { pending: [], seen: new Uint32Array(0), reverted: [], anyTest: false, spent: [] };

/** Pure: `spent` with `more` added last, each test once, the latest {@link SPENT_NAMED} kept. */
function spentWith(spent: readonly Spent[], more: readonly Spent[]): readonly Spent[] {
  const shas = new Set(more.map((m) => m.sha));
  return [...spent.filter((x) => !shas.has(x.sha)), ...more].slice(-SPENT_NAMED);
}

const spentOf = (t: CommitFacts, files: readonly string[], why: string): Spent => ({
  sha: t.sha,
  header: t.header,
  files,
  why,
});
/** Pure: `seen` with bit `bit` set (a copy). */
function withBit(seen: Uint32Array, bit: number): Uint32Array {
  const out = new Uint32Array(Math.max(seen.length, (bit >> 5) + 1));
  out.set(seen);
  out[bit >> 5]! |= 1 << (bit & 31);
  return out;
}

const hasBit = (seen: Uint32Array, bit: number): boolean => ((seen[bit >> 5] ?? 0) & (1 << (bit & 31))) !== 0;

/**
 * Pure: the test-first rule (docs/design.md §6) over a range's commits, parents before children (topological
 * order); one verdict per commit. A feat's test must be an ANCESTOR of it inside the range (on its own
 * line of history since the merge base), never a commit on a parallel branch. Pairing consumes a test
 * commit on the feat's line only (the feat and its descendants): a feat on a parallel line that also has
 * it as an ancestor may pair with it too, so a commit's verdict depends on its ancestors alone, never on
 * which other commits the range holds (docs/enforcement.md, "One answer per commit").
 *
 * - `paired`: a commit of a `types` type needs a test commit (type `test`, adding or modifying a test
 *   file) among its ancestors that no other commit was paired with; passing pairs it with all of them.
 * - `scoped`: the same, per scope: only unpaired ancestor test commits with an equal scope count.
 * - `any`: some counting test commit among its ancestors suffices; nothing is consumed.
 *
 * A test commit that only deletes or renames test files does not count, nor one reverted (by a real
 * revert) on the feat's line before it. Merges, reverts, fixup!/squash!/amend! and ignored commits are
 * not judged. A `TDD-Exempt` trailer turns a failure into a warning that names the reason.
 */
export function evaluateTestFirst(commits: readonly CommitFacts[], options: TddOptions): TddVerdict[] {
  const judge = testFirstJudge(options);
  return commits.map((c) => judge(c));
}

/**
 * A string of its own: a substring of a long text (a sha or header cut out of a whole `git log` batch) keeps
 * that text alive for as long as it is kept, so what the rule keeps across batches is copied.
 */
const owned = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

/** What a test commit offers later commits: its facts without what pairing never reads (kept per test commit). */
const kept = (t: CommitFacts): CommitFacts =>
  JSON.parse(JSON.stringify({ ...t, parents: null, paths: [], trailers: [], testFilesRemoved: [] })) as CommitFacts;

/**
 * The same rule one commit at a time (parents before children), for `hestai verify`'s stream: it keeps
 * only what later commits can need (each commit's line, the test commits, the pairings and reverts), never
 * the commits themselves.
 */
export interface TestFirstJudge {
  (commit: CommitFacts, known?: { children: number }): TddVerdict;
  /**
   * Whether the verdict the judge would give `commit` next depends on the paths it changes: only for a commit
   * of `types` under the `paired` and `same-commit` policies, and under `paired` only when an unpaired test
   * commit on its line has another scope or none (one of its own scope pairs whatever the commit changes).
   * Asks, changes nothing: `hestai verify` reads a commit's files only when they can change its verdict.
   */
  needsPaths(commit: CommitFacts): boolean;
}

/** One verdict of the rule: `pairings` are the test commits it consumed, `exempt` the reason it passed by. */
function verdictOf(
  commit: CommitFacts,
  status: Verdict['status'],
  message: string,
  pairings: Pairing[] = [],
  exempt: string | null = null,
): TddVerdict {
  return {
    rule: 'test-first',
    sha: commit.sha,
    status,
    message,
    clause: CLAUSE,
    pairedWith: pairings.map((p) => p.sha),
    pairings,
    exempt,
  };
}

/** What {@link testFirstJudge} keeps between commits, and the rule's steps for one commit. */
class Judging {
  readonly lines = new Map<string, Line>();
  /** For commits whose number of children was given: how many have not inherited its line yet. */
  readonly left = new Map<string, number>();
  /** Each counting test commit's bit in a line's `seen`, in the order they were judged. */
  readonly bits = new WeakMap<CommitFacts, number>();
  nextBit = 0;
  previous: Line = EMPTY;
  /** The line the commit being judged leaves to its children. */
  next: Line = EMPTY;
  /** The line needsPaths computed for the commit the judge is then given (the state has not changed between). */
  asked: { commit: CommitFacts; line: Line } | null = null;
  constructor(readonly options: TddOptions) {}

  lineOf(commit: CommitFacts): Line {
    if (this.asked !== null && this.asked.commit === commit) return this.asked.line;
    return commit.parents === null ? this.previous : inherit(commit.parents, this.lines, this.bits);
  }

  needsPaths(commit: CommitFacts): boolean {
    const { options } = this;
    const type = commit.conventional?.type;
    if (commit.kind !== 'normal' || type === undefined || type === 'test' || !options.types.includes(type))
      return false;
    if (options.policy === 'same-commit') return true;
    if (options.policy !== 'paired') return false;
    const line = this.lineOf(commit);
    this.asked = { commit, line };
    const scope = commit.conventional!.scope?.toLowerCase() ?? null;
    return line.pending.some((t) => scope === null || t.conventional?.scope?.toLowerCase() !== scope);
  }

  judge(commit: CommitFacts, known?: { children: number }): TddVerdict {
    const line = this.lineOf(commit);
    this.asked = null;
    // A line all of whose children have inherited it is needed no more.
    childrenRead(this.left, commit.parents ?? [], (p) => this.lines.delete(p));
    this.next = line;
    const out = commit.kind === 'normal' ? this.normal(commit, line) : this.notJudged(commit, line);
    if (known === undefined) this.lines.set(owned(commit.sha), this.next);
    else if (known.children > 0) {
      const sha = owned(commit.sha);
      this.lines.set(sha, this.next);
      this.left.set(sha, known.children);
    }
    this.previous = this.next;
    return out;
  }

  /** A merge, revert, fixup!/squash!/amend! or ignored commit; a real revert takes its test back from the line. */
  notJudged(commit: CommitFacts, line: Line): TddVerdict {
    if (commit.kind === 'revert' && commit.reverts !== null) this.next = this.revert(commit.sha, commit.reverts, line);
    return verdictOf(commit, 'skip', `${commit.kind} commit: not judged by test-first`);
  }

  /** The line after a revert of `reverts`: its unpaired test no longer counts; a revert of that revert restores it. */
  revert(sha: string, reverts: string, line: Line): Line {
    const undone = line.reverted.find((r) => r.by === reverts);
    if (undone !== undefined)
      return {
        ...line,
        pending: [...line.pending, undone.test],
        reverted: line.reverted.filter((r) => r !== undone),
        spent: line.spent.filter((x) => x.sha !== undone.test.sha),
      };
    const test = line.pending.find((t) => t.sha === reverts);
    if (test === undefined) return line;
    return {
      ...line,
      pending: line.pending.filter((t) => t !== test),
      reverted: [...line.reverted, { test, by: owned(sha) }],
      spent: spentWith(line.spent, [spentOf(test, test.testFiles, `was reverted by ${short(sha)}`)]),
    };
  }

  normal(commit: CommitFacts, line: Line): TddVerdict {
    const { options } = this;
    const header = commit.conventional;
    if (header === null)
      return verdictOf(
        commit,
        'skip',
        'not a Conventional Commit header: test-first cannot tell its type (see the header rule)',
      );
    if (header.type === 'test') return this.testCommit(commit, line);
    if (!options.types.includes(header.type))
      return verdictOf(
        commit,
        'skip',
        `type ${header.type} does not need a preceding test (tdd.types: ${options.types.join(', ')})`,
      );
    return this.needsTest(commit, line);
  }

  /** A test commit counts for later commits when it adds or changes a test file. */
  testCommit(commit: CommitFacts, line: Line): TddVerdict {
    if (commit.testFiles.length > 0) {
      if (this.options.policy === 'any') this.next = { ...line, anyTest: true };
      else {
        const test = kept(commit);
        const bit = this.nextBit++;
        this.bits.set(test, bit);
        this.next = { ...line, pending: [...line.pending, test], seen: withBit(line.seen, bit), anyTest: true };
      }
      return verdictOf(commit, 'pass', `test commit adding or changing ${commit.testFiles.length} test file(s)`);
    }
    const ignored = (why: string) => spentOf(kept(commit), commit.testFilesRemoved.map(owned), why);
    if (commit.testFilesRemoved.length > 0) {
      this.next = { ...line, spent: spentWith(line.spent, [ignored('only deletes or renames test files')]) };
      return verdictOf(
        commit,
        'warn',
        `test commit only deletes or renames test files (${commit.testFilesRemoved.slice(0, 3).join(', ')}): it does not count as the test for a later commit`,
      );
    }
    const why = `changes no test file (tdd.test_globs)${fixturesNote(commit)}`;
    this.next = {
      ...line,
      spent: spentWith(line.spent, [spentOf(kept(commit), commit.fixtureFiles.map(owned), why)]),
    };
    return verdictOf(commit, 'warn', `test commit ${why}: it does not count as the test for a later commit`);
  }

  /** The unpaired test commits on the line that relate to `commit` under the policy (none under `any`). */
  related(commit: CommitFacts, line: Line): Pairing[] {
    const related: Pairing[] = [];
    const scope = commit.conventional!.scope;
    if (this.options.policy === 'scoped') {
      for (const t of line.pending)
        if (t.conventional?.scope === scope)
          related.push({ sha: t.sha, header: t.header, relation: `same scope (${scope ?? 'none'})` });
    } else if (this.options.policy !== 'any') {
      for (const t of line.pending) {
        const relation = testRelation(t, commit);
        if (relation !== null) related.push({ sha: t.sha, header: t.header, relation });
      }
    }
    return related;
  }

  /** A commit of tdd.types: paired with its related test commits, passed by its own test or exemption, or failed. */
  needsTest(commit: CommitFacts, line: Line): TddVerdict {
    const { options } = this;
    const related = this.related(commit, line);
    // Under same-commit a test file in the commit is its test; the name relation only pairs separate test commits.
    const own = options.policy === 'same-commit' ? commit.testFiles : [];
    const ok = options.policy === 'any' ? line.anyTest : related.length > 0;
    if (ok && options.policy !== 'any') {
      const paired = new Set(related.map((t) => t.sha));
      this.next = {
        ...line,
        pending: line.pending.filter((t) => !paired.has(t.sha)),
        spent: spentWith(
          line.spent,
          line.pending
            .filter((t) => paired.has(t.sha))
            .map((t) =>
              spentOf(t, t.testFiles, `was already paired with ${short(commit.sha)} "${owned(commit.header)}"`),
            ),
        ),
      };
      const names = related.map((t) => `${short(t.sha)} "${t.header}" (${t.relation})`).join(', ');
      return verdictOf(commit, 'pass', `paired with test commit ${names}`, related);
    }
    if (ok) return verdictOf(commit, 'pass', 'a test commit is among its ancestors in the range');
    if (own.length > 0)
      return verdictOf(
        commit,
        'pass',
        `adds or changes a test file in the same commit: ${listed(own)} (tdd.policy same-commit)`,
      );
    if (commit.exemption !== null)
      return verdictOf(commit, 'warn', `exempt from test-first: ${commit.exemption}`, [], commit.exemption);
    return verdictOf(commit, 'fail', failureMessage(commit, options, line));
  }
}

export function testFirstJudge(options: TddOptions): TestFirstJudge {
  const judging = new Judging(options);
  const judge = (commit: CommitFacts, known?: { children: number }) => judging.judge(commit, known);
  return Object.assign(judge, { needsPaths: (commit: CommitFacts) => judging.needsPaths(commit) });
}

/**
 * The line a commit starts from: its parent's (shared), the union of its parents' at a merge, or empty
 * (parents outside the range). A commit whose parents are unknown continues the previous commit's line.
 * At a merge a test commit still counts unless a parent it is an ancestor of has paired or reverted it.
 */
function inherit(
  parentShas: readonly string[],
  lines: ReadonlyMap<string, Line>,
  bits: WeakMap<CommitFacts, number>,
): Line {
  const parents: Line[] = [];
  for (const p of parentShas) {
    const line = lines.get(p);
    if (line) parents.push(line);
  }
  if (parents.length === 0) return EMPTY;
  if (parents.length === 1) return parents[0]!;
  const unseen = (l: Line, t: CommitFacts) => !hasBit(l.seen, bits.get(t)!);
  const keeps = (t: CommitFacts, also: (l: Line) => boolean) =>
    parents.every((l) => unseen(l, t) || l.pending.some((p) => p.sha === t.sha) || also(l));
  const pending: CommitFacts[] = [];
  const reverted: Line['reverted'][number][] = [];
  const taken = new Set<string>();
  for (const line of parents) {
    for (const t of line.pending) {
      if (taken.has(t.sha) || !keeps(t, () => false)) continue;
      taken.add(t.sha);
      pending.push(t);
    }
  }
  for (const line of parents) {
    for (const r of line.reverted) {
      if (taken.has(r.test.sha) || !keeps(r.test, (l) => l.reverted.some((x) => x.test.sha === r.test.sha))) continue;
      taken.add(r.test.sha);
      reverted.push(r);
    }
  }
  const seen = new Uint32Array(Math.max(...parents.map((l) => l.seen.length)));
  for (const l of parents) l.seen.forEach((word, i) => (seen[i]! |= word));
  return {
    pending,
    seen,
    reverted,
    anyTest: parents.some((l) => l.anyTest),
    spent: parents.reduce<readonly Spent[]>((all, l) => spentWith(all, l.spent), []),
  };
}

/** Pure: up to three paths, and how many in all. */
const listed = (paths: readonly string[]): string =>
  paths.slice(0, 3).join(', ') + (paths.length > 3 ? ` (${paths.length} in all)` : '');

/** Pure: why a commit's fixture files did not count as test files, or `''` when it changes none. */
const fixturesNote = (commit: CommitFacts): string =>
  commit.fixtureFiles.length === 0
    ? ''
    : `; its fixture files ${listed(commit.fixtureFiles)} count only with a test file in the same commit or package (tdd.fixture_globs)`;

/** Pure: the part of a test-first failure that names the test files of the commit itself and why they did not count. */
export function commitTestsNote(commit: CommitFacts, policy: TddPolicy): string {
  if (commit.testFiles.length === 0 && commit.testFilesRemoved.length > 0)
    return `this commit only deletes or renames test files ${listed(commit.testFilesRemoved)}: they do not count`;
  if (commit.testFiles.length === 0) return `this commit changes no test file (tdd.test_globs)${fixturesNote(commit)}`;
  if (policy === 'same-commit') return `this commit changes test files ${listed(commit.testFiles)}`;
  return `its own test files ${listed(commit.testFiles)} do not count: a test in the same commit counts only under tdd.policy same-commit`;
}

function failureMessage(commit: CommitFacts, options: TddOptions, line: Line): string {
  const { type, scope } = commit.conventional!;
  let why = 'among its ancestors since the merge base';
  if (options.policy === 'scoped' && line.pending.length > 0) {
    const scopes = [...new Set(line.pending.map((t) => scopeText(t.conventional?.scope ?? null) || '(no scope)'))];
    const files = listed(line.pending.flatMap((t) => t.testFiles));
    why = `with scope ${scopeText(scope) || '(no scope)'} (policy scoped); the unpaired test commits${files === '' ? '' : ` (${files})`} have scope ${scopes.join(', ')}`;
  } else if (options.policy !== 'any' && options.policy !== 'scoped' && line.pending.length > 0) {
    const names = line.pending
      .slice(-3)
      .map((t) => `${short(t.sha)} "${t.header}" (${listed(t.testFiles)})`)
      .join(', ');
    why = `that relates to it: the unpaired test commit(s) ${names} test other parts (no same scope, no test in a package it changes, none named after a file it changes)`;
  }
  if (line.spent.length > 0) {
    const spent = line.spent
      .map((x) => `${short(x.sha)} "${x.header}"${x.files.length > 0 ? ` (${listed(x.files)})` : ''} ${x.why}`)
      .join(', ');
    why = line.pending.length > 0 ? `${why}; on its line before, ${spent}` : `that still counts: ${spent}`;
  }
  const own = `; ${commitTestsNote(commit, options.policy)}`;
  if (options.where === 'default-branch') {
    return (
      `${type} commit "${commit.header}" has no preceding test commit ${why}${own}. ` +
      'It is already on the default branch, so its history cannot be reordered. If the repository squashes pull requests, ' +
      "verify each pull request's branch test-first before merging and publish its change record, or choose tdd.policy same-commit; " +
      'see docs/enforcement.md "Merge styles". An intended exception: a "TDD-Exempt: <reason>" trailer on the next such commit (an error in verify unless the base\'s policy sets verify.exempt: warn).'
    );
  }
  return (
    `${type} commit "${commit.header}" has no preceding test commit ${why}${own}. ` +
    `Commit the failing test first: a "test${scopeText(scope)}: ..." commit that adds or changes a test file (tdd.test_globs), then the ${type}.`
  );
}
