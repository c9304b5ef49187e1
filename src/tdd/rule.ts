import type { CommitFacts } from './commit.js';
import type { Verdict } from './verdict.js';

export type TddPolicy = 'paired' | 'scoped' | 'any';

export interface TddOptions {
  policy: TddPolicy;
  /** Commit types that need a preceding test commit (default `[feat]`). */
  types: readonly string[];
}

/** The test-first verdict on one commit. */
export interface TddVerdict extends Verdict {
  rule: 'test-first';
  sha: string;
  /** The test commits this commit was paired with (consumed). */
  pairedWith: string[];
  /** The `TDD-Exempt` reason when the commit passed only through its exemption. */
  exempt: string | null;
}

const short = (sha: string) => sha.slice(0, 7);
const scopeText = (scope: string | null) => (scope === null ? '' : `(${scope})`);

/**
 * Pure: the test-first rule (DESIGN.md §6) over a branch's commits, oldest first; one verdict per commit.
 *
 * - `paired`: a commit of a `types` type needs a test commit (type `test`, changing a test file) after
 *   the previous such commit; passing consumes every pending test commit.
 * - `scoped`: the same, per scope: only pending test commits with an equal scope count and are consumed.
 * - `any`: some test commit earlier in the list suffices; nothing is consumed.
 *
 * Merges, reverts and fixup!/squash!/amend! commits are skipped and consume nothing. A `TDD-Exempt`
 * trailer turns a failure into a warning that names the reason.
 */
export function evaluateTestFirst(commits: readonly CommitFacts[], options: TddOptions): TddVerdict[] {
  let pending: CommitFacts[] = [];
  let anyTest = false;
  let lastPairing: { feat: CommitFacts; tests: string[] } | null = null;
  const verdicts: TddVerdict[] = [];
  const verdict = (commit: CommitFacts, status: Verdict['status'], message: string, pairedWith: string[] = [], exempt: string | null = null) =>
    verdicts.push({ rule: 'test-first', sha: commit.sha, status, message, pairedWith, exempt });

  for (const commit of commits) {
    if (commit.kind !== 'normal') {
      verdict(commit, 'skip', `${commit.kind} commit: not judged by test-first`);
      continue;
    }
    const header = commit.conventional;
    if (header === null) {
      verdict(commit, 'skip', 'not a Conventional Commit header: test-first cannot tell its type (see the header rule)');
      continue;
    }
    if (header.type === 'test') {
      if (commit.testFiles.length > 0) {
        pending.push(commit);
        anyTest = true;
        verdict(commit, 'pass', `test commit changing ${commit.testFiles.length} test file(s)`);
      } else {
        verdict(commit, 'warn', 'test commit changes no test file (tdd.test_globs): it does not count as the test for a later commit');
      }
      continue;
    }
    if (!options.types.includes(header.type)) {
      verdict(commit, 'skip', `type ${header.type} does not need a preceding test (tdd.types: ${options.types.join(', ')})`);
      continue;
    }
    const candidates = options.policy === 'scoped' ? pending.filter((t) => t.conventional?.scope === header.scope) : pending;
    const ok = options.policy === 'any' ? anyTest : candidates.length > 0;
    const paired = options.policy === 'any' ? [] : candidates.map((t) => t.sha);
    if (ok || commit.exemption !== null) {
      if (options.policy === 'paired') pending = [];
      else if (options.policy === 'scoped') pending = pending.filter((t) => !candidates.includes(t));
      if (paired.length > 0) lastPairing = { feat: commit, tests: paired };
    }
    if (ok) {
      verdict(commit, 'pass', options.policy === 'any' ? 'a test commit precedes it on this branch' : `paired with test commit ${paired.map(short).join(', ')}`, paired);
    } else if (commit.exemption !== null) {
      verdict(commit, 'warn', `exempt from test-first: ${commit.exemption}`, [], commit.exemption);
    } else {
      verdict(commit, 'fail', failureMessage(commit, options, pending, lastPairing));
    }
  }
  return verdicts;
}

function failureMessage(commit: CommitFacts, options: TddOptions, pending: readonly CommitFacts[], lastPairing: { feat: CommitFacts; tests: string[] } | null): string {
  const { type, scope } = commit.conventional!;
  let why = 'on this branch since its base';
  if (options.policy === 'scoped' && pending.length > 0) {
    const scopes = [...new Set(pending.map((t) => scopeText(t.conventional?.scope ?? null) || '(no scope)'))];
    why = `with scope ${scopeText(scope) || '(no scope)'} (policy scoped); the unpaired test commits have scope ${scopes.join(', ')}`;
  } else if (options.policy !== 'any' && lastPairing !== null) {
    why = `that is not already paired: the test commit(s) ${lastPairing.tests.map(short).join(', ')} were already paired with ${short(lastPairing.feat.sha)} "${lastPairing.feat.header}"`;
  }
  return (
    `${type} commit "${commit.header}" has no preceding test commit ${why}. ` +
    `Commit the failing test first: a "test${scopeText(scope)}: ..." commit that changes a test file (tdd.test_globs), then the ${type}.`
  );
}
