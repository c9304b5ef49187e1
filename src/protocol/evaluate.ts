import { globToRegExp } from '../tdd/glob.js';
import { commitShaOf, contentHashOf, evidencePathOf, evidenceWordingProblem, type EvidenceRecord } from './evidence.js';
import type { Facts } from './facts-types.js';
import type { Gate, Level } from './types.js';

export type GateStatus = 'PASS' | 'FAIL' | 'SKIPPED' | 'PENDING';

/** The seed's ValidateGateResult, per gate. */
export interface GateResult {
  phase: string;
  gate: string;
  step: string;
  requirement_level: Level;
  status: GateStatus;
  /** What proved it (or the evidence that was judged), or null. */
  evidence: string | null;
  blocking: boolean;
  message: string;
}

export interface EvaluateOptions {
  /** The pre-commit hook: gates with `pre_commit: false` are SKIPPED, command gates too. */
  preCommit?: boolean;
}

export const isGlob = (p: string) => /[*?[\]{}]/.test(p);

/** Compiled globs: a gate's pattern is matched against every file of the work tree. */
const globs = new Map<string, RegExp>();

/** Pure: does `pattern` (a path or a glob) match `file`? */
export function pathMatches(pattern: string, file: string): boolean {
  let re = globs.get(pattern);
  if (re === undefined && isGlob(pattern)) globs.set(pattern, (re = globToRegExp(pattern)));
  return re !== undefined ? re.test(file) : file === pattern || file.startsWith(`${pattern.replace(/\/$/, '')}/`);
}

/**
 * Pure: one gate's verdict over gathered facts and the recorded evidence. The gate (its level, whether it
 * blocks, its check) comes from the protocol file only. A fact that was not gathered is a FAIL ("could
 * not be checked"), never a PASS.
 */
