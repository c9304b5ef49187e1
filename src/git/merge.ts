/** What a merge would have been without hand edits: git's own automatic merge of its parents. */
import { catFileBatch } from './anchors.js';
import { runGit } from './exec.js';
import { splitNul } from './parse.js';

/**
 * The tree of the automatic merge of two commits (`git merge-tree --write-tree`, git 2.38+; writes objects,
 * touches no ref, index or worktree; conflicted files hold diff3 markers) and the paths it left conflicted. Null when git cannot say (older git).
 */
export function automaticMerge(
  cwd: string,
  first: string,
  second: string,
  options: { allowUnrelated?: boolean } = {},
): { tree: string; conflicted: string[] } | null {
  const unrelated = options.allowUnrelated ? ['--allow-unrelated-histories'] : [];
  const result = runGit(
    ['-c', 'merge.conflictStyle=diff3', 'merge-tree', '--write-tree', ...unrelated, '--name-only', '-z', first, second],
    {
      cwd,
      okCodes: [1, 128, 129],
    },
  );
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

/**
 * Which commits really revert the commit they name, as `git revert` makes them: the named commit changes
 * something and is in the history of the reverting commit's first parent, and reverting it there (git's own
 * three-way merge with the named commit as base, {@link revertedTree}) gives exactly the reverting commit's
 * tree. Changes made elsewhere in the files since do not matter; the same change at another place does. One
 * `git cat-file --batch-check` for every pair's trees, then three git processes per pair that can be one.
 */
export function realReverts(
  cwd: string,
  pairs: readonly { sha: string; parent: string; reverts: string }[],
): Set<string> {
  const real = new Set<string>();
  if (pairs.length === 0) return real;
  const specs = pairs.flatMap((p) => [`${p.sha}^{tree}`, `${p.reverts}^{tree}`, `${p.reverts}^^{tree}`]);
  const trees = catFileBatch(cwd, specs, { content: false });
  const oid = (spec: string) => {
    const found = trees.get(spec);
    return found?.found ? found.oid : null;
  };
  for (const p of pairs) {
    const [tree, after, before] = [oid(`${p.sha}^{tree}`), oid(`${p.reverts}^{tree}`), oid(`${p.reverts}^^{tree}`)];
    if (tree === null || after === null || before === null || after === before) continue;
    const ancestor = runGit(['merge-base', '--is-ancestor', p.reverts, p.parent], { cwd, okCodes: [1, 128] });
    if (ancestor.status === 0 && revertedTree(cwd, p.parent, p.reverts, before) === tree) real.add(p.sha);
  }
  return real;
}

/**
 * The tree `git revert <commit>` gives on top of `onto` (which has `commit` in its history), or null when it
 * conflicts: a scratch child of `commit` holding its parent's tree (`before`), merged with `onto` by
 * `git merge-tree --write-tree`, whose merge base is then `commit` itself, as in git revert's own merge.
 */
function revertedTree(cwd: string, onto: string, commit: string, before: string): string | null {
  const undo = scratchMergeCommit(cwd, before, [commit], 'hestai: re-computed revert');
  const result = runGit(['merge-tree', '--write-tree', '--no-messages', onto, undo], { cwd, okCodes: [1, 128, 129] });
  const tree = result.stdout.split('\n', 1)[0]!.trim();
  return result.status === 0 && /^[0-9a-f]{40,64}$/.test(tree) ? tree : null;
}

/**
 * For each subject, the newest commit with that subject, or that subject and a squash merge's " (#N)", among
 * the ancestors of `tips` (one `git log` for all): where a `Revert "<header>"` looks for the commit it undoes when its body names none of the history.
 */
export function newestBySubject(
  cwd: string,
  tips: readonly string[],
  subjects: readonly string[],
): Map<string, string> {
  const found = new Map<string, string>();
  if (tips.length === 0 || subjects.length === 0) return found;
  const greps = [...new Set(subjects)].map((s) => `--grep=${s}`);
  const result = runGit(['log', '-F', ...greps, '--format=%H%x00%s', ...tips, '--'], { cwd, okCodes: [128] });
  if (result.status !== 0) return found;
  const wanted = new Set(subjects);
  for (const line of result.stdout.split('\n')) {
    const [sha, subject] = line.split('\0');
    // A squash merge's subject ends " (#N)": "fix: x (#12)" is the commit a `Revert "fix: x"` undoes.
    const bare = subject?.replace(/ \(#\d+\)$/, '');
    for (const s of new Set([subject, bare])) {
      if (sha && s !== undefined && wanted.has(s) && !found.has(s)) found.set(s, sha);
    }
  }
  return found;
}

/**
 * A commit object for an intermediate automatic merge (an octopus is re-computed one parent at a time, and
 * `git merge-tree` takes commits) or a re-computed revert: written to the object store, referenced by nothing.
 */
export function scratchMergeCommit(
  cwd: string,
  tree: string,
  parents: readonly string[],
  message = 'hestai: re-computed merge',
): string {
  return runGit(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], {
    cwd,
    env: {
      GIT_AUTHOR_NAME: 'hestai',
      GIT_AUTHOR_EMAIL: 'hestai@localhost',
      GIT_COMMITTER_NAME: 'hestai',
      GIT_COMMITTER_EMAIL: 'hestai@localhost',
      GIT_AUTHOR_DATE: '@0 +0000',
      GIT_COMMITTER_DATE: '@0 +0000',
    },
  }).stdout.trim();
}
