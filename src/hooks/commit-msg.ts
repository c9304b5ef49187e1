import fs from 'node:fs';
import path from 'node:path';
import { anchorDigest } from '../records/anchor.js';
import { pinnedClock, type Clock } from '../clock.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { usageError } from '../errors.js';
import { headState } from '../git/head.js';
import { history as gitHistory, resolveCommits } from '../git/history.js';
import { readCommitInvocation, replacesHead, type InvocationLookup } from '../git/invocation.js';
import type { LogCommit } from '../git/parse.js';
import { filesUnder, stagedChanges } from '../git/repo.js';
import { workspacePaths } from '../paths.js';
import {
  commitFacts,
  fixtureHomes,
  homesWithTests,
  revertedSha,
  type CommitFacts,
  type CommitInput,
  type FactOptions,
} from '../tdd/commit.js';
import { checkHeader } from '../tdd/header-rule.js';
import { ignoreRules, isReleaseHeader } from '../tdd/ignore.js';
import { cleanMessage, messageHeader } from '../tdd/message.js';
import { evaluateTestFirst } from '../tdd/rule.js';
import { testFileMatcher } from '../tdd/test-files.js';
import { appendTrailers, type Trailer } from '../tdd/trailers.js';
import { attributionTrailers } from '../records/attribution.js';
import { logFacts } from '../verify/log-facts.js';
import { branchHistory } from './branch-history.js';
import { EMPTY_BYPASS_LINES, readBypass } from './bypass.js';
import { messageOptions } from './message-options.js';
import type { HookOutcome } from './outcome.js';
import { resolveCommitSession } from './session.js';

