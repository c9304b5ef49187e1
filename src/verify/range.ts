import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceConfig } from '../config/schema.js';
import { usageError } from '../errors.js';
import { currentBranch, mergeBase, resolveCommit } from '../git/repo.js';
import type { Workspace } from '../workspace.js';

/** The commits `hestai verify` checks: everything reachable from `to` and not from `from` or `tdd.since`. */
export interface VerifyRange {
  /** The base (excluded), or null for "from the root". */
  from: string | null;
  to: string;
  /** Revision arguments for git log. */
  revisions: string[];
  /** Commits git only knows as shallow boundaries (their parents were not fetched). */
  shallow: Set<string>;
  /** Where `from` came from: `--from`, the merge-base with the default branch, `tdd.since`, or none. */
  base: 'explicit' | 'merge-base' | 'since' | 'root';
}

const FETCH_DEPTH_HINT =
  'In GitHub Actions set `fetch-depth: 0` on actions/checkout (or run `git fetch --unshallow`) so verify sees the whole range.';

/**
 * Resolves the range: explicit `--from`/`--to`, else `to` = HEAD and `from` = the merge-base with
 * `tdd.default_branch` (local, else `origin/<default>`); on the default branch itself, `tdd.since` or
 * the root. `tdd.since` is always excluded. In a shallow clone an unknown `from` is an error naming
 * `fetch-depth: 0`, never a silent pass.
 */
export function resolveRange(
  workspace: Workspace,
  config: WorkspaceConfig,
  options: { from?: string; to?: string },
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
  let from: string | null = null;
  let base: VerifyRange['base'] = 'root';
  if (options.from !== undefined) {
    base = 'explicit';
    from = resolveCommit(root, options.from);
    if (from === null) {
      throw usageError(
        `--from ${options.from} is not a commit in this repository${isShallow ? ' (this is a shallow clone: it may not have been fetched)' : ''}`,
        {
          code: isShallow ? 'SHALLOW' : 'BAD_REVISION',
          remedy: isShallow ? FETCH_DEPTH_HINT : 'Pass a branch, tag or sha that exists (git log --oneline).',
        },
      );
    }
  } else {
    const db = config.tdd.default_branch;
    if (currentBranch(root) !== db) {
      for (const ref of [`refs/heads/${db}`, `refs/remotes/origin/${db}`]) {
        if (resolveCommit(root, ref) !== null) {
          from = mergeBase(root, to, ref);
          if (from !== null) base = 'merge-base';
          break;
        }
      }
    }
    if (from === null) {
      from = since;
      if (since !== null) base = 'since';
    }
  }
  const revisions = [to, ...(from ? [`^${from}`] : []), ...(since && since !== from ? [`^${since}`] : [])];
  return { from, to, revisions, shallow, base };
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
