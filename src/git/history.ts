import { runGit } from './exec.js';
import { logFormat, logNonce, parseLog, type LogCommit } from './parse.js';

export interface HistoryOptions {
  /** Revisions to include and exclude, e.g. `['HEAD', '^refs/heads/main']`. */
  revisions: readonly string[];
  /** Leave merge commits out (the hook: merges are not judged and consume nothing). */
  noMerges?: boolean;
  /** Parents before children (`--topo-order`), for ranges with merges. */
  topoOrder?: boolean;
}

/**
 * Commits (oldest first) with their changed paths and each path's status (added, modified, deleted,
 * renamed with its similarity), in ONE git process (`git log -z --name-status -M`), or an error when
 * git refused a revision (unknown ref, unborn HEAD): the caller decides what that means.
 */
export function history(cwd: string, options: HistoryOptions): { commits: LogCommit[] } | { error: string } {
  const nonce = logNonce();
  const result = runGit(historyArgs(options, nonce), { cwd, okCodes: [128] });
  if (result.status !== 0) return { error: result.stderr.trim() };
  return { commits: parseLog(result.stdout, true, nonce) };
}

/** The `git log` arguments of {@link history} (`nonce` marks its records; see `logFormat`). */
export function historyArgs(options: HistoryOptions, nonce: string): string[] {
  const args = [
    'log',
    `--format=${logFormat(nonce)}`,
    '--no-color',
    '-M',
    '-z',
    '--name-status',
    '--diff-merges=first-parent',
    '--reverse',
  ];
  if (options.noMerges) args.push('--no-merges');
  if (options.topoOrder) args.push('--topo-order');
  args.push(...options.revisions, '--');
  return args;
}

/**
 * Which of `shas` name a commit in this repository (ONE `git cat-file --batch-check`): the real reverts'
 * `This reverts commit <sha>` lines. Returns a map from each given sha to the full sha, or null.
 */
export function resolveCommits(cwd: string, shas: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const unique = [...new Set(shas)].filter((s) => /^[0-9a-f]{7,64}$/.test(s));
  for (const s of shas) out.set(s, null);
  if (unique.length === 0) return out;
  const result = runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    cwd,
    input: unique.map((s) => `${s}^{commit}\n`).join(''),
    okCodes: [128],
  });
  const lines = result.stdout.split('\n');
  unique.forEach((s, i) => {
    const m = /^([0-9a-f]{40,64}) commit$/.exec(lines[i] ?? '');
    out.set(s, m ? m[1]! : null);
  });
  return out;
}
