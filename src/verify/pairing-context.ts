import type { WorkspaceConfig } from '../config/schema.js';
import { mergeBase, resolveCommit } from '../git/repo.js';

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
