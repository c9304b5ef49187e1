import fs from 'node:fs';
import path from 'node:path';
import { hasValidAnchor } from '../records/anchor.js';
import { contextAgeHours, isContextOld } from '../records/freshness.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { askAsync } from '../git/async.js';
import { changedSinceAsync, commitOfShaAsync } from '../git/changes.js';
import { CURRENT_BRANCH, HEAD_COMMIT, STATUS } from '../git/repo.js';
import { rangeFactsAsync, workTreeFilesAsync, type RangeFacts } from '../git/snapshot.js';
import { isInside, type WorkspacePaths } from '../paths.js';
import { isAcknowledged, readSession } from '../records/session.js';
import { commitFacts } from '../tdd/commit.js';
import { evaluateTestFirst } from '../tdd/rule.js';
import { testFileMatcher } from '../tdd/test-files.js';
import { runProcess } from '../util/run-process.js';
import { sha256HexBytes } from '../util/sha256.js';
import { commitShaOf, evidencePathOf, type EvidenceRecord } from './evidence.js';
import { isGlob, pathMatches } from './evaluate.js';
import { emptyFacts, type CommandOutcome, type Facts } from './facts-types.js';
import type { RecordedResult } from './store.js';
import { commandTrust } from './trust.js';
import { gateKey, type Gate } from './types.js';

export interface GatherInput {
  paths: WorkspacePaths;
  config: WorkspaceConfig;
  env: NodeJS.ProcessEnv;
  now: Date;
  session_id: string;
  started_at: string;
  starting_commit: string | null;
  /** The gates to gather facts for, with their phase. */
  gates: ReadonlyArray<{ phase: string; gate: Gate }>;
  evidence: readonly EvidenceRecord[];
  /** Run `command` checks now (validate, advance, end); otherwise use the recorded results. */
  runCommands: boolean;
  recorded: Readonly<Record<string, RecordedResult>>;
  /** sha256 of the files file_modified_since_start watches, taken when the run started. */
  baseline?: Readonly<Record<string, string>> | undefined;
}

/**
 * Every git fact the gates need, gathered ahead by {@link prefetchGitFacts}: git processes that run
 * concurrently and never block the caller (a hook waits on the slowest, not the sum; the MCP server keeps
 * answering meanwhile). {@link factsOf} asks git nothing itself.
 */
export interface GitPrefetch {
  /** The work tree's files (tracked, and untracked not ignored). */
  files?: string[];
  range?: RangeFacts;
  /** Files changed since the starting commit, for `file_modified_since_start` without a baseline. */
  changed?: string[];
  /** Uncommitted paths (`git_clean`). */
  dirty?: string[];
  /** HEAD's branch and commit (`branch_not`, `git_state`). */
  head?: { branch: string | null; sha: string | null };
  /** The commit each `commit_sha` evidence names (null: none). */
  commits?: Record<string, string | null>;
}

/** The git facts the gates (and the evidence) need. */
function gitNeeds(input: Pick<GatherInput, 'gates' | 'baseline' | 'evidence'>) {
  const types = new Set(input.gates.map((g) => g.gate.check.type));
  const globs = input.gates.some(({ gate }) => gate.check.type === 'file_exists' && isGlob(gate.check.path));
  const modified = types.has('file_modified_since_start');
  const shas = input.evidence.flatMap((e) => {
    const sha = e.type === 'commit_sha' ? commitShaOf(e.value) : null;
    return sha === null ? [] : [sha];
  });
  return {
    files: globs || (modified && input.baseline !== undefined),
    changed: modified && input.baseline === undefined,
    range: types.has('tests_first') || types.has('git_commit_since_start'),
    commits: types.has('tests_first'),
    dirty: types.has('git_clean'),
    head: types.has('branch_not') || types.has('git_state'),
    shas: [...new Set(shas)],
  };
}

/** HEAD's branch and commit, as git says them. */
async function headOf(root: string): Promise<{ branch: string | null; sha: string | null }> {
  const [branch, sha] = await Promise.all([askAsync(root, CURRENT_BRANCH), askAsync(root, HEAD_COMMIT)]);
  return { branch, sha };
}

