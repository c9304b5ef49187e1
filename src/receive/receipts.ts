/**
 * Receipts (issue 43): after a push is accepted (post-receive), one commit per pushed ref on
 * `refs/hestai/receipts` whose message is the receipt: the server's receive time, the ref's old and new ids,
 * the pusher as the server names them, and the commits the push brought (verify dates each commit by the
 * earliest receipt listing it: src/verify/receipts.ts). A clock the branch cannot set: receive refuses client
 * pushes there.
 */
import { runGit } from '../git/exec.js';
import { streamGitLines } from '../git/log-stream.js';
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

/** The commits one receipt lists at most: a larger push gets several (`part` 1, 2, ...), so memory stays bounded. */
export const RECEIPT_COMMITS = 10_000;

/** What post-receive reports of each ref's receipts (the commits themselves are in refs/hestai/receipts). */
export interface ReceiptSummary {
  ref: string;
  received_at: string;
  pusher: string;
  commits: number;
  parts: number;
}

/**
 * The commits `u` brought, streamed: reachable from its new id, not from its old one nor from a ref the push did
 * not move (post-receive runs once every ref has moved).
 */
function broughtBy(root: string, u: RefUpdate, pushed: ReadonlySet<string>): AsyncGenerator<string> {
  const others = runGit(['for-each-ref', '--format=%(objectname) %(refname)'], { cwd: root })
    .stdout.split('\n')
    .filter((l) => l !== '' && !pushed.has(l.slice(l.indexOf(' ') + 1)))
    .map((l) => `^${l.slice(0, l.indexOf(' '))}`);
  const input = [u.new, ...(isZero(u.old) ? [] : [`^${u.old}`]), ...others].join('\n');
  return streamGitLines(root, ['rev-list', '--stdin'], `${input}\n`);
}

/** Appends receipt commits to `tip`, one per at most RECEIPT_COMMITS commits of each update; the new tip. */
async function writeReceipts(
  root: string,
  updates: readonly RefUpdate[],
  at: Date,
  pusher: string,
  tip: string | null,
  summaries: ReceiptSummary[],
): Promise<string | null> {
  const tree = EMPTY_TREE(root);
  const stamp = `${Math.floor(at.getTime() / 1000)} +0000`;
  const pushed = new Set(updates.map((u) => u.ref));
  const env = {
    GIT_AUTHOR_NAME: 'hestai receive',
    GIT_AUTHOR_EMAIL: 'hestai@localhost',
    GIT_COMMITTER_NAME: 'hestai receive',
    GIT_COMMITTER_EMAIL: 'hestai@localhost',
    GIT_AUTHOR_DATE: stamp,
    GIT_COMMITTER_DATE: stamp,
  };
  for (const u of updates) {
    const summary = { ref: u.ref, received_at: at.toISOString(), pusher, commits: 0, parts: 0 };
    const write = (commits: string[], part: number | null) => {
      const receipt: Receipt = {
        kind: 'hestai.receipt',
        version: 1,
        ref: u.ref,
        old: u.old,
        new: u.new,
        received_at: summary.received_at,
        pusher,
        ...(part ? { part } : {}),
        commits,
      };
      tip = runGit(['commit-tree', tree, ...(tip ? ['-p', tip] : []), '-F', '-'], {
        cwd: root,
        input: JSON.stringify(receipt),
        env,
      }).stdout.trim();
      summary.parts++;
    };
    let chunk: string[] = [];
    if (!isZero(u.new))
      for await (const sha of broughtBy(root, u, pushed)) {
        if (chunk.length === RECEIPT_COMMITS) {
          write(chunk, summary.parts + 1);
          chunk = [];
        }
        chunk.push(sha);
        summary.commits++;
      }
    write(chunk, summary.parts > 0 ? summary.parts + 1 : null);
    summaries.push(summary);
  }
  return tip;
}

/**
 * Appends the receipts of `updates` to refs/hestai/receipts (compare-and-swap: a concurrent push retries),
 * streaming each ref's commits: at most RECEIPT_COMMITS of them are held at a time.
 */
export async function recordReceipts(
  root: string,
  updates: readonly RefUpdate[],
  at: Date,
  env: NodeJS.ProcessEnv,
): Promise<ReceiptSummary[]> {
  const list = updates.filter((u) => !u.ref.startsWith(`${RECEIPTS_NAMESPACE}`));
  if (list.length === 0) return [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const prev = resolveCommit(root, RECEIPTS_NAMESPACE);
    const summaries: ReceiptSummary[] = [];
    const tip = await writeReceipts(root, list, at, pusherOf(env), prev, summaries);
    const moved = runGit(['update-ref', RECEIPTS_NAMESPACE, tip!, prev ?? '0'.repeat(40)], {
      cwd: root,
      okCodes: [1, 128],
    });
    if (moved.status === 0) return summaries;
  }
  throw new Error(`could not update ${RECEIPTS_NAMESPACE}: another push kept moving it`);
}
