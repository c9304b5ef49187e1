import fs from 'node:fs';
import path from 'node:path';
import { FIELD_SEP, RECORD_SEP, parseLog, type LogCommit } from './parse.js';

/**
 * A reader of LOOSE git objects (`objects/xx/<rest>`, zlib-deflated), for the history cache (log-cache.ts):
 * the few commits made since a cached `git log` answer are read here instead of starting git again
 * (issue 15, Speed). It answers only what it can answer exactly as `git log -M -z --name-status
 * --format=logFormat(nonce)` would, and returns null on every doubt so that its caller asks git:
 * a packed or missing object, an object larger than the bounds below, a merge or root commit, an
 * `encoding` or `mergetag` header or any header it does not know, a message with a NUL byte, an odd
 * ident or time zone, a tree entry with a mode other than 100644/100755/120000/40000 (a submodule's
 * gitlink among them), an unsorted tree, and a commit that both adds and deletes paths (git's `-M` may
 * pair them as a rename).
 */

/** A loose object file larger than this (compressed) is not read here. */
const MAX_LOOSE_BYTES = 4 * 1024 * 1024;
/** Nor one that inflates to more than this. */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;
/** Nor a diff that walks more tree entries than this (a huge tree: git is as fast). */
const MAX_TREE_ENTRIES = 200_000;

const HEX40 = /^[0-9a-f]{40}$/;

type Zlib = typeof import('node:zlib');
let zlib: Zlib | undefined;
/** node:zlib, loaded on first use (the hooks that never read an object never pay for it). */
const inflate = (data: Buffer): Buffer =>
  (zlib ??= process.getBuiltinModule('node:zlib')).inflateSync(data, { maxOutputLength: MAX_INFLATED_BYTES });

/** The body of the loose object `sha` of `type`, or null (not loose, unreadable, too large, another type, corrupt). */
export function readLooseObject(objectsDir: string, sha: string, type: 'commit' | 'tree'): Buffer | null {
  if (!HEX40.test(sha)) return null;
  let raw: Buffer;
  let fd: number | null = null;
  try {
    // O_NONBLOCK: a FIFO in place of an object must not hang the hook (fstat then says it is no file).
    fd = fs.openSync(
      path.join(objectsDir, sha.slice(0, 2), sha.slice(2)),
      fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0),
    );
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_LOOSE_BYTES || stat.size === 0) return null;
    raw = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < raw.length) {
      const n = fs.readSync(fd, raw, read, raw.length - read, read);
      if (n === 0) return null;
      read += n;
    }
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
  let data: Buffer;
  try {
    data = inflate(raw);
  } catch {
    return null;
  }
  const nul = data.indexOf(0);
  if (nul === -1 || nul > 32) return null;
  const header = data.toString('latin1', 0, nul);
  const match = /^(commit|tree|blob|tag) (0|[1-9][0-9]*)$/.exec(header);
  if (!match || match[1] !== type || Number(match[2]) !== data.length - nul - 1) return null;
  return data.subarray(nul + 1);
}

/** A commit as the history cache needs it; the message is the raw bytes git's `%B` prints. */
export interface RawCommit {
  sha: string;
  tree: string;
  parents: string[];
  author: Ident;
  committer: Ident;
  message: Buffer;
}

/** The time of an ident line: seconds since the epoch and the zone as written (`+0100`). */
export interface Ident {
  seconds: number;
  zone: string;
}

const IDENT = /^[^<>\n]*<[^<>\n]*> ([0-9]{1,12}) ([+-][0-9]{4})$/;

function parseIdent(line: string): Ident | null {
  const m = IDENT.exec(line);
  if (!m) return null;
  const zone = m[2]!;
  if (Number(zone.slice(3)) >= 60) return null;
  return { seconds: Number(m[1]), zone };
}

/** Parses a commit object's body, or null when it has anything this reader does not handle exactly. */
export function parseCommit(sha: string, body: Buffer): RawCommit | null {
  const end = body.indexOf('\n\n');
  if (end === -1) return null;
  const message = body.subarray(end + 2);
  if (message.includes(0)) return null; // git's %B stops at a NUL
  const lines = body.toString('utf8', 0, end).split('\n');
  let i = 0;
  const tree = /^tree ([0-9a-f]{40})$/.exec(lines[i++] ?? '')?.[1];
  if (tree === undefined) return null;
  const parents: string[] = [];
  for (let m; (m = /^parent ([0-9a-f]{40})$/.exec(lines[i] ?? '')); i++) parents.push(m[1]!);
  const author = lines[i]?.startsWith('author ') ? parseIdent(lines[i++]!.slice(7)) : null;
  const committer = lines[i]?.startsWith('committer ') ? parseIdent(lines[i++]!.slice(10)) : null;
  if (author === null || committer === null) return null;
  // Signatures do not change what git log prints (without log.showSignature, which the cache refuses);
  // any other header (encoding, mergetag, a second author...) does or might: ask git.
  while (i < lines.length) {
    if (!/^gpgsig(?:-sha256)? /.test(lines[i]!)) return null;
    for (i++; i < lines.length && lines[i]!.startsWith(' '); i++);
  }
  return { sha, tree, parents, author, committer, message };
}

