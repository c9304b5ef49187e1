import { runGitAsync } from './async.js';
import { gitEnv, runGit, spawnFailure } from './exec.js';
import { FIELD_SEP, logFormat, logNonce, parseLog, RECORD_SEP, type FileChange, type LogCommit } from './parse.js';
import { diffHeaderPath } from './parse-diff.js';

/**
 * git's own memory for reading packs, bounded for the processes that read a whole range: by default git maps
 * a pack in windows of 1 GiB, and every page it touches counts as its resident memory (the one `git rev-list`
 * over 100,000 commits of the flat-folder bench fixture, a 164 MB pack: 185 MB resident, 63 MB with these);
 * and it keeps up to 96 MB of delta bases, which tree diffs of 2,000 commits fill (126 MB resident and 0.08 s
 * of page faults per batch in flat folders; 52 MB and 0.02 s with 32 MB, the same user time).
 */
const PACK_MEMORY = [
  '-c',
  'core.packedGitWindowSize=32m',
  '-c',
  'core.packedGitLimit=64m',
  '-c',
  'core.deltaBaseCacheLimit=32m',
];
const bounded = (args: readonly string[]) => [...PACK_MEMORY, ...args];

/** git's output, read as it comes: the process, its lines or records, and its exit once stdout has ended. */
export function spawnGit(cwd: string, args: readonly string[], input?: string) {
  const spawn = () =>
    process.getBuiltinModule('node:child_process').spawn('git', bounded(args), {
      cwd,
      env: gitEnv(),
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn();
  } catch (error) {
    throw spawnFailure(args, cwd, error as NodeJS.ErrnoException); // a cwd that is a file: ENOTDIR, thrown
  }
  if (input !== undefined) {
    child.stdin!.on('error', () => undefined); // git may exit before reading it all: its status says why
    child.stdin!.end(input);
  }
  const err: Buffer[] = [];
  child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
  const exit = new Promise<{ status: number; stderr: string }>((resolve, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) => reject(spawnFailure(args, cwd, error)));
    child.on('close', (code) => resolve({ status: code ?? -1, stderr: Buffer.concat(err).toString('utf8') }));
  });
  exit.catch(() => undefined); // observed by the reader; never an unhandled rejection
  return { child, exit };
}

/** git refused the revisions or failed part-way (a missing object): its exit status and what it said. */
export class GitStreamError extends Error {
  readonly stderr: string;
  constructor(args: readonly string[], status: number, stderr: string) {
    super(`git ${args.join(' ')} failed (exit ${status}): ${stderr.trim() || 'no output'}`);
    this.name = 'GitStreamError';
    this.stderr = stderr.trim();
  }
}

/**
 * The commits of `revisions` in the order of {@link history} (parents before children, `--topo-order`), each
 * with its message (as {@link logFiles} reads their files, without them) and how many children it has among them,
 * in batches of about `batch`, from ONE `git rev-list --children --format` read as git writes it: the order,
 * the children and every message come from the walk git does anyway, and no process reads a batch's messages
 * again. git holds the walked commits (as it does for `--topo-order`), verify only the batch at hand.
 */
export async function* streamCommits(
  cwd: string,
  revisions: readonly string[],
  batch = 2000,
): AsyncGenerator<{ commit: LogCommit; children: number }[], void, undefined> {
  const nonce = logNonce();
  const open = `${RECORD_SEP}${nonce}`;
  const end = `${FIELD_SEP}${nonce}${FIELD_SEP}`;
  const args = [
    'rev-list',
    '--children',
    '--topo-order',
    '--reverse',
    `--format=${logFormat(nonce)}`,
    ...revisions,
    '--',
  ];
  const { child, exit } = spawnGit(cwd, args);
  const { StringDecoder } = process.getBuiltinModule('node:string_decoder');
  const decoder = new StringDecoder('utf8');
  let text = '';
  // A record longer than a chunk (a huge message) is kept in pieces until its end arrives, and only the new
  // piece is searched for that end: joining and searching all read so far at every chunk costs the square.
  let pieces: string[] = [];
  let ready: { commit: LogCommit; children: number }[] = [];
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const piece = decoder.write(chunk);
      if (pieces.length > 0) {
        const last = pieces[pieces.length - 1]!;
        pieces.push(piece);
        if (`${last.slice(-end.length)}${piece}`.indexOf(end) === -1) continue;
        text = pieces.join('');
        pieces = [];
      } else text += piece;
      let from = 0;
      for (;;) {
        // `commit <sha> <child>...` then the record: RECORD_SEP nonce ... FIELD_SEP nonce FIELD_SEP
        const start = text.indexOf(open, from);
        if (start === -1) break;
        const stop = text.indexOf(end, start);
        if (stop === -1) {
          if (text.length - start > 65536) pieces = [text.slice(from)];
          break;
        }
        const head = text.slice(from, start).trim().split(' ');
        const [commit] = parseLog(text.slice(start, stop + end.length), true, nonce);
        if (head[0] !== 'commit' || commit === undefined || commit.sha !== head[1])
          throw new GitStreamError(args, 0, `unreadable git rev-list output near ${JSON.stringify(head.join(' '))}`);
        ready.push({ commit, children: head.length - 2 });
        from = stop + end.length;
        if (ready.length >= batch) {
          yield ready;
          ready = [];
        }
      }
      text = pieces.length > 0 ? '' : text.slice(from);
    }
    text = pieces.join('') + text + decoder.end();
    if (text.trim() !== '') throw new GitStreamError(args, 0, 'git rev-list output ended inside a commit');
    if (ready.length > 0) yield ready;
    const { status, stderr } = await exit;
    if (status !== 0) throw new GitStreamError(args, status, stderr);
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