export interface CommitMsgInput {
  root: string;
  /** The message file git passes (relative paths resolve against `root`). */
  file: string;
  config: WorkspaceConfig;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

/** The commit being made has no sha yet; verdicts name it like this. */
const THIS_COMMIT = '(this commit)';

/** The empty tree (sha1 and sha256 repositories): what an amended root commit's changes are taken against. */
const EMPTY_TREE = (sha: string) =>
  sha.length === 64
    ? '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321'
    : '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The message file git passes: its absolute path and text. */
function readMessageFile(root: string, name: string): { file: string; raw: string } {
  const file = path.resolve(root, name);
  try {
    return { file, raw: fs.readFileSync(file, 'utf8') };
  } catch {
    throw usageError(`cannot read the commit message file ${file}`, {
      file,
      remedy: 'git passes it as the first argument of the commit-msg hook.',
    });
  }
}

/**
 * The trailers the commit gets: the anchored session's (hooks.trailers), and `HestAI-Clock` when HESTAI_NOW pins
 * the clock (never honoured silently: the commit says the hooks judged it at a pinned clock; verify lists it).
 */
function commitTrailers(input: CommitMsgInput): { session_id: string | null; trailers: Trailer[] } {
  const { root, config, env } = input;
  const resolved = resolveCommitSession(workspacePaths(root), env);
  const anchored = resolved.found && resolved.anchor.valid ? resolved : null;
  const session_id = resolved.found ? resolved.session.session_id : null;
  const trailers: Trailer[] = [];
  if (config.hooks.trailers && anchored?.anchor.valid) {
    trailers.push(
      { key: 'HestAI-Session', value: anchored.session.session_id },
      { key: 'HestAI-Anchor', value: anchorDigest(anchored.anchor.anchor) },
    );
  }
  if (pinnedClock(env) !== null) trailers.push({ key: 'HestAI-Clock', value: input.clock().toISOString() });
  if (resolved.found) trailers.push(...attributionTrailers(resolved.session.agent, config.commit.attribution));
  return { session_id, trailers };
}

/**
 * `git commit --amend` replaces HEAD: the commit is judged as a new commit on HEAD's parents with HEAD left
 * out of the history, exactly as strict as committing it fresh there (src/git/invocation.ts,
 * docs/enforcement.md). git's command line is read once, when first asked.
 */
function amendProbe(root: string, env: NodeJS.ProcessEnv) {
  let lookup: InvocationLookup | undefined;
  const invocation = () => (lookup ??= readCommitInvocation());
  /** `head`, when this commit replaces it. */
  const replaced = (head: LogCommit | undefined): LogCommit | null => {
    if (head === undefined) return null;
    const found = invocation();
    return found.kind === 'found' && replacesHead(found.invocation, env, head.authorDate) ? head : null;
  };
  /** HEAD, when this commit amends it; starts a git process only when git's command line says --amend. */
  const amendedHead = (): LogCommit | null => {
    const found = invocation();
    if (found.kind !== 'found' || !found.invocation?.amend) return null;
    const head = gitHistory(root, { revisions: ['HEAD', '-n', '1'] });
    return 'commits' in head ? replaced(head.commits[0]) : null;
  };
  return { invocation, replaced, amendedHead };
}

type AmendProbe = ReturnType<typeof amendProbe>;

/** What the staged changes are taken against: the amended commit's parent (or the empty tree), else HEAD. */
const stagedBase = (amended: LogCommit | null): string | undefined =>
  amended === null ? undefined : (amended.parents[0] ?? EMPTY_TREE(amended.sha));

/** What a judged step knows of the commit being made. */
interface Making {
  input: CommitMsgInput;
  /** The message as git will store it. */
  message: string;
  /** The commit this one reverts (resolved), or null. */
  reverts: string | null;
  ignore: ReturnType<typeof ignoreRules>;
  amend: AmendProbe;
  /** MERGE_HEAD's commits when a merge is being committed. */
  mergeHeads: string[];
}

/**
 * The facts of the commit being made from what it stages: its fixture files count as tests beside a test
 * file it stages, or one of their package in the index (src/tdd/commit.ts).
 */
function stagedFacts(m: Making, input: CommitInput, options: FactOptions = {}): CommitFacts {
  const { root, config } = m.input;
  const isTest = testFileMatcher(config.tdd.test_globs);
  const isFixture = testFileMatcher(config.tdd.fixture_globs);
  const facts = commitFacts(input, isTest, { ...options, isFixture });
  if (facts.fixtureFiles.length === 0) return facts;
  const homes = fixtureHomes(facts.fixtureFiles, isFixture);
  const fixtureHomesWithTests = homesWithTests(homes, filesUnder(root, null, homes), isTest);
  return commitFacts({ ...input, fixtureHomes: fixtureHomesWithTests }, isTest, { ...options, isFixture });
}

/** A test commit passes; warned about when it stages no test file, or only deletes or renames test files. */
function testCommitLines(m: Making, notes: string[]): string[] {
  const { root, config } = m.input;
  const staged = stagedFacts(m, {
    sha: THIS_COMMIT,
    message: m.message,
    files: [],
    changes: stagedChanges(root, stagedBase(m.amend.amendedHead())),
    parents: ['HEAD'],
  });
  const later = `it will not count as the test for a later ${config.tdd.types.join('/')} commit`;
  if (staged.testFiles.length > 0) return notes;
  if (staged.testFilesRemoved.length > 0)
    return [
      ...notes,
      `hestai: warning: this test commit only deletes or renames test files (${staged.testFilesRemoved.slice(0, 3).join(', ')}); ${later}.`,
    ];
  return [
    ...notes,
    `hestai: warning: this test commit stages no test file (tdd.test_globs: ${config.tdd.test_globs.join(', ')})${staged.fixtureFiles.length > 0 ? `; its fixture files ${staged.fixtureFiles.slice(0, 3).join(', ')} count only with a test file in the same commit or package (tdd.fixture_globs)` : ''}; ${later}.`,
  ];
}

/**
 * Test-first for a commit of tdd.types: judged against the branch history since its base (without the commit
 * it amends), with what it stages as its changes (what its test commit must relate to: src/tdd/relation.ts).
 */
function testFirstVerdict(m: Making, headNow: ReturnType<typeof headState>) {
  const { root, config } = m.input;
  const branch = branchHistory(root, { defaultBranch: config.tdd.default_branch, since: config.tdd.since }, headNow);
  const amended = m.amend.replaced(branch.at(-1));
  const judged = amended === null ? branch : branch.filter((c) => c.sha !== amended.sha);
  const history = logFacts(root, judged, config);
  const head = branch.at(-1)?.sha;
  const parents =
    amended !== null ? [...amended.parents, ...m.mergeHeads] : head === undefined ? [] : [head, ...m.mergeHeads];
  const changes = stagedChanges(root, stagedBase(amended));
  const self = stagedFacts(
    m,
    { sha: THIS_COMMIT, message: m.message, files: [], changes, parents, reverts: m.reverts },
    { ignore: m.ignore },
  );
  const verdict = evaluateTestFirst([...history, self], config.tdd).at(-1)!;
  return { verdict, amended, head };
}

/** The lines of a commit test-first blocks: the verdict, how an amend was judged, and how to keep the work. */
function testFirstBlocked(
  m: Making,
  judged: ReturnType<typeof testFirstVerdict>,
  conventional: { type: string; scope: string | null },
): string[] {
  const { config } = m.input;
  const { verdict, amended, head } = judged;
  const amendNote =
    amended !== null
      ? [
          `hestai: judged as git commit --amend: this commit replaces ${amended.sha.slice(0, 7)} "${amended.message.split('\n')[0]}", so it is judged as a new commit on that commit's parent, without it.`,
        ]
      : head !== undefined && m.amend.invocation().kind === 'unavailable'
        ? [
            'hestai: note: amending? This platform gives the hook no sign of git commit --amend (it reads /proc on Linux), so the commit was judged as a child of HEAD; replace HEAD in two steps instead: git reset --soft HEAD^ && git commit -c ORIG_HEAD',
          ]
        : [];
  return [
    `hestai: commit blocked by the test-first rule (tdd.policy ${config.tdd.policy}): ${verdict.message}`,
    ...amendNote,
    `hint: keep your work: unstage the implementation (git restore --staged <files>), commit the failing test as "test${conventional.scope ? `(${conventional.scope})` : ''}: ...", then commit this ${conventional.type} again. ` +
      'On purpose? Add a "TDD-Exempt: <reason>" trailer or set HESTAI_BYPASS="<reason>" (audited); hestai verify fails both unless the base\'s policy sets verify.exempt or verify.bypass to warn.',
  ];
}

/**
 * The commit-msg decision (docs/design.md §6, §7): a Conventional Commit header, the test-first rule against
 * the branch history since its base, and the HestAI trailers (plus `HestAI-Bypass` on a bypass).
 */
export function checkCommitMsg(input: CommitMsgInput): HookOutcome {
  const { root, config, env } = input;
  const { file, raw } = readMessageFile(root, input.file);
  const pass = (lines: string[] = []): HookOutcome => ({ exitCode: 0, lines, audit: [], session_id: null });
  if (!config.hooks.commit_msg) return pass();
  const bypass = readBypass(env);
  if (bypass.kind === 'empty') return { exitCode: 1, lines: EMPTY_BYPASS_LINES, audit: [], session_id: null };
  const options = messageOptions(root, raw, env);
  const message = cleanMessage(raw, options);
  const { session_id, trailers } = commitTrailers(input);
  const withTrailers = (outcome: HookOutcome): HookOutcome =>
    trailers.length === 0
      ? outcome
      : { ...outcome, rewrite: { file, content: appendTrailers(raw, trailers, options) } };
  // HEAD's branch and the merge being committed: git's answer, one `git rev-parse` (src/git/head.ts).
  const headNow = headState(root);
  const named = revertedSha(message);
  const m: Making = {
    input,
    message,
    reverts: named === null ? null : (resolveCommits(root, [named]).get(named) ?? null),
    ignore: ignoreRules(config.commit.ignore, config.commit.default_ignores),
    amend: amendProbe(root, env),
    mergeHeads: headNow.mergeHeads,
  };
  // A release tool's header is skipped only on a commit of release files (src/tdd/ignore.ts): read what it changes.
  const release =
    config.commit.default_ignores && isReleaseHeader(messageHeader(message))
      ? stagedChanges(root, stagedBase(m.amend.amendedHead()))
      : undefined;
  const facts = commitFacts(
    {
      sha: THIS_COMMIT,
      message,
      files: [],
      ...(release ? { changes: release } : {}),
      parents: ['HEAD', ...m.mergeHeads],
      reverts: m.reverts,
    },
    () => false,
    { ignore: m.ignore },
  );
  if (bypass.kind === 'reason') {
    trailers.push({ key: 'HestAI-Bypass', value: bypass.reason });
    return withTrailers({
      exitCode: 0,
      lines: [
        `hestai: WARNING: commit-msg checks bypassed (HESTAI_BYPASS="${bypass.reason}"); the commit carries HestAI-Bypass and the audit log records it.`,
      ],
      audit: [{ event: 'bypass', hook: 'commit-msg', session_id, reason: bypass.reason, header: facts.header }],
      session_id,
    });
  }
  const header = checkHeader(facts, config.commit);
  if (header.status === 'fail') {
    return {
      exitCode: 1,
      lines: [
        `hestai: commit blocked: ${header.message}.`,
        'hint: edit the message (git commit --amend is not needed: just commit again with a valid header).',
      ],
      audit: [],
      session_id,
    };
  }
  const notes = header.status === 'warn' ? [`hestai: warning: ${header.message}`] : [];
  if (facts.kind !== 'normal' || facts.conventional === null) return withTrailers({ ...pass(notes), session_id });
  const { type } = facts.conventional;
  if (type === 'test') return withTrailers({ exitCode: 0, lines: testCommitLines(m, notes), audit: [], session_id });
  if (!config.tdd.types.includes(type)) return withTrailers({ ...pass(notes), session_id });
  const judged = testFirstVerdict(m, headNow);
  if (judged.verdict.status === 'fail')
    return { exitCode: 1, lines: testFirstBlocked(m, judged, facts.conventional), audit: [], session_id };
  const lines =
    judged.verdict.status === 'warn'
      ? [...notes, `hestai: note: ${judged.verdict.message} (listed by hestai verify)`]
      : notes;
  return withTrailers({ exitCode: 0, lines, audit: [], session_id });
}
