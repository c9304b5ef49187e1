import { git, runGit } from './exec.js';
import { splitNul } from './parse.js';

/**
 * Files changed since `base` as the session protocol sees them: committed since `base`, staged, unstaged
 * and untracked (not ignored). With no base (a repository that had no commit), every file.
 */
export function changedSince(cwd: string, base: string | null): string[] {
  const files = new Set<string>();
  if (base !== null) {
    for (const f of splitNul(git(['diff', '--name-only', '-z', '--no-renames', base, '--'], { cwd }))) files.add(f);
  } else {
    for (const f of splitNul(git(['ls-files', '-z'], { cwd }))) files.add(f);
  }
  for (const f of splitNul(git(['ls-files', '-z', '--others', '--exclude-standard'], { cwd }))) files.add(f);
  return [...files];
}

/** Tracked and untracked (not ignored) files of the work tree. */
export function workTreeFiles(cwd: string): string[] {
  return splitNul(git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd }));
}

/** The number of commits reachable from HEAD but not from `base` (all of HEAD's with no base); 0 when unborn. */
export function commitCountSince(cwd: string, base: string | null): number {
  const result = runGit(['rev-list', '--count', 'HEAD', ...(base ? [`^${base}`] : []), '--'], { cwd, okCodes: [128] });
  return result.status === 0 ? Number(result.stdout.trim()) || 0 : 0;
}

/** The full sha of a commit named by a (possibly abbreviated) hex sha, or null when none. */
export function commitOfSha(cwd: string, sha: string): string | null {
  if (!/^[0-9a-f]{4,64}$/i.test(sha)) return null;
  const result = runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${sha}^{commit}`], {
    cwd,
    okCodes: [1, 128],
  });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The text of a file at a revision (`git show REV:PATH`), or null when it does not exist there. */
export function fileAtRevision(cwd: string, rev: string, file: string): string | null {
  const result = runGit(['show', '--end-of-options', `${rev}:${file}`], { cwd, okCodes: [128] });
  return result.status === 0 ? result.stdout : null;
}