/** Starts every git process the gates need at once and waits for all of them. */
export async function prefetchGitFacts(
  input: Pick<GatherInput, 'paths' | 'gates' | 'baseline' | 'starting_commit' | 'evidence'>,
): Promise<GitPrefetch> {
  const needs = gitNeeds(input);
  const root = input.paths.root;
  const [files, range, changed, dirty, head, commits] = await Promise.all([
    needs.files ? workTreeFilesAsync(root) : undefined,
    needs.range ? rangeFactsAsync(root, input.starting_commit, { commits: needs.commits }) : undefined,
    needs.changed ? changedSinceAsync(root, input.starting_commit) : undefined,
    needs.dirty ? askAsync(root, STATUS).then((entries) => entries.map((e) => e.path)) : undefined,
    needs.head ? headOf(root) : undefined,
    Promise.all(needs.shas.map(async (sha) => [sha, await commitOfShaAsync(root, sha)] as const)),
  ]);
  return {
    ...(files ? { files } : {}),
    ...(range ? { range } : {}),
    ...(changed ? { changed } : {}),
    ...(dirty ? { dirty } : {}),
    ...(head ? { head } : {}),
    commits: Object.fromEntries(commits),
  };
}

/** A git fact {@link prefetchGitFacts} gathered (the needs above say which). */
function gathered<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`internal: the git fact "${what}" was not gathered`);
  return value;
}

/**
 * The baseline of `file_modified_since_start`: the sha256 of every work-tree file matching one of the
 * patterns, taken at `session start`. A file counts as modified when its content differs from it (so a
 * file that was merely untracked or dirty before the run started does not count).
 */
export function takeBaseline(
  root: string,
  patterns: readonly string[],
  files: readonly string[],
): Record<string, string> {
  const baseline: Record<string, string> = {};
  for (const f of files) {
    if (!patterns.some((p) => pathMatches(p, f))) continue;
    const hash = sha256OfFile(root, f);
    if (hash !== null) baseline[f] = hash;
  }
  return baseline;
}

/** Inside the worktree after resolving symlinks (a committed symlink must not prove a file elsewhere). */
function existsInside(root: string, rel: string): boolean {
  const full = path.join(root, rel);
  try {
    const real = fs.realpathSync(full);
    const realRoot = fs.realpathSync(root);
    return isInside(realRoot, real) && fs.statSync(real).isFile();
  } catch {
    return false;
  }
}

/** The largest report a `names_session` check reads for the session id. */
const MAX_REPORT_BYTES = 1024 * 1024;

/** The changed files a `names_session` check watches that contain the session id (undefined: no such check). */
function namingSession(input: GatherInput, root: string, changed: string[] | null): string[] | undefined {
  const patterns = input.gates.flatMap(({ gate }) =>
    gate.check.type === 'file_modified_since_start' && gate.check.names_session === true ? [gate.check.path] : [],
  );
  if (patterns.length === 0 || changed === null) return undefined;
  return changed.filter((f) => {
    if (!patterns.some((p) => pathMatches(p, f)) || !existsInside(root, f)) return false;
    const full = path.join(root, f);
    if (fs.statSync(full).size > MAX_REPORT_BYTES) return false;
    return fs.readFileSync(full, 'utf8').includes(input.session_id);
  });
}

/** sha256 of a file's bytes, or null when it is not a file inside the worktree. */
function sha256OfFile(root: string, rel: string): string | null {
  return existsInside(root, rel) ? sha256HexBytes(fs.readFileSync(path.join(root, rel))) : null;
}

/**
 * Gathers exactly the facts the given gates need: one git call per kind of fact, none for gates that
 * need none. Commands run only when asked and only in a trusted workspace.
 */
export async function gatherFacts(input: GatherInput): Promise<Facts> {
  const facts = factsOf(input, await prefetchGitFacts(input));
  for (const { phase, gate } of input.gates) {
    const check = gate.check;
    if (check.type !== 'command' || check.run in facts.commands) continue;
    const outcome = input.runCommands
      ? await runCommand(input.paths.root, input.env, check.run, check.timeout_ms)
      : recordedOutcome(input.recorded[gateKey(phase, gate.id)]);
    if (outcome !== undefined) facts.commands[check.run] = outcome;
  }
  return facts;
}