export function evaluateGate(
  phase: string,
  gate: Gate,
  facts: Facts,
  evidence: readonly EvidenceRecord[],
  options: EvaluateOptions = {},
): GateResult {
  const base = { phase, gate: gate.id, step: gate.step, requirement_level: gate.level, blocking: gate.blocking };
  const pass = (message: string, ev: string | null = null): GateResult => ({
    ...base,
    status: 'PASS',
    evidence: ev,
    message,
  });
  const fail = (message: string, ev: string | null = null): GateResult => ({
    ...base,
    status: 'FAIL',
    evidence: ev,
    message,
  });
  const unknown = (what: string) => fail(`${what} could not be determined`);
  if (options.preCommit && !gate.pre_commit)
    return {
      ...base,
      status: 'SKIPPED',
      evidence: null,
      message: 'can only hold after the commit: not checked by pre-commit',
    };
  const check = gate.check;
  switch (check.type) {
    case 'file_exists': {
      const ok = facts.exists[check.path];
      if (ok === undefined) return unknown(`whether ${check.path} exists`);
      return ok ? pass(`${check.path} exists`, check.path) : fail(`${check.path} does not exist`);
    }
    case 'file_modified_since_start': {
      if (facts.changed === null) return unknown(`what changed since the start`);
      const changed = facts.changed.filter((f) => pathMatches(check.path, f));
      const hits = check.names_session === true ? changed.filter((f) => facts.naming_session?.includes(f)) : changed;
      if (hits.length === 0 && changed.length > 0)
        return fail(
          `${check.path} changed since the run started, but no changed file names session ${facts.session_id}`,
        );
      return hits.length > 0
        ? pass(
            `${check.path} changed since the run started (${hits.slice(0, 3).join(', ')}${hits.length > 3 ? ', ...' : ''})`,
            hits[0]!,
          )
        : fail(`${check.path} has not changed since the run started (${facts.started_at})`);
    }
    case 'command': {
      if (options.preCommit)
        return {
          ...base,
          status: 'SKIPPED',
          evidence: null,
          message: 'command gates run at validate/advance/end, not on every commit',
        };
      const outcome = facts.commands[check.run];
      if (outcome === undefined)
        return { ...base, status: 'PENDING', evidence: null, message: `not run yet: \`${check.run}\`` };
      if (!outcome.ran) return fail(`\`${check.run}\` not run: ${outcome.reason ?? 'workspace not trusted'}`);
      if (outcome.timed_out)
        return fail(`\`${check.run}\` timed out after ${check.timeout_ms} ms`, outcome.tail || null);
      return outcome.exit_code === 0
        ? pass(`\`${check.run}\` exited 0`, outcome.tail || `exit 0`)
        : fail(`\`${check.run}\` exited ${outcome.exit_code}`, outcome.tail || null);
    }
    case 'git_commit_since_start': {
      if (facts.commits_since_start === null) return unknown('the commits since the start');
      return facts.commits_since_start > 0
        ? pass(`${facts.commits_since_start} commit(s) since ${facts.starting_commit?.slice(0, 7) ?? 'the start'}`)
        : fail(`no commit since ${facts.starting_commit?.slice(0, 7) ?? 'the start'}`);
    }
    case 'git_clean': {
      if (facts.dirty === null) return unknown('the working tree status');
      return facts.dirty.length === 0
        ? pass('the working tree is clean')
        : fail(
            `uncommitted changes: ${facts.dirty.slice(0, 5).join(', ')}${facts.dirty.length > 5 ? `, and ${facts.dirty.length - 5} more` : ''}`,
          );
    }
    case 'branch_not': {
      if (facts.branch === undefined) return unknown('the branch');
      if (facts.branch === null) return fail('HEAD is detached: work on a named branch');
      return check.branches.includes(facts.branch)
        ? fail(`working on ${facts.branch} (not allowed: ${check.branches.join(', ')})`)
        : pass(`on branch ${facts.branch}`, facts.branch);
    }
    case 'anchor_valid': {
      if (facts.anchor === undefined) return unknown('the anchor');
      return facts.anchor.valid ? pass(facts.anchor.reason) : fail(facts.anchor.reason);
    }
    case 'context_fresh': {
      if (facts.context === undefined) return unknown('the context age');
      return facts.context.fresh ? pass(facts.context.reason) : fail(facts.context.reason);
    }
    case 'tests_first': {
      const t = facts.tests_first;
      if (t === undefined) return unknown('the test-first verdicts');
      return t.ok
        ? pass(`test-first holds over ${t.judged} commit(s) of the run`)
        : fail(`test-first fails: ${t.failures.slice(0, 3).join('; ')}`);
    }
    case 'evidence':
      return evaluateEvidence(base, gate, check.accepts, check.path, facts, evidence);
    case 'git_state':
      return evaluateGitState(base, gate, facts, evidence);
  }
}

/** Hex words of 7 or more digits in a text (abbreviated or full commit shas). */
const HEX_WORDS = /\b[0-9a-f]{7,64}\b/gi;

/**
 * Pure: a git_state gate. The newest recorded output of git must say something (the wording rule) and name
 * what git says now: the current branch (or that HEAD is detached) and HEAD or the run's starting commit.
 */
