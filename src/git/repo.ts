import path from 'node:path';
import { ask, git, GitError, runGit, type GitQuestion } from './exec.js';
import {
  LOG_FORMAT,
  parseLog,
  parseNameStatus,
  parseStatusZ,
  splitNul,
  type FileChange,
  type LogCommit,
  type StatusEntry,
} from './parse.js';

/** What one `git rev-parse` call tells about the repository around `cwd`. */
export interface RepoInfo {
  /** Absolute path of this worktree's root. */
  root: string;
  /** Absolute path of this worktree's git dir (`.git`, or `.git/worktrees/NAME` in a linked worktree). */
  gitDir: string;
  /** Absolute path of the common git dir shared by all worktrees. */
  commonDir: string;
  /** True in a linked worktree (made with `git worktree add`). */
  isLinkedWorktree: boolean;
  isShallow: boolean;
}

/** What `git rev-parse` says of the repository around `cwd`: null when `cwd` is not inside a git work tree. */
export function repoInfoQuestion(cwd: string): GitQuestion<RepoInfo | null> {
  return {
    args: ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir', '--is-shallow-repository'],
    okCodes: [128],
    answer(result) {
      if (result.status !== 0) return null;
      const [root = '', gitDir = '', common = '', shallow = ''] = result.stdout.split('\n');
      if (root === '') return null;
      const commonDir = path.resolve(cwd, common);
      return {
        root: path.resolve(root),
        gitDir: path.resolve(gitDir),
        commonDir: path.resolve(commonDir),
        isLinkedWorktree: path.resolve(gitDir) !== path.resolve(commonDir),
        isShallow: shallow.trim() === 'true',
      };
    },
  };
}

/** Returns repository facts for `cwd`, or null when `cwd` is not inside a git work tree. */
export function repoInfo(cwd: string): RepoInfo | null {
  return ask(cwd, repoInfoQuestion(cwd));
}

const trimmedOrNull = (result: { status: number; stdout: string }) =>
  result.status === 0 ? result.stdout.trim() : null;

/** The checked-out branch name, or null on a detached HEAD. Works on an unborn branch. */
export const CURRENT_BRANCH: GitQuestion<string | null> = {
  args: ['symbolic-ref', '--quiet', '--short', 'HEAD'],
  okCodes: [1, 128],
  answer: trimmedOrNull,
};

/** The commit HEAD points at, or null in a repository without commits. */
export const HEAD_COMMIT: GitQuestion<string | null> = {
  args: ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'],
  okCodes: [1, 128],
  answer: trimmedOrNull,
};
export const headCommit = (cwd: string): string | null => ask(cwd, HEAD_COMMIT);

