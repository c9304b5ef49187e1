/**
 * The anchor proof store in git: an orphan branch `hestai/anchors` whose tree holds
 *   records/<sha256>.json            one proof record, named by the sha256 of its bytes
 *   events/<session>/<sha256>.json   acknowledgments, resets and refreshes of a session, append-only
 *   protocol/<session>/<sha256>.json a protocol run's record, written by `session end` (src/records/protocol-record.ts)
 *   changes/<tip>.json               a pushed branch's change record (src/git/change-records.ts)
 *   coverage/<session>/<sha256>.json the commits a push says a session made (src/evidence/push-records.ts)
 * Every write is ONE `git fast-import` process that adds files on top of the branch tip (a second parent
 * only to join another anchors tip: a record's HEAD is never one, so the branch publishes no commit the
 * pushed refs lack). fast-import refuses a non-fast-forward
 * update, which makes concurrent writers safe: the loser retries on the new tip.
 */
import { askAsync, converseAsync } from './async.js';
import {
  ask,
  asking,
  converse,
  GitError,
  gitEnv,
  runGit,
  runGitBuffer,
  spawnFailure,
  type GitDialogue,
  type GitQuestion,
} from './exec.js';
import { splitNul } from './parse.js';

export const ANCHORS_BRANCH = 'hestai/anchors';
export const ANCHORS_REF = `refs/heads/${ANCHORS_BRANCH}`;

export interface StoreFile {
  path: string;
  content: string;
}

function fastImportScript(
  files: readonly StoreFile[],
  message: string,
  tip: string | null,
  merge: string | null,
  at: Date,
): string {
  const parts: string[] = [];
  files.forEach((f, i) => {
    parts.push(`blob\nmark :${i + 1}\ndata ${Buffer.byteLength(f.content, 'utf8')}\n${f.content}\n`);
  });
  const seconds = Math.floor(at.getTime() / 1000);
  parts.push(
    `commit ${ANCHORS_REF}\ncommitter hestai <hestai@localhost> ${seconds} +0000\ndata ${Buffer.byteLength(message, 'utf8')}\n${message}\n`,
  );
  if (tip !== null) parts.push(`from ${tip}\n`);
  if (merge !== null && merge !== tip) parts.push(`merge ${merge}\n`);
  files.forEach((f, i) => parts.push(`M 100644 :${i + 1} ${f.path}\n`));
  parts.push('\n');
  return parts.join('');
}

/** HEAD (null on an unborn branch) and the local anchors tip (null before the first record), one process. */
const STORE_HEAD: GitQuestion<{ head: string | null; tip: string | null }> = {
  args: ['show-ref', '--head', ANCHORS_REF],
  okCodes: [1],
  answer(result) {
    let head: string | null = null;
    let tip: string | null = null;
    for (const line of result.stdout.split('\n')) {
      const [oid = '', ref = ''] = line.split(' ');
      if (ref === 'HEAD') head = oid;
      if (ref === ANCHORS_REF) tip = oid;
    }
    return { head, tip };
  },
};
export const anchorStoreHead = (cwd: string) => ask(cwd, STORE_HEAD);
/** `anchorStoreHead` without blocking the caller (the MCP server's anchor proof stage). */
export const anchorStoreHeadAsync = (cwd: string) => askAsync(cwd, STORE_HEAD);

/**
 * Adds `files` to the anchors branch in one commit on top of `tip` (one fast-import process). fast-import
 * refuses to move the branch unless the new commit descends from its current tip, so when another
 * writer moved it meanwhile the tip is read again and the write retried.
 */
export function writeAnchorStore(
  cwd: string,
  files: readonly StoreFile[],
  message: string,
  options: StoreWriteOptions,
): void {
  converse(cwd, storeWrite(files, message, options));
}

/** `writeAnchorStore` without blocking the caller (the MCP server's tools: proof records, events, runs). */
export async function writeAnchorStoreAsync(
  cwd: string,
  files: readonly StoreFile[],
  message: string,
  options: StoreWriteOptions,
): Promise<void> {
  await converseAsync(cwd, storeWrite(files, message, options));
}

interface StoreWriteOptions {
  tip: string | null;
  merge?: string | null;
  at: Date;
}

/** The write and its retries on a moved tip, once for both ways of asking git. */
function* storeWrite(files: readonly StoreFile[], message: string, options: StoreWriteOptions): GitDialogue<void> {
  checkStorePaths(files);
  let tip = options.tip;
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const input = fastImportScript(files, message, tip, options.merge ?? null, options.at);
    const result = yield* asking({ args: ['fast-import', '--quiet'], input, okCodes: [1, 128], answer: (r) => r });
    if (result.status === 0) return yield* signTip(options.at);
    lastError = result.stderr.trim();
    tip = (yield* asking(STORE_HEAD)).tip;
  }
  throw new GitError(['fast-import'], 1, lastError);
}

