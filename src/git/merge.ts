/** What a merge would have been without hand edits: git's own automatic merge of its parents. */
import { runGit } from './exec.js';
import { splitNul } from './parse.js';

/**
 * The tree of the automatic merge of two commits (`git merge-tree --write-tree`, git 2.38+; writes objects,
 * touches no ref, index or worktree) and the paths it left conflicted. Null when git cannot say (older git).
 */
export function automaticMerge(
  cwd: string,
  first: string,
  second: string,
): { tree: string; conflicted: string[] } | null {
  const result = runGit(['merge-tree', '--write-tree', '--name-only', '-z', first, second], {
    cwd,
    okCodes: [1, 128, 129],
  });
  if (result.status !== 0 && result.status !== 1) return null;
  const cut = result.stdout.indexOf('\0\0');
  const head = splitNul(cut === -1 ? result.stdout : result.stdout.slice(0, cut + 1));
  const tree = head[0] ?? '';
  if (!/^[0-9a-f]{40,64}$/.test(tree)) return null;
  return { tree, conflicted: result.status === 1 ? head.slice(1) : [] };
}

/** Paths whose content differs between two trees (or commits), one `git diff-tree` process. */
export function differingPaths(cwd: string, a: string, b: string): string[] {
  return splitNul(runGit(['diff-tree', '-r', '--no-renames', '--name-only', '-z', a, b], { cwd }).stdout);
}