/** Every fact but command outcomes, from the git facts gathered ahead (the pre-commit hook's path too). */
export function factsOf(input: GatherInput, git: GitPrefetch): Facts {
  const { paths, config } = input;
  const root = paths.root;
  const facts = emptyFacts(input.session_id, input.started_at, input.starting_commit);
  const types = new Set(input.gates.map((g) => g.gate.check.type));
  const allFiles = () => gathered(git.files, 'files');

  for (const { gate } of input.gates) {
    const check = gate.check;
    if (check.type === 'file_exists') {
      facts.exists[check.path] = isGlob(check.path)
        ? allFiles().some((f) => pathMatches(check.path, f) && existsInside(root, f))
        : existsInside(root, check.path);
    } else if (check.type === 'evidence' && check.path !== undefined && check.accepts.includes('content_hash')) {
      facts.hashes[check.path] = sha256OfFile(root, check.path);
    }
  }
  if (types.has('file_modified_since_start')) {
    if (input.baseline === undefined) facts.changed = gathered(git.changed, 'changed');
    else {
      const baseline = input.baseline;
      const patterns = input.gates.flatMap(({ gate }) =>
        gate.check.type === 'file_modified_since_start' ? [gate.check.path] : [],
      );
      const candidates = new Set(
        [...allFiles(), ...Object.keys(baseline)].filter((f) => patterns.some((p) => pathMatches(p, f))),
      );
      facts.changed = [...candidates].filter((f) => sha256OfFile(root, f) !== (baseline[f] ?? null));
    }
    const naming = namingSession(input, root, facts.changed);
    if (naming !== undefined) facts.naming_session = naming;
  }
  const needsCommits = types.has('tests_first');
  const range = needsCommits || types.has('git_commit_since_start') ? gathered(git.range, 'range') : null;
  if (types.has('git_commit_since_start')) facts.commits_since_start = range!.count;
  if (types.has('git_clean')) facts.dirty = gathered(git.dirty, 'dirty');
  if (types.has('branch_not')) facts.branch = gathered(git.head, 'head').branch;
  if (types.has('git_state')) facts.head = gathered(git.head, 'head');
  if (types.has('anchor_valid')) {
    const check = hasValidAnchor(paths, input.session_id);
    facts.anchor = check.valid
      ? { valid: true, reason: `session ${input.session_id} holds a valid anchor` }
      : { valid: false, reason: `not anchored: ${check.reason}` };
  }
  if (types.has('context_fresh')) {
    const session = readSession(paths, input.session_id);
    if (session === null) facts.context = { fresh: false, reason: `session ${input.session_id} is not active` };
    else {
      const hours = contextAgeHours(session, input.now);
      const limit = config.freshness.max_age_hours;
      facts.context = !isContextOld(session, input.now, limit)
        ? { fresh: true, reason: `context generated ${Math.floor(hours)} h ago (limit ${limit} h)` }
        : isAcknowledged(session, input.now, limit)
          ? { fresh: true, reason: `context ${Math.floor(hours)} h old, acknowledged` }
          : {
              fresh: false,
              reason: `context generated ${Math.floor(hours)} h ago, older than freshness.max_age_hours (${limit} h), not acknowledged`,
            };
    }
  }
  if (types.has('tests_first')) {
    const commits = range!.commits ?? [];
    const isTest = testFileMatcher(config.tdd.test_globs);
    const verdicts = evaluateTestFirst(
      commits.map((c) =>
        commitFacts({ sha: c.sha, message: c.message, files: c.files, parents: c.parents.length }, isTest),
      ),
      config.tdd,
    );
    const failures = verdicts.filter((v) => v.status === 'fail').map((v) => `${v.sha.slice(0, 7)}: ${v.message}`);
    facts.tests_first = { ok: failures.length === 0, failures, judged: verdicts.length };
  }
  for (const e of input.evidence) {
    if (e.type === 'file_path') {
      const p = evidencePathOf(e.value);
      if (p !== null && !(p in facts.evidence_files)) facts.evidence_files[p] = existsInside(root, p);
    } else if (e.type === 'commit_sha') {
      const sha = commitShaOf(e.value);
      if (sha !== null && !(sha in facts.evidence_commits))
        facts.evidence_commits[sha] = gathered(git.commits, 'commits')[sha] ?? null;
    }
  }
  return facts;
}

/** A recorded command result as an outcome (the pre-commit hook and the read-only views never run commands). */
function recordedOutcome(recorded: RecordedResult | undefined): CommandOutcome | undefined {
  if (recorded === undefined || recorded.status === 'PENDING' || recorded.status === 'SKIPPED') return undefined;
  if (recorded.status === 'FAIL' && recorded.evidence === null)
    return { ran: false, exit_code: null, timed_out: false, tail: '', reason: recorded.message };
  return { ran: true, exit_code: recorded.status === 'PASS' ? 0 : 1, timed_out: false, tail: recorded.evidence ?? '' };
}

async function runCommand(
  root: string,
  env: NodeJS.ProcessEnv,
  run: string,
  timeoutMs: number,
): Promise<CommandOutcome> {
  const trust = commandTrust(root, env);
  if (!trust.trusted)
    return { ran: false, exit_code: null, timed_out: false, tail: '', reason: trust.reason, remedy: trust.remedy };
  const result = await runProcess('/bin/sh', ['-c', run], { cwd: root, env: trust.env, timeoutMs });
  const tail = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-5).join('\n').slice(-500);
  if (result.startError) return { ran: false, exit_code: null, timed_out: false, tail: '', reason: result.startError };
  return { ran: true, exit_code: result.status, timed_out: result.timedOut, tail };
}