/** Whether git signs with ssh here: `gpg.format ssh` and a `user.signingkey`. */
const SIGNS: GitQuestion<boolean> = {
  args: ['config', '--get-regexp', '^(gpg\\.format|user\\.signingkey)$'],
  okCodes: [1],
  answer: (r) => {
    const lines = r.stdout.split('\n');
    return lines.includes('gpg.format ssh') && lines.some((l) => /^user\.signingkey \S/.test(l));
  },
};

/**
 * When git signs with ssh, the anchors tip fast-import just wrote (unsigned: fast-import cannot sign) is
 * made again by `git commit-tree -S`, same tree, parents and message, and the branch moved to it only if it
 * is still that tip. git and ssh-keygen sign; no key passes through hestai. A signing failure is an error.
 */
function* signTip(at: Date): GitDialogue<void> {
  if (!(yield* asking(SIGNS))) return;
  const tip = yield* asking({
    args: ['rev-parse', '--verify', `${ANCHORS_REF}^{commit}`],
    answer: (r) => r.stdout.trim(),
  });
  const raw = yield* asking({ args: ['cat-file', 'commit', tip], answer: (r) => r.stdout });
  const cut = raw.indexOf('\n\n');
  const header = raw.slice(0, cut).split('\n');
  const tree = header.find((l) => l.startsWith('tree '))!.slice(5);
  const parents = header.filter((l) => l.startsWith('parent ')).flatMap((l) => ['-p', l.slice(7)]);
  const date = `${Math.floor(at.getTime() / 1000)} +0000`;
  const signed = yield* asking({
    args: ['commit-tree', '-S', tree, ...parents],
    input: raw.slice(cut + 2),
    env: {
      GIT_AUTHOR_NAME: 'hestai',
      GIT_AUTHOR_EMAIL: 'hestai@localhost',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: 'hestai',
      GIT_COMMITTER_EMAIL: 'hestai@localhost',
      GIT_COMMITTER_DATE: date,
    },
    answer: (r) => r.stdout.trim(),
  });
  yield* asking({ args: ['update-ref', ANCHORS_REF, signed, tip], okCodes: [1, 128], answer: () => undefined });
}

function checkStorePaths(files: readonly StoreFile[]): void {
  for (const p of files) if (!/^[A-Za-z0-9._/-]+$/.test(p.path)) throw new Error(`invalid anchor store path ${p.path}`);
}

/** The tips of every anchors branch this clone knows: local, then each remote's, e.g. refs/remotes/origin/hestai/anchors. */
export function anchorStoreRefs(cwd: string): { ref: string; oid: string }[] {
  const out = runGit(
    ['for-each-ref', '--format=%(objectname) %(refname)', ANCHORS_REF, `refs/remotes/*/${ANCHORS_BRANCH}`],
    { cwd },
  ).stdout;
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [oid = '', ref = ''] = l.split(' ');
      return { ref, oid };
    });
}