/**
 * The changed files of the commits `shas` as {@link history} reads them (`--name-status -M`, a merge
 * against its first parent), by sha, from ONE `git log --no-walk=unsorted --stdin` that formats nothing
 * else; rejects with `GitError` when git fails.
 */
export async function logFiles(
  cwd: string,
  shas: readonly string[],
): Promise<Map<string, { files: string[]; changes: FileChange[] }>> {
  const answers = new Map<string, { files: string[]; changes: FileChange[] }>();
  if (shas.length === 0) return answers;
  const nonce = logNonce();
  const result = await runGitAsync(
    bounded([
      'log',
      `--format=${RECORD_SEP}${nonce}%H${FIELD_SEP}${FIELD_SEP}${FIELD_SEP}${FIELD_SEP}${nonce}${FIELD_SEP}`,
      '--no-color',
      '-M',
      '-z',
      '--name-status',
      '--diff-merges=first-parent',
      '--no-walk=unsorted',
      '--stdin',
    ]),
    { cwd, input: `${shas.join('\n')}\n` },
  );
  for (const c of parseLog(result.stdout, true, nonce))
    answers.set(c.sha, { files: c.files, changes: c.changes ?? [] });
  return answers;
}

/**
 * The commits of `revisions` that may change one of `paths` against their first parent (a root commit: that
 * hold one), from ONE path-limited `git rev-list --full-history` over the whole range. Exact for a commit
 * with one parent or none; a merge is listed when it differs from some parent in the walk, so a listed merge
 * is to be checked against its first parent, and a merge whose first parent is outside the walk is not
 * answered here (git compares it with its other parents only). Rejects with `GitError` when git fails.
 */
export async function pathChanges(
  cwd: string,
  revisions: readonly string[],
  paths: readonly string[],
): Promise<Set<string>> {
  const result = await runGitAsync(bounded(['rev-list', '--full-history', ...revisions, '--', ...paths]), { cwd });
  return new Set(result.stdout.split('\n').filter((l) => l !== ''));
}

/** The lines git prints for `args` (e.g. `rev-list`, `input` on its stdin), one at a time; throws `GitStreamError` on failure. */
export async function* streamGitLines(
  cwd: string,
  args: readonly string[],
  input?: string,
): AsyncGenerator<string, void, undefined> {
  const { child, exit } = spawnGit(cwd, args, input);
  let rest = '';
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      rest += chunk.toString('latin1');
      const lines = rest.split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line !== '') yield line;
    }
    if (rest !== '') yield rest;
    const { status, stderr } = await exit;
    if (status !== 0) throw new GitStreamError(args, status, stderr);
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

/**
 * How many commits `revisions` name (`git rev-list --count`), or git's error; asynchronous, so that verify
 * counts while it prepares the rest.
 */
export async function countCommits(
  cwd: string,
  revisions: readonly string[],
): Promise<{ count: number } | { error: string }> {
  const result = await runGitAsync(bounded(['rev-list', '--count', ...revisions, '--']), { cwd, okCodes: [128] });
  if (result.status !== 0) return { error: result.stderr.trim() };
  return { count: Number(result.stdout.trim()) };
}

/** Whether `revisions` name any commit at all (`git rev-list -n 1`). */
export function anyCommit(cwd: string, revisions: readonly string[]): boolean {
  const result = runGit(bounded(['rev-list', '-n', '1', ...revisions, '--']), { cwd, okCodes: [128] });
  return result.status === 0 && result.stdout.trim() !== '';
}

/** The commits `revisions` name, as a set of shas (read as git prints them). */
export async function commitSet(cwd: string, revisions: readonly string[]): Promise<Set<string>> {
  const set = new Set<string>();
  for await (const sha of streamGitLines(cwd, ['rev-list', ...revisions, '--'])) set.add(sha);
  return set;
}

/** The first of the commits `revisions` name (parents before children) that is in `wanted`, or null. */
export async function firstCommitIn(
  cwd: string,
  revisions: readonly string[],
  wanted: ReadonlySet<string>,
): Promise<string | null> {
  for await (const sha of streamGitLines(cwd, ['rev-list', '--topo-order', '--reverse', ...revisions, '--']))
    if (wanted.has(sha)) return sha;
  return null;
}

/**
 * The root commits `rev` descends from (`git rev-list --max-parents=0`), without blocking: git walks the
 * history while verify judges. Rejects with `GitError` when git fails.
 */
export async function rootCommits(cwd: string, rev: string): Promise<string[]> {
  const result = await runGitAsync(bounded(['rev-list', '--max-parents=0', rev, '--']), { cwd });
  return result.stdout.split('\n').filter((l) => l !== '');
}

