/**
 * The squash of a branch verified test-first (docs/enforcement.md, "Merge styles"): a commit on the default
 * branch that fails test-first passes when a change record (src/git/change-records.ts) names a branch tip
 * whose change it is, and that branch's own commits pass test-first. Everything is re-checked from git
 * objects: the record only says where to look.
 *   - matched by tree: the tip's tree is the commit's tree (the branch was up to date with the default branch);
 *   - else by `git patch-id --stable`: the change from the branch's base to its tip is the commit's change.
 * The branch's base must be an ancestor of both the tip and the commit.
 */
import type { WorkspaceConfig } from '../config/schema.js';
import { catFileBatch, isAncestor } from '../git/anchors.js';
import { patchId, type ChangeRecord } from '../git/change-records.js';
import { history } from '../git/history.js';
import { evaluateTestFirst } from '../tdd/rule.js';
import { logFacts } from './log-facts.js';

export interface SquashOf {
  /** The pushed branch (`refs/heads/...`) and its tip. */
  branch: string;
  tip: string;
  /** How many commits the branch had since its base. */
  commits: number;
  matched_by: 'tree' | 'patch-id';
}

/**
 * For each of `shas` (single-parent commits failing test-first), the branch it squashes when that branch
 * was test-first commit by commit; commits with no such evidence are absent. Starts git only when a
 * change record exists.
 */
export function squashEvidence(
  root: string,
  shas: readonly { sha: string; parent: string }[],
  config: Pick<WorkspaceConfig, 'tdd' | 'commit'>,
  published: readonly ChangeRecord[],
): Map<string, SquashOf> {
  const found = new Map<string, SquashOf>();
  if (shas.length === 0) return found;
  const records = published.filter((r) => r.base !== null);
  if (records.length === 0) return found;
  const trees = catFileBatch(root, [...shas.map((s) => `${s.sha}^{tree}`), ...records.map((r) => `${r.tip}^{tree}`)], {
    content: false,
  });
  const treeOf = (spec: string) => {
    const t = trees.get(spec);
    return t && t.found ? t.oid : null;
  };
  const judged = new Map<string, boolean>();
  const branchPasses = (r: ChangeRecord): number | null => {
    const result = history(root, { revisions: [r.tip, `^${r.base}`], topoOrder: true });
    if ('error' in result || result.commits.length === 0) return null;
    const key = `${r.tip} ${r.base}`;
    if (!judged.has(key)) {
      const facts = logFacts(root, result.commits, config);
      const verdicts = evaluateTestFirst(facts, { ...config.tdd, where: 'branch' });
      judged.set(
        key,
        verdicts.every((v) => v.status !== 'fail'),
      );
    }
    return judged.get(key) ? result.commits.length : null;
  };
  const sound = (r: ChangeRecord, sha: string) => isAncestor(root, r.base!, r.tip) && isAncestor(root, r.base!, sha);
  for (const { sha, parent } of shas) {
    const tree = treeOf(`${sha}^{tree}`);
    let match: { record: ChangeRecord; by: SquashOf['matched_by'] } | null = null;
    for (const r of records) {
      if (tree !== null && treeOf(`${r.tip}^{tree}`) === tree && sound(r, sha)) {
        match = { record: r, by: 'tree' };
        break;
      }
    }
    if (match === null) {
      const own = patchId(root, parent, sha);
      if (own !== null) {
        for (const r of records) {
          if (r.patch_id !== own || !sound(r, sha)) continue;
          if (patchId(root, r.base!, r.tip) !== own) continue; // the record's claim, re-computed
          match = { record: r, by: 'patch-id' };
          break;
        }
      }
    }
    if (match === null) continue;
    const commits = branchPasses(match.record);
    if (commits === null) continue;
    found.set(sha, { branch: match.record.branch, tip: match.record.tip, commits, matched_by: match.by });
  }
  return found;
}