/** Every file of an anchors tree (path → blob oid; every kind the store holds, so a join keeps them all), one `git ls-tree -r -z` process. */
export function listAnchorStore(
  cwd: string,
  commit: string,
  dirs: readonly string[] = ['records', 'events', 'protocol', 'changes', 'coverage'],
): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of splitNul(runGit(['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...dirs], { cwd }).stdout)) {
    const tab = entry.indexOf('\t');
    const [, type, oid] = entry.slice(0, tab).split(' ');
    if (type === 'blob' && oid) files.set(entry.slice(tab + 1), oid);
  }
  return files;
}

export type BatchObject = { found: true; oid: string; type: string; size: number; content?: Buffer } | { found: false };

/**
 * Looks objects up in ONE `git cat-file` process: `--batch-check` (type and size) or, with `content`,
 * `--batch` (also the bytes). Specs are object names such as `<oid>`, `<commit>^{commit}` or `<commit>:<path>`;
 * a spec with a newline cannot be asked and is reported missing.
 */
export function catFileBatch(
  cwd: string,
  specs: readonly string[],
  options: { content: boolean },
): Map<string, BatchObject> {
  const { answers, asked } = catFileSpecs(specs);
  if (asked.length === 0) return answers;
  const out = runGitBuffer(['cat-file', '--buffer', options.content ? '--batch' : '--batch-check'], {
    cwd,
    input: `${asked.join('\n')}\n`,
  }).stdout;
  return parseCatFile(out, asked, options.content, answers);
}

/**
 * ONE `git cat-file --batch-command` for a whole run, asked again and again (`info` or `contents` per
 * spec, answered in order): what {@link catFileBatch} answers, without a git process per question.
 * Started on the first question; `close()` ends it (git exits when its input ends).
 */
export interface CatFileSession {
  ask(specs: readonly string[], options: { content: boolean }): Promise<Map<string, BatchObject>>;
  close(): void;
}

export function catFileSession(cwd: string): CatFileSession {
  type Waiting = { spec: string; content: boolean; done: (o: BatchObject) => void; fail: (e: Error) => void };
  let child: import('node:child_process').ChildProcessWithoutNullStreams | null = null;
  let failed: Error | null = null;
  const waiting: Waiting[] = [];
  let out: Buffer = Buffer.alloc(0);
  // Chunks not yet joined to `out`, and how many bytes `out` must hold before the next answer can be read:
  // an object's bytes are joined once, when they are all in (joining every chunk to all read so far costs
  // the square of an object's size).
  let parts: Buffer[] = [];
  let pending = 0;
  let needed = 0;
  const args = ['cat-file', '--batch-command'];
  const failAll = (error: Error) => {
    failed ??= error;
    for (const w of waiting.splice(0)) w.fail(failed);
  };
  const drain = () => {
    while (waiting.length > 0) {
      const nl = out.indexOf(0x0a);
      if (nl === -1) return;
      const w = waiting[0]!;
      const m = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(out.subarray(0, nl).toString('utf8'));
      if (!m) {
        out = out.subarray(nl + 1); // `<spec> missing` (or ambiguous)
        waiting.shift();
        w.done({ found: false });
        continue;
      }
      const size = Number(m[3]);
      if (w.content) {
        if (out.length < nl + 1 + size + 1) {
          needed = nl + 1 + size + 1; // the object's bytes and their newline are still coming
          return;
        }
        const content = Buffer.from(out.subarray(nl + 1, nl + 1 + size));
        out = out.subarray(nl + 1 + size + 1);
        waiting.shift();
        w.done({ found: true, oid: m[1]!, type: m[2]!, size, content });
      } else {
        out = out.subarray(nl + 1);
        waiting.shift();
        w.done({ found: true, oid: m[1]!, type: m[2]!, size });
      }
    }
  };
  const start = () => {
    const spawned = process.getBuiltinModule('node:child_process').spawn('git', args, {
      cwd,
      env: gitEnv(),
      windowsHide: true,
    });
    const err: Buffer[] = [];
    spawned.stdout.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      pending += chunk.length;
      if (out.length + pending < needed) return;
      out = out.length === 0 && parts.length === 1 ? chunk : Buffer.concat([out, ...parts]);
      parts = [];
      pending = 0;
      needed = 0;
      drain();
    });
    spawned.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    spawned.stdin.on('error', () => {}); // git exited: its exit status says why
    spawned.on('error', (error: NodeJS.ErrnoException) => failAll(spawnFailure(args, cwd, error)));
    spawned.on('close', (code) => {
      if (waiting.length > 0) failAll(new GitError(args, code, Buffer.concat(err).toString('utf8')));
    });
    return spawned;
  };
  return {
    ask: async (specs, options) => {
      const { answers, asked } = catFileSpecs(specs);
      if (asked.length === 0) return answers;
      if (failed) throw failed;
      child ??= start();
      const replies = asked.map(
        (spec) =>
          new Promise<BatchObject>((done, fail) => waiting.push({ spec, content: options.content, done, fail })),
      );
      child.stdin.write(asked.map((spec) => `${options.content ? 'contents' : 'info'} ${spec}\n`).join(''));
      const objects = await Promise.all(replies);
      asked.forEach((spec, i) => answers.set(spec, objects[i]!));
      return answers;
    },
    close: () => {
      child?.stdin.end();
    },
  };
}

/** The specs git can be asked (each once), and the answers for those it cannot (a newline in one). */
function catFileSpecs(specs: readonly string[]): { answers: Map<string, BatchObject>; asked: string[] } {
  const answers = new Map<string, BatchObject>();
  const asked: string[] = [];
  for (const s of new Set(specs)) {
    if (/[\n\r]/.test(s) || s === '') answers.set(s, { found: false });
    else asked.push(s);
  }
  return { answers, asked };
}

/** Pure: `git cat-file --batch[-check]` output for `asked`, in order, into `answers`. */
function parseCatFile(
  out: Buffer,
  asked: readonly string[],
  content: boolean,
  answers: Map<string, BatchObject>,
): Map<string, BatchObject> {
  let at = 0;
  for (const spec of asked) {
    const nl = out.indexOf(0x0a, at);
    if (nl === -1) break;
    const line = out.subarray(at, nl).toString('utf8');
    at = nl + 1;
    const m = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(line);
    if (!m) {
      answers.set(spec, { found: false });
      continue;
    }
    const size = Number(m[3]);
    if (content) {
      answers.set(spec, { found: true, oid: m[1]!, type: m[2]!, size, content: out.subarray(at, at + size) });
      at += size + 1;
    } else answers.set(spec, { found: true, oid: m[1]!, type: m[2]!, size });
  }
  return answers;
}

