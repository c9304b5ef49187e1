/**
 * Change records on the anchors branch (`hestai/anchors`): what a push of a work branch leaves for CI, so
 * that the squash of that branch on the default branch can be judged by the branch's own commits.
 *   changes/<tip>.json   {kind, version, branch, tip, tree, base, patch_id, pushed_at}
 * Each record's commit on the anchors branch has the branch tip as its second parent, so the branch's
 * commits travel with the anchors branch (and survive the branch's deletion after a squash). A record is
 * an index, never a verdict: `hestai verify` re-checks every fact it names from git objects. The pre-push
 * hook writes them (src/evidence/push-records.ts).
 */
import { runGit } from './exec.js';

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
 * `git patch-id --stable` of each commit's own change (against its first parent), by commit: two git processes
 * for all (`git log -p`, then `git patch-id`). A commit with an empty change has none.
 */
export function commitPatchIds(cwd: string, commits: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  if (commits.length === 0) return ids;
  const patches = runGit(['log', '--no-walk=unsorted', '-p', '--no-color', '--format=commit %H', ...commits], {
    cwd,
    okCodes: [128],
  });
  const out = runGit(['patch-id', '--stable'], { cwd, input: patches.stdout, okCodes: [128] }).stdout;
  for (const line of out.split('\n')) {
    const [pid = '', commit = ''] = line.split(' ');
    if (OID.test(pid) && OID.test(commit)) ids.set(commit, pid);
  }
  return ids;
}
