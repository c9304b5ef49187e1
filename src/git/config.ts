import { runGit } from './exec.js';

/** `git config KEY VALUE` in the repository's local config. */
export function configSet(cwd: string, key: string, value: string): void {
  runGit(['config', '--local', key, value], { cwd });
}
