import fs from 'node:fs';
import path from 'node:path';
import { usageError, HestaiError } from '../errors.js';
import { assertSafeStatePath, unsafeStatePath } from './safe-path.js';
import { throwIfCancelled } from '../util/cancel.js';
import { randomHex } from '../util/sha256.js';

export { assertSafeStatePath, stateBoundary } from './safe-path.js';

/**
 * The one module that touches state files (STYLE.md §3).
 *
 * - Writes are atomic: write a temporary file in the same directory, fsync it, rename(2) it over the
 *   target, fsync the directory. A crash at any instant leaves the old file or the new one.
 * - Reads never treat a corrupt or truncated file as valid: they throw a `HestaiError` (exit 2) that
 *   names the file and says what to do.
 * - `withLock` serialises read-modify-write across processes with an exclusive `mkdir` lock; it waits
 *   with timers, never blocking the event loop.
 * - Every write, append, mkdir, rename and removal goes through `assertSafeStatePath` first (safe-path.ts):
 *   no symlink and nothing but real directories between the worktree root and the file, and the file
 *   itself never a symlink, FIFO or device. No writer outside this module touches state paths with `fs`.
 */

/** Validates a parsed value. Kept free of zod so the hook path can stay small. */
export type Validate<T> = (value: unknown) => { ok: true; value: T } | { ok: false; errors: string[] };

