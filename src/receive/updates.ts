/**
 * The ref updates git gives a server's receive hook (pure): `pre-receive` reads `<old> <new> <ref>` lines on
 * stdin, `update` gets `<ref> <old> <new>` as arguments (githooks(5)). And what each update asks of the hook.
 */
import { usageError } from '../errors.js';
import { RECEIPTS_REF } from '../verify/receipts.js';

export interface RefUpdate {
  ref: string;
  /** All zeros: the ref is created. */
  old: string;
  /** All zeros: the ref is deleted. */
  new: string;
}

/** The ref namespace only the server writes (post-receive's receipts): a client push there is refused. */
export const RECEIPTS_NAMESPACE = RECEIPTS_REF;
export const ANCHORS_REF = 'refs/heads/hestai/anchors';
/** Git config set once the repository has held a branch (receive, init --server): it is never empty again. */
export const RECEIVED_MARKER = 'hestai.received';

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
export const isZero = (oid: string): boolean => /^0+$/.test(oid);

function update(ref: string, old: string, now: string, where: string): RefUpdate {
  if (!OID.test(old) || !OID.test(now) || ref === '')
    throw usageError(`${where} is not "<old> <new> <ref>" as git gives a receive hook`, {
      code: 'USAGE',
      remedy: 'Install hestai receive as git runs it: hestai init --server <bare repository>.',
    });
  return { ref, old, new: now };
}

export function parsePreReceive(stdin: string): RefUpdate[] {
  const out: RefUpdate[] = [];
  stdin.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const [old = '', now = '', ...ref] = line.trim().split(' ');
    out.push(update(ref.join(' '), old, now, `stdin line ${i + 1} ${JSON.stringify(line.slice(0, 200))}`));
  });
  return out;
}

export function parseUpdateArgs(args: readonly string[]): RefUpdate[] {
  // gitolite's VREFs get four more after these three (old tree, new tree, access, refex).
  if (args.length < 3)
    throw usageError(
      `hestai receive takes no arguments (pre-receive) or at least three arguments (update; a gitolite VREF): got ${args.length}`,
      {
        code: 'USAGE',
        remedy: 'Install hestai receive as git runs it: hestai init --server <bare repository>.',
      },
    );
  const [ref = '', old = '', now = ''] = args;
  return [update(ref, old, now, `the arguments ${JSON.stringify(args.join(' ').slice(0, 300))}`)];
}

export interface ReceiveOptions {
  /** `hestai.receive.tags`: tags pass unjudged, or are judged as branches. */
  tags: 'pass' | 'judge';
  /** `hestai.receive.deletions`: deleting a ref passes, or is refused (hestai/anchors and receipts are never deleted). */
  deletions: 'pass' | 'refuse';
}

export type UpdateKind = 'pass-deletion' | 'refuse-deletion' | 'pass-tag' | 'refuse-receipts' | 'anchors' | 'branch';

export function classifyUpdate(u: RefUpdate, options: ReceiveOptions): UpdateKind {
  if (u.ref === RECEIPTS_NAMESPACE || u.ref.startsWith(`${RECEIPTS_NAMESPACE}/`)) return 'refuse-receipts';
  if (u.ref === ANCHORS_REF) return 'anchors';
  if (isZero(u.new)) return options.deletions === 'pass' ? 'pass-deletion' : 'refuse-deletion';
  if (u.ref.startsWith('refs/tags/') && options.tags === 'pass') return 'pass-tag';
  return 'branch';
}

/**
 * The policy of every ref but the default branch itself, before this push: the default branch (`HEAD`) and its
 * tip, `empty` in a repository that never held a branch (its first push; tags and hestai/anchors aside), or
 * `dangling` when HEAD names no branch there (every other ref is refused).
 */
export interface DefaultBase {
  ref: string;
  tip: string;
}