/**
 * Those of `heads` that are ancestors of (or equal to) `tip`, in one `git rev-list --stdin` (the heads, and
 * `^tip`: a head it lists is not one); per head with `git merge-base --is-ancestor` when that fails (a head
 * that is no commit).
 */
export function ancestorsAmong(cwd: string, heads: readonly string[], tip: string): Set<string> {
  if (heads.length === 0) return new Set();
  const listed = runGit(['rev-list', '--stdin'], { cwd, input: `${heads.join('\n')}\n^${tip}\n`, okCodes: [128] });
  if (listed.status !== 0) return new Set(heads.filter((h) => isAncestor(cwd, h, tip)));
  const out = new Set(listed.stdout.split('\n'));
  return new Set(heads.filter((h) => !out.has(h)));
}

/** True when `ancestor` is an ancestor of (or equal to) `descendant`. */
export function isAncestor(cwd: string, ancestor: string, descendant: string): boolean {
  return runGit(['merge-base', '--is-ancestor', ancestor, descendant], { cwd, okCodes: [1, 128] }).status === 0;
}

/**
 * Joins another anchors tip into the local branch: a commit whose tree is the union of both (paths are
 * content-addressed, so the same path never holds two contents; the local one is kept if it did).
 */
export function mergeAnchorStore(cwd: string, other: string, at: Date): void {
  const local = runGit(['rev-parse', '--verify', '--quiet', `${ANCHORS_REF}^{commit}`], { cwd, okCodes: [1] });
  if (local.status !== 0) {
    runGit(['update-ref', ANCHORS_REF, other], { cwd });
    return;
  }
  const mine = listAnchorStore(cwd, ANCHORS_REF);
  const theirs = listAnchorStore(cwd, other);
  const lines: string[] = [];
  for (const [p, oid] of theirs) if (!mine.has(p)) lines.push(`M 100644 ${oid} ${p}\n`);
  const message = 'hestai: merge published anchor records';
  const seconds = Math.floor(at.getTime() / 1000);
  const script = `commit ${ANCHORS_REF}\ncommitter hestai <hestai@localhost> ${seconds} +0000\ndata ${Buffer.byteLength(message)}\n${message}\nfrom ${ANCHORS_REF}^0\nmerge ${other}\n${lines.join('')}\n`;
  runGit(['fast-import', '--quiet'], { cwd, input: script });
  converse(cwd, signTip(at));
}

/** The local anchors tip and the remote-tracking one for `remote` (a remote name; null refs when absent), one process. */
export function anchorPublishState(
  cwd: string,
  remote: string,
): { local: string | null; tracking: string | null; trackingRef: string | null } {
  const trackingRef = /^[A-Za-z0-9._-]+$/.test(remote) ? `refs/remotes/${remote}/${ANCHORS_BRANCH}` : null;
  const out = runGit(
    ['for-each-ref', '--format=%(objectname) %(refname)', ANCHORS_REF, ...(trackingRef ? [trackingRef] : [])],
    { cwd },
  ).stdout;
  let local: string | null = null;
  let tracking: string | null = null;
  for (const line of out.split('\n')) {
    const [oid = '', ref = ''] = line.split(' ');
    if (ref === ANCHORS_REF) local = oid;
    if (ref === trackingRef) tracking = oid;
  }
  return { local, tracking, trackingRef };
}

/** Pushes the local anchors branch to `remote` (hooks skipped: this runs inside the pre-push hook). */
export function pushAnchorStore(cwd: string, remote: string): { ok: boolean; stderr: string } {
  const result = runGit(['push', '--no-verify', '--quiet', remote, `${ANCHORS_REF}:${ANCHORS_REF}`], {
    cwd,
    okCodes: [1, 128],
  });
  return { ok: result.status === 0, stderr: result.stderr.trim() };
}

/** Fetches the remote's anchors branch (into its remote-tracking ref when `remote` is a name, else FETCH_HEAD); returns the fetched tip. */
export function fetchAnchorStore(cwd: string, remote: string, trackingRef: string | null): string | null {
  const spec = trackingRef ? `+${ANCHORS_REF}:${trackingRef}` : ANCHORS_REF;
  const result = runGit(['fetch', '--quiet', '--no-tags', remote, spec], { cwd, okCodes: [1, 128] });
  if (result.status !== 0) return null;
  const rev = runGit(['rev-parse', '--verify', '--quiet', `${trackingRef ?? 'FETCH_HEAD'}^{commit}`], {
    cwd,
    okCodes: [1, 128],
  });
  return rev.status === 0 ? rev.stdout.trim() : null;
}