function corrupt(file: string, problem: string, details: string[] = []): HestaiError {
  return usageError(`state file ${file} is corrupt: ${problem}`, {
    file,
    details,
    code: 'STATE_CORRUPT',
    remedy:
      'Do not edit files under .hestai/ by hand. Move the file aside (or run `hestai cleanup`) and run the command that creates it again, e.g. `hestai clock-in`.',
  });
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic there.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Maps a failed filesystem write (ENOSPC, EACCES, ENOTDIR, ...) to a clear storage error (exit 2). */
export function storageError(file: string, error: unknown): HestaiError {
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  const why =
    code === 'ENOSPC'
      ? 'the disk is full'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'the filesystem is read-only'
          : `${code}`;
  return usageError(`cannot write ${file}: ${why}`, {
    file,
    code: 'STORAGE',
    cause: error,
    remedy:
      code === 'ENOSPC'
        ? 'Free some disk space and run the command again; nothing was changed.'
        : 'Check the permissions of the .hestai/ directory and run the command again; nothing was changed.',
  });
}

/** Writes `data` to `file` atomically (temp + fsync + rename + fsync dir). Creates parent directories. */
export function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: { mode?: number; within?: string } = {},
): void {
  assertSafeStatePath(file, 'file', options.within);
  const dir = path.dirname(file);
  // The temporary name needs to be unique, not secret: it is created with O_EXCL ('wx'), which fails on
  // anything already there (a planted file or symlink), so Math.random serves and the hooks' writes
  // do not load node:crypto for it.
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${unique}.tmp`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const fd = fs.openSync(tmp, 'wx', options.mode ?? 0o644);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    fsyncDir(dir);
  } catch (error) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* the temporary file may not exist */
    }
    throw storageError(file, error);
  }
}

/** Writes a JSON document atomically, pretty-printed with a trailing newline. */
export function writeJsonAtomic(file: string, value: unknown, options: { within?: string } = {}): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, options);
}

/** The names in a directory; none when it does not exist (any other error throws). */
export function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The largest state or config file read (a bigger one is refused as corrupt, never read whole). */
export const MAX_STATE_BYTES = 16 * 1024 * 1024;

/**
 * Reads a text file, or returns null when it does not exist. Never blocks (issue 26, item 4): the file is
 * opened with `O_NONBLOCK` and checked on the open descriptor, so a FIFO, device or socket planted in place
 * of a state or config file is an error naming it (the hooks then refuse: they fail closed), not a read that
 * hangs the hook past its deadline; a file larger than {@link MAX_STATE_BYTES} likewise.
 */
export function readTextIfExists(file: string): string | null {
  // A missing file is the common case on hot paths (no anchor yet, no pending handshake): existsSync says
  // so without the cost of a thrown ENOENT (~40 µs each on a warm MCP call); a file removed in between
  // still falls to the ENOENT branch below.
  if (!fs.existsSync(file)) return null;
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw corrupt(file, 'not a regular file (a FIFO, device, socket or directory is never read)');
    if (stat.size > MAX_STATE_BYTES) throw corrupt(file, `larger than ${MAX_STATE_BYTES} bytes`);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Parses a JSON state file's text; a syntax error or truncation is a corrupt-file error. */
export function parseJsonState(file: string, text: string): unknown {
  if (text.trim() === '') throw corrupt(file, 'the file is empty (truncated write?)');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw corrupt(file, `invalid JSON (${(error as Error).message})`);
  }
}

/** Reads and validates a JSON state file; returns null when it does not exist. */
export function readJsonIfExists<T>(file: string, validate: Validate<T>): T | null {
  const text = readTextIfExists(file);
  if (text === null) return null;
  const result = validate(parseJsonState(file, text));
  if (!result.ok) throw corrupt(file, result.errors[0] ?? 'unexpected content', result.errors);
  return result.value;
}

/**
 * Appends one JSON record as a line (JSONL). The line is written with a single `write` on an O_APPEND
 * descriptor, so concurrent appenders do not interleave within a line.
 */
export function appendJsonl(file: string, record: unknown): void {
  const line = `${JSON.stringify(record)}\n`;
  assertSafeStatePath(file, 'file');
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // O_NOFOLLOW and O_NONBLOCK: a symlink or FIFO swapped in after the check fails here instead of
    // being followed or blocking; fstat then confirms what was opened is a regular file.
    const fd = fs.openSync(file, APPEND_FLAGS, 0o644);
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw unsafeStatePath(file, 'is not a regular file', file);
      // A writer killed mid-line left no newline: start on a line of our own, so the torn line stays
      // alone (readers name it) and this record is intact.
      fs.writeSync(fd, stat.size > 0 && !endsWithNewline(fd, stat.size) ? `\n${line}` : line);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if (error instanceof HestaiError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw unsafeStatePath(file, 'is a symlink', file);
    throw storageError(file, error);
  }
}

function endsWithNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  return fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
}

const APPEND_FLAGS =
  fs.constants.O_RDWR |
  fs.constants.O_APPEND |
  fs.constants.O_CREAT |
  (fs.constants.O_NOFOLLOW ?? 0) |
  (fs.constants.O_NONBLOCK ?? 0);

/** Creates a state directory (and parents) after the same checks as a write. */
export function ensureStateDir(dir: string): void {
  assertSafeStatePath(dir, 'dir');
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw storageError(dir, error);
  }
}

/** Removes a state file or directory (recursively) after the same checks as a write; missing is fine. */
export function removeStatePath(target: string): void {
  assertSafeStatePath(target, 'any');
  try {
    fs.rmSync(target, { recursive: true, force: true });
  } catch (error) {
    throw storageError(target, error);
  }
}

/** Renames one state path to another (rename(2): atomic on one filesystem) after checking both. */
export function renameStatePath(from: string, to: string): void {
  assertSafeStatePath(from, 'any');
  assertSafeStatePath(to, 'any');
  try {
    fs.renameSync(from, to);
  } catch (error) {
    throw storageError(to, error);
  }
}

/** Reads a JSONL file. A line that is not JSON is a corrupt-file error naming the line. */
export function readJsonl(file: string): unknown[] {
  const text = readTextIfExists(file);
  if (text === null) return [];
  const records: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch (error) {
      throw corrupt(`${file}:${i + 1}`, `line ${i + 1} is not JSON (${(error as Error).message})`);
    }
  }
  return records;
}

/** Resolves after `ms` (the global timer: no module to load on the hook path, unlike node:timers/promises). */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this is broken even when its owner seems alive (default 15 min; a dead owner's at once). */
  staleMs?: number;
}

/**
 * Runs `fn` while holding an exclusive inter-process lock named by `lockPath` (a directory created with
 * mkdir(2), which is atomic). A lock left by a crashed process is broken once it is stale and its owner
 * is no longer running. `fn` may be asynchronous: the lock is held until its promise settles.
 *
 * Waiting never blocks the event loop (issue 17, item 8): a held lock is polled with timers (2 ms, doubling
 * to 50 ms), so the MCP server keeps answering other requests while one of its calls waits. There is no
 * synchronous variant on purpose: every caller is an async use case, and a blocking wait (Atomics.wait)
 * is refused by the linter. An uncontended lock is taken without yielding.
 */
export async function withLock<T>(lockPath: string, fn: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 15 * 60_000;
  const deadline = Date.now() + timeoutMs;
  assertSafeStatePath(lockPath, 'dir');
  ensureStateDir(path.dirname(lockPath));
  let wait = 2;
  // This holding's own owner line (unique: two holdings in one process differ by their id), so release
  // removes the lock only while it is still this holding's.
  const mine = `${lockOwnerLine(process.pid).trimEnd()} id:${randomHex(6)}\n`;
  for (;;) {
    throwIfCancelled(`taking the lock ${lockPath}`); // a cancelled MCP request stops before the writes it guards
    if (tryAcquire(lockPath, staleMs, mine)) break;
    if (Date.now() > deadline) {
      throw usageError(`timed out waiting for the lock ${lockPath}`, {
        file: lockPath,
        code: 'LOCK_TIMEOUT',
        remedy:
          'Another hestai process is working on this state. Wait for it; if none is running, remove the lock directory.',
      });
    }
    await sleep(wait);
    wait = Math.min(wait * 2, 50);
  }
  try {
    return await fn();
  } finally {
    releaseLock(lockPath, mine);
  }
}

/**
 * Removes the lock if it is still this holding's: one broken as stale meanwhile (a holder past `staleMs`)
 * and taken by another holder is that holder's now, and stays.
 */
function releaseLock(lockPath: string, mine: string): void {
  let owner: ReturnType<typeof readOwner>;
  try {
    owner = readOwner(path.join(lockPath, 'owner'));
  } catch {
    owner = mine; // unreadable: remove it, as before, rather than leave a lock nobody can judge
  }
  if (owner === mine) fs.rmSync(lockPath, { recursive: true, force: true });
}

/**
 * One attempt to take the lock: true when taken, false when another live owner holds it or another waiter
 * is breaking it (a stale one is broken, see breakStaleLock).
 */
function tryAcquire(lockPath: string, staleMs: number, owner: string): boolean {
  for (;;) {
    try {
      fs.mkdirSync(lockPath);
      fs.writeFileSync(path.join(lockPath, 'owner'), owner);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw storageError(lockPath, error);
      if (!isStaleLock(lockPath, staleMs) || !breakStaleLock(lockPath, staleMs)) return false;
    }
  }
}

/** A breaker directory older than this was left by a waiter killed inside its few-microsecond section. */
const BREAKER_STALE_MS = 5_000;

/**
 * Removes a lock judged stale; true when it is gone. Many waiters judge the same stale lock at once, and
 * one that judged it before another waiter broke and retook it must not remove the new holder's lock: so
 * only the waiter that holds `<lock>.break` (mkdir, atomic) removes it, after judging it again there.
 * Every other waiter returns false and polls again. A breaker directory left by a killed waiter is removed
 * once it is older than BREAKER_STALE_MS.
 */
function breakStaleLock(lockPath: string, staleMs: number): boolean {
  const breaker = `${lockPath}.break`;
  try {
    fs.mkdirSync(breaker);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw storageError(breaker, error);
    try {
      if (Date.now() - fs.lstatSync(breaker).mtimeMs > BREAKER_STALE_MS)
        fs.rmSync(breaker, { recursive: true, force: true });
    } catch {
      /* gone meanwhile, or not removable now: polled again */
    }
    return false;
  }
  try {
    if (!isStaleLock(lockPath, staleMs)) return !fs.existsSync(lockPath);
    fs.rmSync(lockPath, { recursive: true, force: true });
    return true;
  } catch {
    return false; // e.g. a holder writing into it meanwhile (ENOTEMPTY): judged again at the next poll
  } finally {
    fs.rmSync(breaker, { recursive: true, force: true });
  }
}

/**
 * The start time of a process (Linux: field 22 of /proc/<pid>/stat, in clock ticks since boot), or null
 * where it cannot be read. With the pid it names one process: a pid reused later has another start time.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

let cachedBootId: string | null | undefined;
/**
 * This machine's boot (Linux: `/proc/sys/kernel/random/boot_id`, random per boot and the same in every
 * container on the kernel), or null where the platform has none. Read once per process.
 */
function bootId(): string | null {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId;
}

/** The `owner` line of a lock held by `pid` (pid, start time, boot; what `isStaleLock` judges). */
export function lockOwnerLine(pid: number): string {
  const start = processStartTime(pid);
  const boot = bootId();
  return `${pid}${start === null ? '' : ` start:${start}`}${boot === null ? '' : ` boot:${boot}`}\n`;
}

/** A lock directory without an owner file (killed between mkdir and write) is broken after this long. */
const OWNERLESS_MS = 2_000;

/**
 * Whether a lock may be taken over (issue 12, item 6): its owner line was written on another machine or
 * before this boot (where the platform tells the boot apart), or its owner process is gone (pid not
 * running, or the pid now belongs to a process with another start time), or its `owner` was planted (not a regular file,
 * see readOwner; issue 17, item 8), or it has no readable owner and is older than
 * OWNERLESS_MS, or it is older than `staleMs` whatever the owner says (a holder never keeps these locks
 * that long; this bounds a pid check that cannot see the owner, e.g. another pid namespace).
 */
function isStaleLock(lockPath: string, staleMs: number): boolean {
  try {
    const age = Date.now() - fs.statSync(lockPath).mtimeMs;
    const text = readOwner(path.join(lockPath, 'owner'));
    if (text === PLANTED) return true;
    const m = /^(\d+)(?: start:(\S+))?(?: boot:(\S+))?(?: id:[0-9a-f]+)?\s*$/.exec(text ?? '');
    if (m === null) return age > OWNERLESS_MS;
    // Written on another machine or before this boot (a lock committed to a cloned repository names pid 1,
    // always alive here, with a guessable start time): no holder of it runs here.
    const boot = bootId();
    if (boot !== null && m[3] !== boot) return true;
    const pid = Number(m[1]);
    if (!processAlive(pid)) return true;
    const recorded = m[2];
    if (recorded !== undefined) {
      const now = processStartTime(pid);
      if (now !== null && now !== recorded) return true;
    }
    return age > staleMs;
  } catch {
    return false;
  }
}

/** What `readOwner` says of an `owner` that no hestai process wrote (not a regular file). */
const PLANTED = Symbol('planted');
const OWNER_READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * The owner line of a lock (its first 256 bytes), null when it has none yet, or PLANTED when `owner` is a
 * symlink, FIFO, device or directory: `withLock` only ever writes a small regular file there, and reading
 * anything else could block forever (a FIFO) or never end (a link to /dev/zero). Opened without following a
 * link and without blocking; a FIFO is never read.
 */
function readOwner(file: string): string | null | typeof PLANTED {
  let fd: number;
  try {
    fd = fs.openSync(file, OWNER_READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') return PLANTED;
    throw error;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return PLANTED;
    const buffer = Buffer.alloc(256);
    return buffer.toString('utf8', 0, fs.readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/** A temporary file of `writeFileAtomic`: `.<name>.<pid>.<unique>.tmp`, the unique part in base 36. */
const LEFTOVER_TMP = /^\..+\.(\d+)\.[0-9a-z]+\.tmp$/;

/**
 * Removes what a killed writer left in `dirs` (non-recursive): temporary files of `writeFileAtomic`
 * (LEFTOVER_TMP) whose process is gone. Returns the removed paths. Call it holding the lock
 * that serialises those writers; a failure to remove is ignored (the next run tries again).
 */
export function sweepTempFiles(dirs: readonly string[]): string[] {
  const removed: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = LEFTOVER_TMP.exec(name);
      if (m === null || processAlive(Number(m[1]))) continue;
      try {
        removeStatePath(path.join(dir, name));
        removed.push(path.join(dir, name));
      } catch {
        /* left for the next run */
      }
    }
  }
  return removed;
}
