import { runGit } from './exec.js';
import { LOG_FORMAT, parseLog, splitNul, type LogCommit } from './parse.js';

/** What `commit.cleanup` and `core.commentChar` say, read with one git process. */
export interface CommitMessageConfig {
  /** `core.commentChar` as configured (`#` when unset; may be `auto`). */
  commentChar: string;
  cleanup: 'strip' | 'whitespace' | 'verbatim' | 'scissors' | 'default';
}

/** Pure: parses `git config -z --get-regexp` output (`key\nvalue\0` records). */
export function parseCommitMessageConfig(output: string): CommitMessageConfig {
  const result: CommitMessageConfig = { commentChar: '#', cleanup: 'default' };
  for (const record of splitNul(output)) {
    const nl = record.indexOf('\n');
    const key = (nl === -1 ? record : record.slice(0, nl)).toLowerCase();
    const value = nl === -1 ? '' : record.slice(nl + 1);
    if (key === 'core.commentchar' && value !== '') result.commentChar = value;
    if (key === 'commit.cleanup' && ['strip', 'whitespace', 'verbatim', 'scissors', 'default'].includes(value)) {
      result.cleanup = value as CommitMessageConfig['cleanup'];
    }
  }
  return result;
}

/** `core.commentChar` and `commit.cleanup` in one git process. */
export function commitMessageConfig(cwd: string): CommitMessageConfig {
  const result = runGit(['config', '-z', '--get-regexp', '^(core\\.commentchar|commit\\.cleanup)$'], { cwd, okCodes: [1] });
  return parseCommitMessageConfig(result.status === 0 ? result.stdout : '');
}

/** Pure: the comment character git picks for `core.commentChar=auto` (the first not starting any line). */
export function autoCommentChar(message: string): string {
  const starts = new Set(message.split('\n').map((line) => line[0]));
  for (const candidate of '#;@!$%^&|:') if (!starts.has(candidate)) return candidate;
  return '#';
}

export interface HistoryOptions {
  /** Revisions to include and exclude, e.g. `['HEAD', '^refs/heads/main']`. */
  revisions: readonly string[];
  /** Leave merge commits out (the hook: merges are not judged and consume nothing). */
  noMerges?: boolean;
  /** Parents before children (`--topo-order`), for ranges with merges. */
  topoOrder?: boolean;
}

/**
 * Commits (oldest first) with their changed paths, in ONE git process (`git log -z --name-only`), or
 * null when git refused a revision (unknown ref, unborn HEAD): the caller decides what that means.
 */
export function history(cwd: string, options: HistoryOptions): { commits: LogCommit[] } | { error: string } {
  const args = ['log', `--format=${LOG_FORMAT}`, '--no-color', '--no-renames', '-z', '--name-only', '--diff-merges=first-parent', '--reverse'];
  if (options.noMerges) args.push('--no-merges');
  if (options.topoOrder) args.push('--topo-order');
  args.push(...options.revisions, '--');
  const result = runGit(args, { cwd, okCodes: [128] });
  if (result.status !== 0) return { error: result.stderr.trim() };
  return { commits: parseLog(result.stdout) };
}
