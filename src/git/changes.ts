import { askAsync, runGitAsync } from './async.js';
import { runGit } from './exec.js';
import { splitNul } from './parse.js';
import { resolveCommitQuestion } from './repo.js';

/**
 * Files changed since `base` as the session protocol sees them: committed since `base`, staged, unstaged
 * and untracked (not ignored), from two git processes at once. With no base (a repository that had no
 * commit), every file.
 */
export async function changedSinceAsync(cwd: string, base: string | null): Promise<string[]> {
  const committed = base !== null ? ['diff', '--name-only', '-z', '--no-renames', base, '--'] : ['ls-files', '-z'];
  const untracked = ['ls-files', '-z', '--others', '--exclude-standard'];
  const [a, b] = await Promise.all([runGitAsync(committed, { cwd }), runGitAsync(untracked, { cwd })]);
  return [...new Set([...splitNul(a.stdout), ...splitNul(b.stdout)])];
}

/** The full sha of a commit named by a (possibly abbreviated) hex sha, or null when none. */
export async function commitOfShaAsync(cwd: string, sha: string): Promise<string | null> {
  return /^[0-9a-f]{4,64}$/i.test(sha) ? askAsync(cwd, resolveCommitQuestion(sha)) : null;
}

/** The text of a file at a revision (`git show REV:PATH`), or null when it does not exist there. */
export function fileAtRevision(cwd: string, rev: string, file: string): string | null {
  const result = runGit(['show', '--end-of-options', `${rev}:${file}`], { cwd, okCodes: [128] });
  return result.status === 0 ? result.stdout : null;
}