export function readCommit(objectsDir: string, sha: string): RawCommit | null {
  const body = readLooseObject(objectsDir, sha, 'commit');
  return body === null ? null : parseCommit(sha, body);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * `%aI` / `%cI`: ISO 8601 strict in the ident's own zone. A zero offset is printed `+00:00` by git up to
 * 2.44 and `Z` since 2.45: `utc` says which (learned from this git's own output); null: unknown, no answer.
 */
export function isoStrict(ident: Ident, utc: string | null): string | null {
  const sign = ident.zone[0] === '-' ? -1 : 1;
  const minutes = sign * (Number(ident.zone.slice(1, 3)) * 60 + Number(ident.zone.slice(3, 5)));
  const seconds = ident.seconds + minutes * 60;
  if (seconds < 0 || seconds > 253402300799) return null; // outside years 1970..9999
  const d = new Date(seconds * 1000);
  const suffix = minutes === 0 ? utc : `${sign < 0 ? '-' : '+'}${ident.zone.slice(1, 3)}:${ident.zone.slice(3, 5)}`;
  if (suffix === null) return null;
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${suffix}`
  );
}

interface TreeEntry {
  mode: string;
  name: Buffer;
  sha: string;
}

const MODES = new Set(['100644', '100755', '120000', '40000']);
const isDir = (e: TreeEntry) => e.mode === '40000';

/** git's `base_name_compare`: names compared bytewise, a directory as if its name ended with `/`. */
function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const len = Math.min(a.name.length, b.name.length);
  const cmp = Buffer.compare(a.name.subarray(0, len), b.name.subarray(0, len));
  if (cmp !== 0) return cmp;
  const ca = a.name.length > len ? a.name[len]! : isDir(a) ? 0x2f : 0;
  const cb = b.name.length > len ? b.name[len]! : isDir(b) ? 0x2f : 0;
  return ca - cb;
}

function readTree(objectsDir: string, sha: string, budget: { entries: number }): TreeEntry[] | null {
  const body = readLooseObject(objectsDir, sha, 'tree');
  if (body === null) return null;
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space + 1);
    if (space === -1 || nul === -1 || nul + 21 > body.length || space - at > 6) return null;
    const mode = body.toString('latin1', at, space);
    const name = body.subarray(space + 1, nul);
    if (!MODES.has(mode) || name.length === 0 || name.includes(0x2f)) return null;
    const entry = { mode, name, sha: body.toString('hex', nul + 1, nul + 21) };
    if (entries.length > 0 && compareEntries(entries[entries.length - 1]!, entry) >= 0) return null;
    entries.push(entry);
    at = nul + 21;
    if (--budget.entries < 0) return null;
  }
  return entries;
}

/** One line of `--name-status -z`: its status letter and the path's bytes. */
interface Change {
  status: 'A' | 'M' | 'D' | 'T';
  path: Buffer;
}

const join = (prefix: Buffer | null, name: Buffer) =>
  prefix === null ? name : Buffer.concat([prefix, Buffer.from('/'), name]);

/**
 * The changes between two trees (null: nothing on that side), recursing only into changed subtrees, in
 * git's order (depth first, in tree order); false on any doubt.
 */
function diffTrees(
  objectsDir: string,
  before: string | null,
  after: string | null,
  prefix: Buffer | null,
  out: Change[],
  budget: { entries: number },
): boolean {
  const a = before === null ? [] : readTree(objectsDir, before, budget);
  const b = after === null ? [] : readTree(objectsDir, after, budget);
  if (a === null || b === null) return false;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const cmp = i >= a.length ? 1 : j >= b.length ? -1 : compareEntries(a[i]!, b[j]!);
    if (cmp < 0) {
      const e = a[i++]!;
      if (isDir(e) ? !diffTrees(objectsDir, e.sha, null, join(prefix, e.name), out, budget) : false) return false;
      if (!isDir(e)) out.push({ status: 'D', path: join(prefix, e.name) });
    } else if (cmp > 0) {
      const e = b[j++]!;
      if (isDir(e) ? !diffTrees(objectsDir, null, e.sha, join(prefix, e.name), out, budget) : false) return false;
      if (!isDir(e)) out.push({ status: 'A', path: join(prefix, e.name) });
    } else {
      const x = a[i++]!;
      const y = b[j++]!;
      if (x.sha === y.sha && x.mode === y.mode) continue;
      if (isDir(x)) {
        if (!diffTrees(objectsDir, x.sha, y.sha, join(prefix, x.name), out, budget)) return false;
      } else {
        // Regular file <-> symlink is a type change; an executable bit alone is a modification.
        const link = (e: TreeEntry) => e.mode === '120000';
        out.push({ status: link(x) !== link(y) ? 'T' : 'M', path: join(prefix, x.name) });
      }
    }
  }
  return true;
}

/**
 * The `--name-status -z` changes of a commit against its parent's tree, or null on any doubt (see above):
 * a commit that both adds and deletes is left to git, whose rename detection may pair them.
 */
export function commitChanges(objectsDir: string, parentTree: string, tree: string): Change[] | null {
  const out: Change[] = [];
  if (!diffTrees(objectsDir, parentTree, tree, null, out, { entries: MAX_TREE_ENTRIES })) return null;
  if (out.some((c) => c.status === 'A') && out.some((c) => c.status === 'D')) return null;
  return out;
}

/**
 * The bytes `git log -z --name-status --format=logFormat(nonce)` prints for one non-merge commit (see
 * parse.ts): the record, then NUL, then (when the commit changed anything) a newline and the changes.
 */
export function logRecord(
  commit: RawCommit,
  changes: readonly Change[],
  nonce: string,
  utc: string | null,
): Buffer | null {
  const authorDate = isoStrict(commit.author, utc);
  const committerDate = isoStrict(commit.committer, utc);
  if (authorDate === null || committerDate === null) return null;
  const parts: Buffer[] = [
    Buffer.from(
      `${RECORD_SEP}${nonce}${commit.sha}${FIELD_SEP}${commit.parents.join(' ')}${FIELD_SEP}${authorDate} ${committerDate}${FIELD_SEP}`,
    ),
    commit.message,
    Buffer.from(`${FIELD_SEP}${nonce}${FIELD_SEP}\0`),
  ];
  if (changes.length > 0) parts.push(Buffer.from('\n'));
  for (const c of changes) parts.push(Buffer.from(`${c.status}\0`), c.path, Buffer.from('\0'));
  return Buffer.concat(parts);
}

/**
 * The bytes `history()`'s git log would print for the commits from `head` back to (not including) `tip`,
 * oldest first (see {@link chainSince}), with records marked by `nonce`; null on any doubt.
 */
export function chainLogBytes(
  objectsDir: string,
  head: string,
  tip: string,
  options: { max: number; stop: ReadonlySet<string>; utc: string | null },
  nonce: string,
): { bytes: Buffer; count: number } | null {
  const chain: RawCommit[] = [];
  for (let sha = head; sha !== tip;) {
    if (chain.length >= options.max || options.stop.has(sha)) return null;
    const commit = readCommit(objectsDir, sha);
    if (commit === null || commit.parents.length !== 1) return null;
    chain.push(commit);
    sha = commit.parents[0]!;
  }
  if (chain.length === 0) return { bytes: Buffer.alloc(0), count: 0 };
  const base = readCommit(objectsDir, tip);
  if (base === null) return null;
  const records: Buffer[] = [];
  let parentTree = base.tree;
  for (const commit of chain.reverse()) {
    const changes = commitChanges(objectsDir, parentTree, commit.tree);
    const record = changes === null ? null : logRecord(commit, changes, nonce, options.utc);
    if (record === null) return null;
    records.push(record);
    parentTree = commit.tree;
  }
  return { bytes: Buffer.concat(records), count: chain.length };
}

/**
 * The commits from `head` back to (not including) `tip`, oldest first, exactly as `history()` lists them
 * (`git log -M -z --name-status`, `--topo-order` or not: the chain is linear), read from loose objects;
 * null on any doubt: a commit that is not loose or not plain (see above), a merge, more than `max`
 * commits before `tip` is reached by first parents, a commit in `stop` (an exclude tip) on the way.
 */
export function chainSince(
  objectsDir: string,
  head: string,
  tip: string,
  options: { max: number; stop: ReadonlySet<string>; utc: string | null },
): LogCommit[] | null {
  const nonce = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
  const log = chainLogBytes(objectsDir, head, tip, options, nonce);
  if (log === null) return null;
  if (log.count === 0) return [];
  const commits = parseLog(log.bytes.toString('utf8'), true, nonce);
  return commits.length === log.count ? commits : null;
}