/**
 * What git's own re-merge of a two-parent merge's parents says of the merge (`git log --diff-merges=remerge`,
 * the same merge-ort merge as `git merge-tree --write-tree`): the paths whose content differs from the
 * automatic merge, and the conflicted ones (a `remerge CONFLICT` header). `exact` is false when the output
 * held something this reader does not know (a conflict kind other than content, add/add or modify/delete,
 * another header, a path it cannot read): the caller re-computes that merge with `git merge-tree`.
 */
export interface Remerge {
  clean: boolean;
  differing: string[];
  conflicted: string[];
  exact: boolean;
  /** Each differing conflicted path's `-U0` hunks (`@@` lines onward); null when git showed none (binary). */
  hunks: Map<string, string[] | null>;
  /** Each other differing path's first differing line ("line N: +text"). */
  first: Map<string, string>;
}

/** Conflict kinds whose `remerge CONFLICT` header names exactly the one path git leaves conflicted. */
const ONE_PATH_CONFLICTS = new Set(['content', 'add/add', 'modify/delete']);

/** Pure: one merge's part of the remerge output (after its sha line). */
export function parseRemerge(body: string): Remerge {
  const differing = new Set<string>();
  const conflicted = new Set<string>();
  const sections = new Map<string, string[]>();
  let exact = true;
  let path: string | null = null;
  let started = false;
  for (const line of body.split('\n')) {
    if (line.startsWith('diff --git ')) {
      started = true;
      path = diffHeaderPath(line);
      if (path === null) exact = false;
      continue;
    }
    if (!started) {
      if (line.trim() !== '') exact = false;
      continue;
    }
    if (path === null) continue;
    if (line.startsWith('remerge ')) {
      const kind = /^remerge CONFLICT \(([^)]+)\)/.exec(line)?.[1];
      if (kind !== undefined && ONE_PATH_CONFLICTS.has(kind)) conflicted.add(path);
      else exact = false;
      continue;
    }
    if (line === '') continue;
    differing.add(path);
    let hunks = sections.get(path);
    if (hunks === undefined && line.startsWith('@@')) sections.set(path, (hunks = []));
    if (hunks !== undefined && (conflicted.has(path) || hunks.length < 2)) hunks.push(line);
  }
  return {
    clean: differing.size === 0 && conflicted.size === 0 && exact,
    differing: [...differing],
    conflicted: [...conflicted],
    exact,
    ...remergeDetails([...differing], conflicted, sections),
  };
}

/** Pure: the hunks of the conflicted paths, the first differing line of the others. */
function remergeDetails(
  differing: readonly string[],
  conflicted: ReadonlySet<string>,
  sections: ReadonlyMap<string, string[]>,
): Pick<Remerge, 'hunks' | 'first'> {
  const hunks = new Map<string, string[] | null>();
  const first = new Map<string, string>();
  for (const p of differing) {
    const lines = sections.get(p);
    if (conflicted.has(p)) hunks.set(p, lines ?? null);
    else if (lines !== undefined && lines.length === 2) {
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(lines[0]!);
      const line = lines[1]!.startsWith('+') ? m?.[2] : m?.[1];
      if (line !== undefined) first.set(p, `line ${line}: \`${lines[1]!.slice(0, 100)}\``);
    }
  }
  return { hunks, first };
}

/**
 * For each of the two-parent merges `shas` (parents before children, as {@link history} gives them), in ONE
 * `git log --diff-merges=remerge` process: what git's own re-merge of its parents says of it ({@link Remerge}).
 * A merge git gives no answer for (an older git without remerge) is absent.
 *
 * git asks for them children first. git before 2.48 frees the parents of every commit a `git log` has shown,
 * so a merge shown before a later merge whose base lies behind it (two pull requests merged from one main
 * commit) cut that base off: the later re-merge had no base, and an evil merge came out clean. Shown children
 * first, no merge git has shown is an ancestor of the ones still to come.
 */
export async function remergeDiffs(cwd: string, shas: readonly string[]): Promise<Map<string, Remerge>> {
  const answers = new Map<string, Remerge>();
  if (shas.length === 0) return answers;
  const nonce = logNonce();
  const open = `${RECORD_SEP}${nonce}`;
  const result = await runGitAsync(
    bounded([
      '-c',
      'core.quotePath=true',
      '-c',
      'merge.conflictStyle=diff3',
      'log',
      '--no-walk=unsorted',
      '--stdin',
      '--diff-merges=remerge',
      '-p',
      '-U0',
      '--no-renames',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      `--format=${open}%H`,
    ]),
    { cwd, input: `${[...shas].reverse().join('\n')}\n`, okCodes: [128, 129] },
  );
  if (result.status !== 0) return answers;
  for (const record of result.stdout.split(open)) {
    if (record === '') continue;
    const end = record.indexOf('\n');
    const sha = end === -1 ? record : record.slice(0, end);
    answers.set(sha, parseRemerge(end === -1 ? '' : record.slice(end + 1)));
  }
  return answers;
}