function evaluateGitState(
  base: Omit<GateResult, 'status' | 'evidence' | 'message'>,
  gate: Gate,
  facts: Facts,
  evidence: readonly EvidenceRecord[],
): GateResult {
  const mine = evidence.filter((e) => e.phase === base.phase && e.step === gate.id && e.type === 'tool_output');
  if (mine.length === 0)
    return { ...base, status: 'PENDING', evidence: null, message: 'no git output recorded (tool_output)' };
  const head = facts.head;
  if (head === undefined)
    return { ...base, status: 'FAIL', evidence: null, message: 'the git state could not be determined' };
  const shas = [head.sha, facts.starting_commit].filter((s): s is string => s !== null);
  const want = `branch ${head.branch ?? '(detached HEAD)'}, HEAD ${head.sha?.slice(0, 7) ?? '(no commit)'}`;
  let first: GateResult | null = null;
  for (const e of [...mine].reverse()) {
    const wording = evidenceWordingProblem(e.value, gate.step);
    const text = e.value;
    const namesBranch =
      head.branch === null
        ? /detached|no branch/i.test(text)
        : text
            .split(/[\s:()[\]'"`]+/)
            .some((w) => w === head.branch || w.endsWith(`/${head.branch}`) || w.startsWith(`${head.branch}...`));
    const namesCommit =
      shas.length === 0 || (text.match(HEX_WORDS) ?? []).some((h) => shas.some((s) => s.startsWith(h.toLowerCase())));
    if (wording === null && namesBranch && namesCommit)
      return { ...base, status: 'PASS', evidence: e.value, message: `the recorded git state matches git (${want})` };
    first ??= {
      ...base,
      status: 'FAIL',
      evidence: e.value,
      message:
        wording !== null
          ? `${wording} (git says: ${want})`
          : `the recorded git state does not match git (${want}): record the output of \`git status -sb && git log -1 --oneline\``,
    };
  }
  return first!;
}

function evaluateEvidence(
  base: Omit<GateResult, 'status' | 'evidence' | 'message'>,
  gate: Gate,
  accepts: readonly string[],
  path: string | undefined,
  facts: Facts,
  evidence: readonly EvidenceRecord[],
): GateResult {
  const mine = evidence.filter((e) => e.phase === base.phase && e.step === gate.id);
  if (mine.length === 0)
    return {
      ...base,
      status: 'PENDING',
      evidence: null,
      message: `no evidence recorded (accepts ${accepts.join(', ')})`,
    };
  let lastProblem = '';
  let lastValue: string | null = null;
  // Newest first: the most recent acceptable record proves the gate.
  for (const e of [...mine].reverse()) {
    const problem = evidenceProblem(e, gate, accepts, path, facts);
    if (problem === null) return { ...base, status: 'PASS', evidence: e.value, message: `${e.type} evidence accepted` };
    if (lastValue === null) {
      lastProblem = problem;
      lastValue = e.value;
    }
  }
  return { ...base, status: 'FAIL', evidence: lastValue, message: lastProblem };
}

/** Pure: why one evidence record does not satisfy the gate, or null when it does. */
export function evidenceProblem(
  e: EvidenceRecord,
  gate: Gate,
  accepts: readonly string[],
  path: string | undefined,
  facts: Facts,
): string | null {
  if (!accepts.includes(e.type)) return `${e.type} evidence does not satisfy this gate (accepts ${accepts.join(', ')})`;
  switch (e.type) {
    case 'tool_output':
    case 'manual':
      return evidenceWordingProblem(e.value, gate.step);
    case 'file_path': {
      const p = evidencePathOf(e.value);
      if (p === null) return `file_path ${JSON.stringify(e.value)} is not a path inside the repository`;
      if (path !== undefined && !pathMatches(path, p)) return `file_path ${p} does not match ${path}`;
      const exists = facts.evidence_files[p];
      if (exists === undefined) return `whether ${p} exists could not be determined`;
      return exists ? null : `file_path ${p} does not exist`;
    }
    case 'commit_sha': {
      const sha = commitShaOf(e.value);
      if (sha === null) return `commit_sha ${JSON.stringify(e.value)} is not a commit sha (7 to 64 hex digits)`;
      const full = facts.evidence_commits[sha];
      if (full === undefined) return `whether ${sha} is a commit could not be determined`;
      return full === null ? `commit_sha ${sha} names no commit in this repository` : null;
    }
    case 'content_hash': {
      const hash = contentHashOf(e.value);
      if (hash === null)
        return `content_hash ${JSON.stringify(e.value)} is not a sha256 (64 hex digits, optionally "sha256:")`;
      if (path === undefined) return 'this gate names no file to hash (check.path)';
      const actual = facts.hashes[path];
      if (actual === undefined) return `the sha256 of ${path} could not be determined`;
      if (actual === null) return `${path} does not exist`;
      return actual === hash
        ? null
        : `content_hash does not match ${path} (its sha256 is ${actual.slice(0, 12)}…; read the current file)`;
    }
  }
}
