import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceConfig } from '../config/schema.js';
import { usageError } from '../errors.js';
import { configGet, resolveCommit } from '../git/repo.js';
import { baseFromEvent } from './ci-event.js';
import type { Workspace } from '../workspace.js';

/** The commits `hestai verify` checks: everything reachable from `to` and not from `from` or `tdd.since`. */
export interface VerifyRange {
  /** The base (excluded). */
  from: string;
  to: string;
  /** Revision arguments for git log. */
  revisions: string[];
  /** Commits git only knows as shallow boundaries (their parents were not fetched). */
  shallow: Set<string>;
}

/** The base of the range, decided outside the branch under test, and where it came from. */
export interface VerifyBase {
  rev: string;
  /** `--from`, `pull_request base.sha`, `push before`, `origin/HEAD`, ... */
  source: string;
}

const FETCH_DEPTH_HINT =
  'In GitHub Actions set `fetch-depth: 0` on actions/checkout (or run `git fetch --unshallow`) so verify sees the whole range.';

const NO_BASE_REMEDY =
  'Pass the base explicitly (`npx hestai verify --from origin/main`), or run `git remote set-head origin --auto` so origin/HEAD names the default branch (git clone sets it; actions/checkout does not: in GitHub Actions use the hestai action, which reads the event, with `fetch-depth: 0`).';

function readEvent(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw usageError(`cannot read the GitHub event ${file} (GITHUB_EVENT_PATH): ${(error as Error).message}`, {
      code: 'NO_BASE',
      remedy: NO_BASE_REMEDY,
    });
  }
}

function commitOrThrow(root: string, rev: string, what: string, isShallow: boolean): string {
  const sha = resolveCommit(root, rev);
  if (sha !== null) return sha;
  throw usageError(
    `${what} ${rev} is not a commit in this repository${isShallow ? ' (this is a shallow clone: it may not have been fetched)' : ''}`,
    {
      code: isShallow ? 'SHALLOW' : 'BAD_REVISION',
      remedy: isShallow ? FETCH_DEPTH_HINT : 'Pass a branch, tag or sha that exists (git log --oneline).',
    },
  );
}

/**
 * The base decides, even which base: `--from` when given (the workflow's explicit choice), else in GitHub
 * Actions the event's base (src/verify/ci-event.ts), else `origin/HEAD`, the remote's default branch
 * (in a repository with no `origin` remote at all, the local default branch).
 * Never the branch's own config (`tdd.default_branch` names local branches, not what CI judges against).
 * A base that cannot be resolved is an error with the remedy, never a fallback.
 */
export function resolveBase(workspace: Workspace, options: { from?: string }, env: NodeJS.ProcessEnv = {}): VerifyBase {
  const root = workspace.root;
  const isShallow = workspace.repo?.isShallow ?? false;
  if (options.from !== undefined)
    return { rev: commitOrThrow(root, options.from, '--from', isShallow), source: '--from' };
  const eventName = env['GITHUB_EVENT_NAME'];
  const eventPath = env['GITHUB_EVENT_PATH'];
  if (env['GITHUB_ACTIONS'] === 'true' && eventName && eventPath) {
    const event = baseFromEvent(eventName, readEvent(eventPath));
    if (event !== null && 'error' in event)
      throw usageError(`${event.error} (GITHUB_EVENT_PATH ${eventPath})`, {
        code: 'NO_BASE',
        remedy: NO_BASE_REMEDY,
      });
    if (event !== null) {
      const sha = resolveCommit(root, event.rev);
      if (sha === null)
        throw usageError(
          `the base named by the ${event.source} of the GitHub event (${event.rev}) is not in this clone`,
          { code: 'SHALLOW', remedy: `${FETCH_DEPTH_HINT} For a force push whose old tip is gone, pass --from.` },
        );
      return { rev: sha, source: event.source };
    }
  }
  const head = resolveCommit(root, 'refs/remotes/origin/HEAD');
  if (head === null && configGet(root, 'remote.origin.url') === null) {
    // A repository with no remote at all (a developer's own, or a worktree of one): its local default
    // branch, named by git's init.defaultBranch (user config, not the branch's files), else main.
    const name = configGet(root, 'init.defaultBranch') ?? 'main';
    const local = resolveCommit(root, `refs/heads/${name}`);
    if (local !== null) return { rev: local, source: `${name} (no origin remote)` };
  }
  if (head === null)
    throw usageError(
      'verify cannot tell which base this range merges into: no --from, no GitHub event naming a base, and origin/HEAD is not set',
      { code: 'NO_BASE', remedy: NO_BASE_REMEDY },
    );
  return { rev: head, source: 'origin/HEAD' };
}

/**
 * The range from a resolved base: `to` (default HEAD) minus the base, minus `tdd.since` of the policy
 * (history before adoption is not judged). In a shallow clone an unknown `tdd.since` is an error naming
 * `fetch-depth: 0`, never a silent pass.
 */
export function resolveRange(
  workspace: Workspace,
  config: WorkspaceConfig,
  options: { from: string; to?: string },
): VerifyRange {
  const root = workspace.root;
  const isShallow = workspace.repo?.isShallow ?? false;
  const shallow = isShallow ? readShallow(workspace) : new Set<string>();
  const to = resolveCommit(root, options.to ?? 'HEAD');
  if (to === null) {
    throw usageError(`--to ${options.to ?? 'HEAD'} is not a commit in this repository`, {
      code: 'BAD_REVISION',
      remedy: 'Pass a branch, tag or sha that exists (git log --oneline).',
    });
  }
  const since = config.tdd.since ? resolveCommit(root, config.tdd.since) : null;
  if (config.tdd.since && since === null) {
    throw usageError(
      `tdd.since ${config.tdd.since} is not a commit in this repository${isShallow ? ' (this is a shallow clone)' : ''}`,
      {
        code: isShallow ? 'SHALLOW' : 'CONFIG_INVALID',
        remedy: isShallow ? FETCH_DEPTH_HINT : 'Set tdd.since in .hestai_workspace.yaml to an existing commit.',
      },
    );
  }
  const from = options.from;
  const revisions = [to, `^${from}`, ...(since && since !== from ? [`^${since}`] : [])];
  return { from, to, revisions, shallow };
}

/** `--policy REV`: the commit whose config judges the range instead of the base (auditing a branch's own history). */
export function resolvePolicyCommit(workspace: Workspace, rev: string): string {
  return commitOrThrow(workspace.root, rev, '--policy', workspace.repo?.isShallow ?? false);
}

function readShallow(workspace: Workspace): Set<string> {
  try {
    const text = fs.readFileSync(path.join(workspace.repo!.commonDir, 'shallow'), 'utf8');
    return new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    );
  } catch {
    return new Set();
  }
}

/** The error for a range that reaches a shallow boundary: part of it is not in this clone. */
export function shallowRangeError(sha: string) {
  return usageError(
    `this is a shallow clone and the range reaches ${sha.slice(0, 7)}, whose parents were not fetched: part of the range is hidden, so verify cannot pass it`,
    {
      code: 'SHALLOW',
      remedy: FETCH_DEPTH_HINT,
    },
  );
}
