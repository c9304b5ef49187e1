import { runGit } from './exec.js';

/** The text of `file` in the tree of commit `rev`, or null when the commit has no such file. */
export function fileAtCommit(cwd: string, rev: string, file: string): string | null {
  const result = runGit(['cat-file', 'blob', `${rev}:${file}`], { cwd, okCodes: [128] });
  return result.status === 0 ? result.stdout : null;
}
