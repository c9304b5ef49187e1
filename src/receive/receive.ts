/**
 * `hestai receive` (issue 43): a server's pre-receive (or update) hook. Every pushed ref is judged before any
 * ref moves: branches by verify's rules and the base policy (src/receive/judge-ref.ts), `hestai/anchors` as
 * append-only and bounded (src/receive/anchors-push.ts), the receipts namespace refused to clients; deletions
 * and tags pass unless `hestai.receive.deletions` / `hestai.receive.tags` say otherwise.
 */
import { configGet, resolveCommit } from '../git/repo.js';
import { runGit } from '../git/exec.js';
import { checkAnchorsPush, type Refusal } from './anchors-push.js';
import { judgeRef } from './judge-ref.js';
import {
  ANCHORS_REF,
  classifyUpdate,
  isZero,
  RECEIPTS_NAMESPACE,
  RECEIVED_MARKER,
  type DefaultBase,
  type ReceiveOptions,
  type RefUpdate,
} from './updates.js';

export interface ReceiveResult {
  ok: boolean;
  refusals: Refusal[];
  notes: string[];
}

/** The server's options, from its git config (`hestai init --server` writes them). */
export function receiveOptions(root: string): ReceiveOptions {
  return {
    tags: configGet(root, 'hestai.receive.tags') === 'judge' ? 'judge' : 'pass',
    deletions: configGet(root, 'hestai.receive.deletions') === 'refuse' ? 'refuse' : 'pass',
  };
}

/** The repository's branches before this push, hestai/anchors aside (it holds no policy), at most `count`. */
function branchesOf(root: string, count: number): string[] {
  return runGit(['for-each-ref', `--count=${count + 1}`, '--format=%(refname)', 'refs/heads/'], { cwd: root })
    .stdout.split('\n')
    .filter((r) => r !== '' && r !== ANCHORS_REF)
    .slice(0, count);
}

/**
 * Marks a repository that holds a branch as having held one (git config RECEIVED_MARKER, best effort: a server
 * that cannot write its config still refuses every push that would empty it). A marked repository is never
 * empty again: no later push is taken for its first.
 */
export function markReceived(root: string): void {
  if (configGet(root, RECEIVED_MARKER) === 'true' || branchesOf(root, 1).length === 0) return;
  try {
    runGit(['config', RECEIVED_MARKER, 'true'], { cwd: root });
  } catch {
    // A read-only config: the deletion rules alone keep the repository from being emptied by a push.
  }
}

/** The policy of a new ref, before this push (updates.ts DefaultBase). Tags never make a repository non-empty. */
function defaultBase(root: string): DefaultBase {
  const ref = runGit(['symbolic-ref', '-q', 'HEAD'], { cwd: root, okCodes: [1, 128] }).stdout.trim();
  const tip = ref === '' ? null : resolveCommit(root, ref);
  if (tip !== null) return { ref, tip };
  // hestai/anchors holds no policy: the pre-push hook publishes it before the first branch arrives.
  const empty = branchesOf(root, 1).length === 0 && configGet(root, RECEIVED_MARKER) !== 'true';
  return { ref, tip: empty ? 'empty' : 'dangling' };
}

/**
 * Why deleting `u` is refused, if it is: the default branch, any branch while HEAD names none (the repository
 * would look empty), or the last branch.
 */
function deletionRefusal(u: RefUpdate, base: DefaultBase, emptied: boolean): Refusal | null {
  if (!isZero(u.new)) return null;
  const refuse = (message: string, remedy: string): Refusal => ({
    ref: u.ref,
    what: u.ref,
    rule: 'deletions',
    message,
    remedy,
  });
  if (u.ref === base.ref)
    return refuse(
      'deleting the default branch (HEAD) is refused: a new branch is judged by its policy',
      'none: keep the default branch (push a new commit to it instead)',
    );
  if (!u.ref.startsWith('refs/heads/') || u.ref === ANCHORS_REF) return null;
  if (base.tip === 'dangling')
    return refuse(
      `deleting a branch is refused while the server's HEAD (${base.ref || 'HEAD'}) names no branch: the repository would look empty`,
      'on the server: git symbolic-ref HEAD refs/heads/<default branch> (hestai init --server does it)',
    );
  if (emptied)
    return refuse(
      'this push deletes every branch: a repository left without one would take its next push for its first',
      'keep one branch: git push origin <branch>',
    );
  return null;
}

