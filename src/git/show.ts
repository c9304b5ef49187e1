import { ask, type GitQuestion } from './exec.js';

/** The text of `file` in the tree of commit `rev`, or null when the commit has no such file. */
export function fileAtCommitQuestion(rev: string, file: string): GitQuestion<string | null> {
  return {
    args: ['cat-file', 'blob', `${rev}:${file}`],
    okCodes: [128],
    answer: (result) => (result.status === 0 ? result.stdout : null),
  };
}
export const fileAtCommit = (cwd: string, rev: string, file: string): string | null =>
  ask(cwd, fileAtCommitQuestion(rev, file));
