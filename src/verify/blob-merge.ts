/**
 * Merges at the speed of their shape (issue 40 item 2): a two-parent merge whose sides changed disjoint paths
 * since their merge base is what git's merge makes of it exactly when each path of the result is the side that
 * changed it (mode and blob id), so it is decided from blob ids with no content merge. Only a merge this cannot
 * pass (a path changed on both sides, a path taken from the wrong side, a folder one side removed while the
 * other added to it, which git's directory-rename detection moves) goes to git's re-merge for its verdict.
 */
import type { CatFileSession } from '../git/anchors.js';
import type { TreeChanges, TreeDiffSession, TreeEntry } from '../git/merge.js';

const same = (a: TreeEntry, b: TreeEntry) => a.mode === b.mode && a.oid === b.oid;
const ABSENT = '000000';

/** The folders holding `path` (not the root): `a/b/c.txt` is in `a/b` and `a`. */
function folders(path: string): string[] {
  const out: string[] = [];
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) out.push(path.slice(0, i));
  return out;
}

/**
 * Pure: whether a merge is decided from blob ids. `second` is its second parent's change since the merge base,
 * `result` the merge's change from its first parent. The merge must change exactly the paths the second side
 * changed, each from the base's entry (the first side left it as it was) to the second side's entry (mode and
 * blob id). Then the folders to look up (`null`: git's re-merge decides): a folder the second side added to
 * must still be in the first parent, and one it deleted from must still be in the second, or git's
 * directory-rename detection could have moved the other side's files.
 */
export function decideByBlobs(second: TreeChanges, result: TreeChanges): { parent: 0 | 1; folder: string }[] | null {
  if (result.size !== second.size) return null;
  const look = new Map<string, { parent: 0 | 1; folder: string }>();
  for (const [path, c] of second) {
    const r = result.get(path);
    if (r === undefined || !same(r.old, c.old) || !same(r.new, c.new)) return null;
    const parent = c.old.mode === ABSENT ? 0 : c.new.mode === ABSENT ? 1 : null;
    if (parent !== null) for (const folder of folders(path)) look.set(`${parent}:${folder}`, { parent, folder });
  }
  return [...look.values()];
}

/**
 * The merges of `merges` (each with its one merge base) decided clean from blob ids: the run's `git diff-tree
 * --stdin` asked once for the sides and results of them all, then, only if some merge needs it, the run's
 * `git cat-file` once for the folders a directory rename could have moved.
 */
export async function cleanByBlobs(
  git: { trees: TreeDiffSession; objects: CatFileSession },
  merges: readonly { sha: string; parents: readonly string[]; base: string }[],
): Promise<Set<string>> {
  const clean = new Set<string>();
  const pairs = merges.flatMap((m) => [
    { from: m.base, to: m.parents[1]! },
    { from: m.parents[0]!, to: m.sha },
  ]);
  const changes = await git.trees.changes(pairs);
  if (changes === null) return clean;
  const lookups: { sha: string; specs: string[] }[] = [];
  merges.forEach((m, i) => {
    const folders = decideByBlobs(changes[2 * i]!, changes[2 * i + 1]!);
    if (folders === null) return;
    if (folders.length === 0) clean.add(m.sha);
    else lookups.push({ sha: m.sha, specs: folders.map((f) => `${m.parents[f.parent]}:${f.folder}`) });
  });
  if (lookups.length === 0) return clean;
  const found = await git.objects.ask(
    lookups.flatMap((l) => l.specs),
    { content: false },
  );
  const folder = (spec: string) => {
    const o = found.get(spec);
    return o?.found === true && o.type === 'tree';
  };
  for (const l of lookups) if (l.specs.every(folder)) clean.add(l.sha);
  return clean;
}