/** Whether `updates` delete every branch the repository has (and create none). */
function emptiesRepository(root: string, updates: readonly RefUpdate[]): boolean {
  const isBranch = (u: RefUpdate) => u.ref.startsWith('refs/heads/') && u.ref !== ANCHORS_REF;
  const deleted = new Set(updates.filter((u) => isBranch(u) && isZero(u.new)).map((u) => u.ref));
  if (deleted.size === 0 || updates.some((u) => isBranch(u) && !isZero(u.new))) return false;
  return branchesOf(root, deleted.size + 1).every((r) => deleted.has(r));
}

/**
 * An empty repository's first push: the default branch it carries comes in unjudged and its pushed tip is the
 * policy of every other ref (as if pushed first); without it, no ref has a policy (each is refused).
 */
function firstPush(base: DefaultBase, updates: readonly RefUpdate[]): { base: DefaultBase; head: RefUpdate | null } {
  if (base.tip !== 'empty') return { base, head: null };
  const head = updates.find((u) => u.ref === base.ref && !isZero(u.new)) ?? null;
  return { base: head === null ? base : { ref: base.ref, tip: head.new }, head };
}

function unjudgedFirst(u: RefUpdate, base: DefaultBase): { refusals: Refusal[]; notes: string[] } {
  const branch = base.ref.replace(/^refs\/heads\//, '');
  if (base.tip !== 'empty')
    return {
      refusals: [],
      notes: [`${u.ref}: the repository's first push: accepted unjudged, its policy judges every other ref`],
    };
  return {
    refusals: [
      {
        ref: u.ref,
        what: u.ref,
        rule: 'default-branch',
        message: `the repository is empty and this push lacks its default branch (HEAD: ${base.ref}), whose policy judges every other ref`,
        remedy: `git push origin ${branch} (then the others; or on the server: git symbolic-ref HEAD refs/heads/<branch>)`,
      },
    ],
    notes: [],
  };
}

export async function receive(
  root: string,
  updates: readonly RefUpdate[],
  options: ReceiveOptions,
  now: Date,
): Promise<ReceiveResult> {
  const refusals: Refusal[] = [];
  const notes: string[] = [];
  const anchors = updates.find((u) => classifyUpdate(u, options) === 'anchors');
  const anchorsTip = anchors && !isZero(anchors.new) ? anchors.new : null;
  markReceived(root);
  const { base, head } = firstPush(defaultBase(root), updates);
  const emptied = emptiesRepository(root, updates);
  for (const u of updates) {
    const kind = classifyUpdate(u, options);
    const deletion = kind === 'refuse-receipts' || kind === 'anchors' ? null : deletionRefusal(u, base, emptied);
    if (kind === 'refuse-receipts')
      refusals.push({
        ref: u.ref,
        what: u.ref,
        rule: 'receipts',
        message: `${RECEIPTS_NAMESPACE} is written by the server's post-receive hook alone: a client cannot push there`,
        remedy: 'push branches and hestai/anchors only: git push origin <branch>',
      });
    else if (deletion) refusals.push(deletion);
    else if (kind === 'refuse-deletion')
      refusals.push({
        ref: u.ref,
        what: u.ref,
        rule: 'deletions',
        message: 'this server refuses deleting refs (git config hestai.receive.deletions refuse)',
        remedy: 'ask the server admin: git config hestai.receive.deletions pass',
      });
    else if (kind === 'anchors') refusals.push(...(await checkAnchorsPush(root, u)));
    else if (kind === 'branch') {
      const verdict =
        u === head || base.tip === 'empty' ? unjudgedFirst(u, base) : await judgeRef(root, u, base, anchorsTip, now);
      refusals.push(...verdict.refusals);
      notes.push(...verdict.notes);
    }
  }
  return { ok: refusals.length === 0, refusals, notes };
}

/** The lines git relays to the pusher (`remote: ...`): each failing commit with its rule and remedy. */
export function receiveLines(result: ReceiveResult): string[] {
  const lines = [...result.notes.map((n) => `hestai receive: ${n}`)];
  if (result.ok) return lines;
  const groups = new Map<string, Refusal[]>();
  for (const r of result.refusals) {
    const key = `${r.ref}\0${r.what}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  let ref = '';
  for (const list of groups.values()) {
    const first = list[0]!;
    if (first.ref !== ref) lines.push(`hestai receive: refused ${(ref = first.ref)}`);
    lines.push(`  \u2717 ${first.what}`);
    for (const r of list) lines.push(`      ${r.rule}: ${r.message}`);
    for (const remedy of new Set(list.map((r) => r.remedy))) lines.push(`      remedy: ${remedy}`);
  }
  return lines;
}
