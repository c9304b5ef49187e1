/**
 * What a push leaves on `hestai/anchors` (the pre-push hook's one writer of it):
 *   changes/<tip>.json                a pushed work branch's change record (src/git/change-records.ts), and
 *   coverage/<session>/<sha256>.json  per session its pushed commits cite, those commits by id and `git patch-id`
 *                                     and the branch's patch-id (issue 39: a commit citing a session counts under
 *                                     verify.signatures only when its owner's coverage lists it),
 * in ONE commit per pushed ref, signed when git signs (src/git/anchors.ts). The change record's commit has the
 * branch tip as second parent, so the branch's commits travel with the anchors branch.
 */
import { createHash } from 'node:crypto';
import { ANCHORS_REF, anchorStoreHead, writeAnchorStore, type StoreFile } from '../git/anchors.js';
import { CHANGES_DIR, commitPatchIds, patchId, type ChangeRecord } from '../git/change-records.js';
import { runGit } from '../git/exec.js';
import { splitNul } from '../git/parse.js';
import type { CoverageRecord } from './schemas.js';

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const ZERO = /^0+$/;
const SESSION = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The most commits one coverage record lists (its schema's cap). */
const MAX_COVERED = 10_000;

export interface PushedRef {
  /** The remote ref, e.g. `refs/heads/feat/x`. */
  branch: string;
  tip: string;
  /** The remote's tip before the push (all zeros: a new ref). */
  remoteTip: string;
  /** A work branch (a change record); false for the default branch. */
  work: boolean;
}

/** The tips the anchors branch records a change of already. */
function recordedTips(cwd: string): Set<string> {
  const recorded = new Set<string>();
  if (anchorStoreHead(cwd).tip === null) return recorded;
  const out = runGit(['ls-tree', '-z', '--name-only', '--full-tree', `${ANCHORS_REF}:${CHANGES_DIR}`], {
    cwd,
    okCodes: [128],
  });
  for (const name of splitNul(out.stdout)) recorded.add(name.replace(/\.json$/, ''));
  return recorded;
}

/** The merge-base of `tip` with the first of `bases` that has one. */
function baseOf(cwd: string, tip: string, bases: readonly string[]): string | null {
  for (const ref of bases) {
    const mb = runGit(['merge-base', tip, ref], { cwd, okCodes: [1, 128] });
    if (mb.status === 0) return mb.stdout.trim();
  }
  return null;
}

/** The change record of a pushed work branch. */
function changeRecord(cwd: string, ref: PushedRef, tree: string, base: string | null, at: Date): ChangeRecord {
  return {
    kind: 'hestai.change',
    version: 1,
    branch: ref.branch,
    tip: ref.tip,
    tree,
    base,
    patch_id: base === null || base === ref.tip ? null : patchId(cwd, base, ref.tip),
    pushed_at: at.toISOString(),
  };
}

/**
 * The commits of `tip` the remote did not have (not behind `exclude`: the remote's tips and the branch's base),
 * grouped by the session each cites (its last `HestAI-Session` trailer), each with its `git patch-id --stable`.
 * Three git processes: the log, the patches, patch-id.
 */
export function sessionCommits(
  cwd: string,
  tip: string,
  exclude: readonly string[],
): Map<string, { id: string; patch_id: string | null }[]> {
  const log = runGit(
    [
      'log',
      '-z',
      '--no-merges',
      '--ignore-missing',
      `--max-count=${MAX_COVERED}`,
      '--format=%H%x00%(trailers:key=HestAI-Session,valueonly,separator=%x2C)',
      tip,
      ...(exclude.length > 0 ? ['--not', ...exclude] : []),
    ],
    { cwd, okCodes: [128] },
  );
  const bySession = new Map<string, string[]>();
  const fields = splitNul(log.stdout);
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const id = fields[i]!.trim();
    const session = fields[i + 1]!.split(',').pop()!.trim();
    if (!OID.test(id) || !SESSION.test(session)) continue;
    bySession.set(session, [...(bySession.get(session) ?? []), id]);
  }
  const patchIds = commitPatchIds(cwd, [...bySession.values()].flat());
  const out = new Map<string, { id: string; patch_id: string | null }[]>();
  for (const [session, list] of bySession)
    out.set(
      session,
      list.map((id) => ({ id, patch_id: patchIds.get(id) ?? null })),
    );
  return out;
}

/** The coverage records of one pushed ref, one per session its new commits cite. */
function coverageFiles(
  cwd: string,
  ref: PushedRef,
  exclude: readonly string[],
  patch: string | null,
  at: Date,
): StoreFile[] {
  const files: StoreFile[] = [];
  for (const [session, commits] of sessionCommits(cwd, ref.tip, exclude)) {
    const record: CoverageRecord = {
      kind: 'hestai.coverage',
      version: 1,
      session_id: session,
      branch: ref.branch,
      tip: ref.tip,
      patch_id: patch,
      commits,
      pushed_at: at.toISOString(),
    };
    const content = `${JSON.stringify(record, null, 2)}\n`;
    const digest = createHash('sha256').update(content).digest('hex');
    files.push({ path: `coverage/${session}/${digest}.json`, content });
  }
  return files;
}

/**
 * For each pushed ref the anchors branch does not record yet: one commit holding the work branch's change
 * record and the coverage records of its new commits (the default branch: coverage only). `bases` are the
 * refs whose merge-base with a tip is its base (the remote's default branch first); `remoteRefs` are what
 * the remote is known to have (its remote-tracking refs). Returns the tips recorded.
 */
export function recordPush(
  cwd: string,
  pushed: readonly PushedRef[],
  options: { bases: readonly string[]; remoteRefs: readonly string[]; at: Date },
): string[] {
  if (pushed.length === 0) return [];
  const recorded = recordedTips(cwd);
  const done: string[] = [];
  for (const ref of pushed) {
    if (recorded.has(ref.tip) || !OID.test(ref.tip)) continue;
    const tree = runGit(['rev-parse', '--verify', '--quiet', `${ref.tip}^{tree}`], { cwd, okCodes: [1, 128] });
    if (tree.status !== 0) continue;
    const base = ref.work ? baseOf(cwd, ref.tip, options.bases) : null;
    const change = ref.work ? changeRecord(cwd, ref, tree.stdout.trim(), base, options.at) : null;
    const exclude = [...options.remoteRefs, ...(base ? [base] : [])];
    if (!ZERO.test(ref.remoteTip) && OID.test(ref.remoteTip)) exclude.push(ref.remoteTip);
    const files = coverageFiles(cwd, ref, exclude, change?.patch_id ?? null, options.at);
    if (change !== null)
      files.unshift({ path: `${CHANGES_DIR}/${ref.tip}.json`, content: `${JSON.stringify(change, null, 2)}\n` });
    if (files.length === 0) continue;
    writeAnchorStore(cwd, files, `hestai: ${change ? 'change record' : 'coverage'} ${ref.branch}`, {
      tip: anchorStoreHead(cwd).tip,
      merge: change ? ref.tip : null,
      at: options.at,
    });
    recorded.add(ref.tip);
    done.push(ref.tip);
  }
  return done;
}
