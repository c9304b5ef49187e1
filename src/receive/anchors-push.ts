/**
 * A push to `hestai/anchors` as the server receives it (issue 43): append-only (no commit deletes or changes a
 * file, against any of its parents; the old tip stays an ancestor) and bounded (every blob it adds fits the
 * cap the one reader of the branch reads: src/evidence/store.ts BLOB_CAP). The pushed objects may still be in
 * quarantine: git names them to the hook's git commands (GIT_QUARANTINE_PATH, GIT_ALTERNATE_OBJECT_DIRECTORIES).
 */
import { catFileBatch } from '../git/anchors.js';
import { runGit } from '../git/exec.js';
import { nulFields } from '../git/nul-stream.js';
import { BLOB_CAP } from '../evidence/store.js';
import { STORE_PATH } from '../evidence/history.js';
import { isZero, type RefUpdate } from './updates.js';

export interface Refusal {
  ref: string;
  /** `<commit7> <header>` or the ref itself. */
  what: string;
  rule: string;
  message: string;
  remedy: string;
}

const short = (oid: string) => oid.slice(0, 7);
const RULE = 'anchors-append-only';
/** The blobs one push may add to the branch, counted before any is read (a store grows by a few per commit). */
export const MAX_ADDED = 10_000;

function refusal(u: RefUpdate, what: string, message: string, remedy: string, rule = RULE): Refusal {
  return { ref: u.ref, what, rule, message, remedy };
}

/** A published file the new tip no longer holds as it was (one path, or ''): old tip against new, whatever lies between. */
function lostFiles(root: string, u: RefUpdate): string {
  const diff = runGit(['diff', '--no-renames', '--diff-filter=DMT', '--name-only', u.old, u.new], { cwd: root });
  const paths = diff.stdout.split('\n').filter((p) => p !== '');
  return paths.length === 0 ? '' : `${paths[0]}${paths.length > 1 ? ` and ${paths.length - 1} more file(s)` : ''}`;
}

export async function checkAnchorsPush(root: string, u: RefUpdate): Promise<Refusal[]> {
  if (isZero(u.new))
    return [
      refusal(
        u,
        u.ref,
        'deleting hestai/anchors deletes every published record: the branch is append-only',
        'none: keep the branch (git push never needs to delete it)',
      ),
    ];
  const rewrite =
    !isZero(u.old) && runGit(['merge-base', '--is-ancestor', u.old, u.new], { cwd: root, okCodes: [1] }).status !== 0;
  if (rewrite)
    return [
      refusal(
        u,
        u.ref,
        `the push does not descend from the published tip ${short(u.old)}: it rewrites published history (hestai/anchors is append-only)`,
        'git fetch origin hestai/anchors:refs/remotes/origin/hestai/anchors && git push origin HEAD (the pre-push hook joins both lines and publishes them)',
      ),
    ];
  const refusals: Refusal[] = [];
  const added = new Map<string, { path: string; commit: string }>();
  // As its one reader reads it (src/evidence/history.ts): a merge against its first parent (a change record's
  // commit has its branch's tip as second parent), the store's directories, its file names.
  const args = [
    'log',
    '--diff-merges=first-parent',
    '--root',
    '--no-renames',
    '--raw',
    '--no-abbrev',
    '-z',
    '--format=%x01%H',
    u.new,
  ];
  if (!isZero(u.old)) args.push(`^${u.old}`);
  args.push('--', 'records', 'events', 'protocol', 'changes');
  let commit = '';
  let meta: string[] | null = null;
  for await (const raw of nulFields(root, args)) {
    const field = raw.startsWith('\n') ? raw.slice(1) : raw;
    if (field.startsWith('\x01')) {
      commit = field.slice(1).trim();
    } else if (meta === null && field.startsWith(':')) {
      meta = field.slice(1).split(' ');
    } else if (meta !== null) {
      const [, , , blob = '', status = ''] = meta;
      meta = null;
      if (!STORE_PATH.test(field)) continue;
      if (!status.startsWith('A')) {
        const verb = status.startsWith('D') ? 'deletes' : 'changes';
        refusals.push(
          refusal(
            u,
            short(commit),
            `commit ${short(commit)} ${verb} ${field}: hestai/anchors is append-only (a published record is evidence for good)`,
            `git branch -f hestai/anchors ${short(commit)}^ (drop the commit), then git push origin hestai/anchors`,
          ),
        );
      } else if (!added.has(blob)) added.set(blob, { path: field, commit });
      if (added.size > MAX_ADDED) break;
    }
  }
  if (refusals.length > 0) return refusals;
  // Each commit against its first parent misses an unrelated line merged in with -s ours: old tip against new.
  const lost = isZero(u.old) ? '' : lostFiles(root, u);
  if (lost !== '')
    return [
      refusal(
        u,
        u.ref,
        `the push deletes or changes ${lost}, published at ${short(u.old)}: hestai/anchors is append-only, whatever the path through history`,
        `git branch -f hestai/anchors ${short(u.old)} (the published tip), then git push origin hestai/anchors`,
      ),
    ];
  if (added.size > MAX_ADDED)
    return [
      refusal(
        u,
        u.ref,
        `the push adds over ${MAX_ADDED} files to hestai/anchors at once`,
        'push the anchors branch in smaller steps: git push origin <older anchors commit>:refs/heads/hestai/anchors, then git push origin hestai/anchors',
        'anchors-size',
      ),
    ];
  const sizes = catFileBatch(root, [...added.keys()], { content: false });
  for (const [blob, where] of added) {
    const info = sizes.get(blob);
    if (info?.found && info.size <= BLOB_CAP) continue;
    refusals.push(
      refusal(
        u,
        short(where.commit),
        info?.found
          ? `commit ${short(where.commit)} adds ${where.path}, ${info.size} bytes: over the 1 MiB cap (${BLOB_CAP} bytes) of a file on hestai/anchors`
          : `commit ${short(where.commit)} adds ${where.path}, whose blob ${short(blob)} was not received`,
        `git branch -f hestai/anchors ${short(where.commit)}^ (drop the commit), then git push origin hestai/anchors`,
        'anchors-size',
      ),
    );
  }
  return refusals;
}