/** The commit a revision names, or null if it names none. */
export function resolveCommitQuestion(rev: string): GitQuestion<string | null> {
  return {
    args: ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`],
    okCodes: [1, 128],
    answer: trimmedOrNull,
  };
}
/** Resolves a revision to a commit sha, or null if it does not name a commit. */
export const resolveCommit = (cwd: string, rev: string): string | null => ask(cwd, resolveCommitQuestion(rev));

/** Working-tree status (`git status --porcelain=v1 -z`, untracked files included). */
export const STATUS: GitQuestion<StatusEntry[]> = {
  args: ['status', '--porcelain=v1', '-z', '--untracked-files=all'],
  answer: (result) => parseStatusZ(result.stdout),
};
export const status = (cwd: string): StatusEntry[] => ask(cwd, STATUS);

/** Tracked files (`git ls-files -z`). */
export const TRACKED_FILES: GitQuestion<string[]> = { args: ['ls-files', '-z'], answer: (r) => splitNul(r.stdout) };
export const trackedFiles = (cwd: string): string[] => ask(cwd, TRACKED_FILES);

/** Staged changes with their status (`git diff --cached --name-status -M -z [base]`: against HEAD, or `base`), renames with their similarity. */
export function stagedChanges(cwd: string, base?: string): FileChange[] {
  const against = base === undefined ? [] : [base];
  return parseNameStatus(splitNul(git(['diff', '--cached', '--name-status', '-M', '-z', ...against, '--'], { cwd })));
}

/**
 * The files under `dirs` (`''`: the whole tree) in commit `rev`'s tree, or in the index when `rev` is null:
 * one `git ls-tree` or `git ls-files`.
 */
export function filesUnder(cwd: string, rev: string | null, dirs: readonly string[]): string[] {
  const spec = dirs.includes('') ? [] : [...dirs];
  const args =
    rev === null ? ['ls-files', '-z', '--', ...spec] : ['ls-tree', '-r', '-z', '--name-only', rev, '--', ...spec];
  return splitNul(git(args, { cwd })).filter((f) => f !== '');
}

export interface LogOptions {
  /** Revision range arguments, e.g. `['base..HEAD']` or `['HEAD', '-n', '20']`. */
  range: readonly string[];
  /** Include the paths each commit changed (first parent). */
  withFiles?: boolean;
  /** Oldest first. */
  reverse?: boolean;
  /** Follow only the first parent of merges. */
  firstParent?: boolean;
}

/** Commits in a range, parsed, from one git process. */
export function logQuestion(options: LogOptions): GitQuestion<LogCommit[]> {
  const args = ['log', `--format=${LOG_FORMAT}`, '--no-color', '--no-renames'];
  if (options.withFiles) args.push('-z', '--name-only', '--diff-merges=first-parent');
  if (options.reverse) args.push('--reverse');
  if (options.firstParent) args.push('--first-parent');
  args.push(...options.range, '--');
  return {
    args,
    okCodes: [128],
    answer(result) {
      if (result.status === 0) return parseLog(result.stdout);
      // An unborn branch has no log; anything else is a real error.
      if (
        /does not have any commits yet|bad default revision|bad revision 'HEAD'|ambiguous argument 'HEAD'/.test(
          result.stderr,
        )
      )
        return [];
      throw new GitError(args, result.status, result.stderr);
    },
  };
}
export const log = (cwd: string, options: LogOptions): LogCommit[] => ask(cwd, logQuestion(options));

/**
 * The directory git runs this worktree's hooks from, absolute, as git resolves it: `core.hooksPath` with `~`
 * expanded and a relative path taken from the worktree root, else the common git dir's `hooks/`.
 */
export const HOOKS_DIR: GitQuestion<string> = {
  args: ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'],
  answer: (result) => result.stdout.replace(/\n$/, ''),
};

/** `git config --get KEY`, or null when unset. */
export function configGetQuestion(key: string): GitQuestion<string | null> {
  return {
    args: ['config', '--get', key],
    okCodes: [1],
    answer: (result) => (result.status === 0 ? result.stdout.replace(/\n$/, '') : null),
  };
}
export const configGet = (cwd: string, key: string): string | null => ask(cwd, configGetQuestion(key));

/** `git config --show-scope --get KEY`: the value and the scope git read it from (`local`, `global`, `system`, `worktree`, `command`), or null when unset. */
export function configScopeQuestion(key: string): GitQuestion<{ scope: string; value: string } | null> {
  return {
    args: ['config', '--show-scope', '--get', key],
    okCodes: [1],
    answer: (result) => {
      if (result.status !== 0) return null;
      const line = result.stdout.replace(/\n$/, '');
      const tab = line.indexOf('\t');
      return { scope: line.slice(0, tab), value: line.slice(tab + 1) };
    },
  };
}

/** The merge-base of two revisions, or null when they share no history or one is unknown. */
export function mergeBase(cwd: string, a: string, b: string): string | null {
  const result = runGit(['merge-base', a, b], { cwd, okCodes: [1, 128] });
  return result.status === 0 ? result.stdout.trim() : null;
}
