/**
 * Change records on the anchors branch (`hestai/anchors`): what a push of a work branch leaves for CI, so
 * that the squash of that branch on the default branch can be judged by the branch's own commits.
 *   changes/<tip>.json   {kind, version, branch, tip, tree, base, patch_id, pushed_at}
 * Each record's commit on the anchors branch has the branch tip as its second parent, so the branch's
 * commits travel with the anchors branch (and survive the branch's deletion after a squash). A record is
 * an index, never a verdict: `hestai verify` re-checks every fact it names from git objects.
 */
import { ANCHORS_REF, anchorStoreHead, writeAnchorStore } from './anchors.js';
import { runGit } from './exec.js';
import { splitNul } from './parse.js';

export const CHANGES_DIR = 'changes';

export interface ChangeRecord {
  kind: 'hestai.change';
  version: 1;
  /** The pushed ref, e.g. `refs/heads/feat/json`. */
  branch: string;
  tip: string;
  /** The tip's tree. */
  tree: string;
  /** The merge-base of the tip with the default branch at push time (null: none known). */
  base: string | null;
  /** `git patch-id --stable` of `git diff <base> <tip>` (null without a base). */
  patch_id: string | null;
  pushed_at: string;
}

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The diff flags both sides of a patch-id comparison use. */
const DIFF = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--full-index', '--binary'];

/** `git patch-id --stable` of the change from `from` to `to` (two git processes), or null when it is empty. */
export function patchId(cwd: string, from: string, to: string): string | null {
  const diff = runGit([...DIFF, from, to, '--'], { cwd, okCodes: [128] });
  if (diff.status !== 0 || diff.stdout === '') return null;
  const id = runGit(['patch-id', '--stable'], { cwd, input: diff.stdout }).stdout.split(' ')[0] ?? '';
  return OID.test(id) ? id : null;
}

/**
 * Adds a change record for each pushed branch tip the anchors branch does not record yet, each in one
 * commit whose second parent is the tip (one `fast-import` each). `bases` are the refs whose merge-base
 * with the tip is its base (the remote's default branch first). Returns the tips recorded.
 */
export function recordChanges(
  cwd: string,
  pushed: readonly { branch: string; tip: string }[],
  bases: readonly string[],
  at: Date,
): string[] {
  if (pushed.length === 0) return [];
  const recorded = new Set<string>();
  if (anchorStoreHead(cwd).tip !== null) {
    const out = runGit(['ls-tree', '-z', '--name-only', '--full-tree', `${ANCHORS_REF}:${CHANGES_DIR}`], {
      cwd,
      okCodes: [128],
    });
    for (const name of splitNul(out.stdout)) recorded.add(name.replace(/\.json$/, ''));
  }
  const done: string[] = [];
  for (const { branch, tip } of pushed) {
    if (recorded.has(tip) || !OID.test(tip)) continue;
    const tree = runGit(['rev-parse', '--verify', '--quiet', `${tip}^{tree}`], { cwd, okCodes: [1, 128] });
    if (tree.status !== 0) continue;
    let base: string | null = null;
    for (const ref of bases) {
      const mb = runGit(['merge-base', tip, ref], { cwd, okCodes: [1, 128] });
      if (mb.status === 0) {
        base = mb.stdout.trim();
        break;
      }
    }
    const record: ChangeRecord = {
      kind: 'hestai.change',
      version: 1,
      branch,
      tip,
      tree: tree.stdout.trim(),
      base,
      patch_id: base === null || base === tip ? null : patchId(cwd, base, tip),
      pushed_at: at.toISOString(),
    };
    const content = `${JSON.stringify(record, null, 2)}\n`;
    writeAnchorStore(cwd, [{ path: `${CHANGES_DIR}/${tip}.json`, content }], `hestai: change record ${branch}`, {
      tip: anchorStoreHead(cwd).tip,
      merge: tip,
      at,
    });
    recorded.add(tip);
    done.push(tip);
  }
  return done;
}
