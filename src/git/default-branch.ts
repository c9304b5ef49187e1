import { runGit } from './exec.js';

/** Which branch is the repository's default, and how that was found (for init's output). */
export interface DefaultBranch {
  branch: string;
  /** `origin/HEAD`, `init.defaultBranch`, `the local branch master`, `the current branch`, or `none found`. */
  source: string;
}

/**
 * The repository's default branch as git knows it: the remote's (`refs/remotes/origin/HEAD`), else git's
 * `init.defaultBranch` when that local branch exists, else a local `main` or `master` (when only one of
 * them exists), else the branch HEAD names (also on a repository with no commit yet), else `main`.
 */
export function detectDefaultBranch(cwd: string): DefaultBranch {
  const origin = runGit(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], { cwd, okCodes: [1, 128] });
  if (origin.status === 0 && origin.stdout.trim().startsWith('origin/'))
    return { branch: origin.stdout.trim().slice('origin/'.length), source: 'origin/HEAD' };
  const locals = new Set(
    runGit(['for-each-ref', '--format=%(refname:short)', 'refs/heads/'], { cwd }).stdout.split('\n').filter(Boolean),
  );
  const configured = runGit(['config', '--get', 'init.defaultBranch'], { cwd, okCodes: [1] }).stdout.trim();
  if (configured !== '' && locals.has(configured)) return { branch: configured, source: 'init.defaultBranch' };
  const usual = ['main', 'master'].filter((b) => locals.has(b));
  if (usual.length === 1) return { branch: usual[0]!, source: `the local branch ${usual[0]}` };
  const head = runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd, okCodes: [1, 128] });
  if (head.status === 0 && head.stdout.trim() !== '')
    return { branch: head.stdout.trim(), source: 'the current branch' };
  return { branch: 'main', source: 'none found: the built-in default' };
}
