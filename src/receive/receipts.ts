/**
 * Receipts (issue 43): after a push is accepted (post-receive), one commit per pushed ref on
 * `refs/hestai/receipts` whose message is the receipt: the server's receive time, the ref's old and new ids,
 * the pusher as the server names them, and the commits the push brought (verify dates each commit by the
 * earliest receipt listing it: src/verify/receipts.ts). A clock the branch cannot set: receive refuses client
 * pushes there.
 */
import { runGit } from '../git/exec.js';
import { resolveCommit } from '../git/repo.js';
import { type Receipt } from '../verify/receipts.js';
import { isZero, RECEIPTS_NAMESPACE, type RefUpdate } from './updates.js';

/** GitLab (GL_USERNAME), gitolite (GL_USER), Gitea/Forgejo (GITEA_PUSHER_NAME), GHES (GITHUB_USER_LOGIN). */
export const PUSHER_VARIABLES = ['GL_USERNAME', 'GL_USER', 'GITEA_PUSHER_NAME', 'GITHUB_USER_LOGIN'] as const;

export function pusherOf(env: NodeJS.ProcessEnv): string {
  for (const name of PUSHER_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return value.slice(0, 200);
  }
  return 'unknown';
}

const EMPTY_TREE = (root: string) =>
  runGit(['hash-object', '-t', 'tree', '-w', '--stdin'], { cwd: root, input: '' }).stdout.trim();

/**
 * The commits `u` brought: reachable from its new id, not from its old one nor from a ref the push did not move
 * (post-receive runs once every ref has moved).
 */
function broughtBy(root: string, u: RefUpdate, pushed: ReadonlySet<string>): string[] {
  if (isZero(u.new)) return [];
  const others = runGit(['for-each-ref', '--format=%(objectname) %(refname)'], { cwd: root })
    .stdout.split('\n')
    .filter((l) => l !== '' && !pushed.has(l.slice(l.indexOf(' ') + 1)))
    .map((l) => `^${l.slice(0, l.indexOf(' '))}`);
  const input = [u.new, ...(isZero(u.old) ? [] : [`^${u.old}`]), ...others].join('\n');
  return runGit(['rev-list', '--stdin'], { cwd: root, input: `${input}\n` })
    .stdout.split('\n')
    .filter((l) => l !== '');
}

/** Appends one receipt commit per update to refs/hestai/receipts (compare-and-swap: a concurrent push retries). */
export function recordReceipts(
  root: string,
  updates: readonly RefUpdate[],
  at: Date,
  env: NodeJS.ProcessEnv,
): Receipt[] {
  const pushed = new Set(updates.map((u) => u.ref));
  const receipts = updates
    .filter((u) => !u.ref.startsWith(`${RECEIPTS_NAMESPACE}`))
    .map((u): Receipt => ({
      kind: 'hestai.receipt',
      version: 1,
      ref: u.ref,
      old: u.old,
      new: u.new,
      received_at: at.toISOString(),
      pusher: pusherOf(env),
      commits: broughtBy(root, u, pushed),
    }));
  if (receipts.length === 0) return receipts;
  const tree = EMPTY_TREE(root);
  for (let attempt = 0; attempt < 5; attempt++) {
    const prev = resolveCommit(root, RECEIPTS_NAMESPACE);
    let tip = prev;
    for (const r of receipts) {
      const stamp = `${Math.floor(at.getTime() / 1000)} +0000`;
      tip = runGit(['commit-tree', tree, ...(tip ? ['-p', tip] : []), '-F', '-'], {
        cwd: root,
        input: JSON.stringify(r),
        env: {
          GIT_AUTHOR_NAME: 'hestai receive',
          GIT_AUTHOR_EMAIL: 'hestai@localhost',
          GIT_COMMITTER_NAME: 'hestai receive',
          GIT_COMMITTER_EMAIL: 'hestai@localhost',
          GIT_AUTHOR_DATE: stamp,
          GIT_COMMITTER_DATE: stamp,
        },
      }).stdout.trim();
    }
    const moved = runGit(['update-ref', RECEIPTS_NAMESPACE, tip!, prev ?? '0'.repeat(40)], {
      cwd: root,
      okCodes: [1, 128],
    });
    if (moved.status === 0) return receipts;
  }
  throw new Error(`could not update ${RECEIPTS_NAMESPACE}: another push kept moving it`);
}
