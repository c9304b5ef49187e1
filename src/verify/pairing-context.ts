import type { WorkspaceConfig } from '../config/schema.js';
import { anyCommit, commitSet, firstCommitIn } from '../git/log-stream.js';
import { mergeBase, resolveCommit } from '../git/repo.js';
import type { VerifyRange } from './range.js';

/**
 * Where test-first looks for a commit's test: its ancestry since its branch's base, whatever range is
 * reported (docs/enforcement.md, "Split pushes"). A push verified with `--from <previous tip>` reports
 * only the new commits, but their test commits may have come in an earlier push: they are judged
 * against the same history the commit-msg hook saw.
 *
 * The base is the merge-base of `to` with the remote's default branch (`origin/HEAD`, else
 * `tdd.default_branch`, local or `origin/<default>`) when
 * `to` is not on it; on the default branch (or with no default branch), `tdd.since` or the root.
 * Returns the revisions of that history for `git log`, `tdd.since` always excluded.
 */
export function pairingRevisions(
  root: string,
  config: Pick<WorkspaceConfig, 'tdd'>,
  to: string,
  since: string | null,
): { revisions: string[]; base: string | null; onDefault: boolean } {
  let base: string | null = null;
  let onDefault = false;
  const db = config.tdd.default_branch;
  for (const ref of ['refs/remotes/origin/HEAD', `refs/heads/${db}`, `refs/remotes/origin/${db}`]) {
    if (resolveCommit(root, ref) === null) continue;
    const mb = mergeBase(root, to, ref);
    if (mb !== null && mb !== to) base = mb;
    onDefault = mb === to;
    break;
  }
  const revisions = [
    to,
    ...(base !== null ? [`^${base}`] : []),
    ...(since !== null && since !== base ? [`^${since}`] : []),
  ];
  return { revisions, base: base ?? since, onDefault };
}

/**
 * The commits test-first judges the range's commits against: whatever the base (a push verified
 * from its previous tip), their ancestry since the branch's base ({@link pairingRevisions}), read in
 * the same `git log`, with the commits of that history outside the range (`outside`: reported on by no
 * verdict); the range itself when that history does not contain it all, or reaches a shallow boundary
 * (then the range is judged alone, as before).
 */
export async function pairingContext(
  root: string,
  range: VerifyRange,
  pairing: { revisions: string[] } | null,
): Promise<{ revisions: string[]; outside: ReadonlySet<string> }> {
  const alone = { revisions: range.revisions, outside: new Set<string>() };
  if (pairing === null) return alone;
  const excluded = pairing.revisions.filter((r) => r.startsWith('^'));
  const rangeExcluded = range.revisions.filter((r) => r.startsWith('^'));
  // A range commit outside the history: one the history's exclusions reach (its base is an ancestor of `to`).
  for (const x of excluded) {
    if (rangeExcluded.includes(x)) continue;
    if (anyCommit(root, [x.slice(1), ...rangeExcluded])) return alone;
  }
  if (range.shallow.size > 0 && (await firstCommitIn(root, pairing.revisions, range.shallow)) !== null) return alone;
  // The history's commits that are not in the range: those `from` reaches.
  const outside = await commitSet(root, [range.from, ...excluded]);
  return { revisions: pairing.revisions, outside };
}
