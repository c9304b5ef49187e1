import { git, runGit } from './exec.js';

/**
 * Stages `files` and commits exactly them (`git commit --only`: whatever else is staged stays staged and out
 * of the commit), with the hooks skipped (`--no-verify`); returns the new commit's sha. The caller decides
 * that the hooks may be skipped: `hestai init --commit` makes the adoption commit, which no session can
 * anchor since the constitutions it adds are not in any commit yet.
 */
export function commitOnly(cwd: string, files: readonly string[], message: string): string {
  runGit(['add', '--', ...files], { cwd });
  runGit(['commit', '--no-verify', '--quiet', '--only', '-m', message, '--', ...files], { cwd });
  return git(['rev-parse', 'HEAD'], { cwd }).trim();
}
