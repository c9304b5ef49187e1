import fs from 'node:fs';
import path from 'node:path';
import { isHestaiError, usageError, type HestaiError } from '../errors.js';

/**
 * The guard of every write under a worktree's state directories (issue 12, item 1). A repository someone
 * else prepared can commit a symlink anywhere under `.hestai/` (a directory, or `audit.jsonl` itself), or
 * a FIFO; git checks those out as they are. Writing through one would replace or append to a file outside
 * the worktree (or somewhere else inside it), or block forever on a FIFO.
 *
 * The rule: between the worktree root and the file, every path component that exists must be a real
 * directory (never a symlink, wherever it points), and the file itself, when it exists, must be what the
 * writer expects (a regular file, or a directory for locks and session directories), never a symlink.
 *
 * The worktree root is the parent of the last `.hestai` or `.hestai-sys` segment of the path: every state
 * path comes from `workspacePaths(root)`. A path with no such segment (a test's temporary file, the user's
 * own config directory) is checked at its last component only; `within` names the boundary explicitly
 * (the user's `~/.hestai/`, which may well be a symlink into a dotfiles repository).
 */

/** Directory names, directly under a worktree root, that hold hestai state. */
const STATE_ROOTS = new Set(['.hestai', '.hestai-sys']);

export type StateEntryKind = 'file' | 'dir' | 'any';

/** The worktree root of a state path: the parent of its last `.hestai`/`.hestai-sys` segment, or null. */
export function stateBoundary(target: string): string | null {
  const abs = path.resolve(target);
  const parts = abs.split(path.sep);
  for (let i = parts.length - 1; i > 0; i--) {
    if (STATE_ROOTS.has(parts[i]!)) return parts.slice(0, i).join(path.sep) || path.sep;
  }
  return null;
}

function describe(stat: fs.Stats): string {
  if (stat.isFile()) return 'a file';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isDirectory()) return 'a directory';
  return 'not a regular file';
}

function linkTarget(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '?';
  }
}

/** A plain file or directory in the wrong place: not an attack, a storage problem (exit 2, STORAGE). */
function misplaced(component: string, problem: string, target: string): HestaiError {
  return usageError(`cannot write ${target}: ${component} ${problem}`, {
    file: component,
    code: 'STORAGE',
    remedy: `Move ${component} aside and run the command again; hestai creates what it needs itself.`,
  });
}

function refuse(stat: fs.Stats, component: string, problem: string, target: string): HestaiError {
  return stat.isFile() || stat.isDirectory()
    ? misplaced(component, problem, target)
    : unsafeStatePath(component, problem, target);
}

/** The error every refused state path gives (exit 2; recorded as a security event by the adapters). */
export function unsafeStatePath(component: string, problem: string, target: string): HestaiError {
  return usageError(
    `${component} ${problem} (refused: hestai writes its state only to real files and directories inside the worktree)`,
    {
      file: component,
      code: 'PATH_TRAVERSAL',
      details: component === target ? [] : [`while writing ${target}`],
      remedy: `Remove ${component} (it may have come with the repository: check \`git ls-files -s -- '${component}'\`); hestai creates what it needs itself.`,
    },
  );
}

/**
 * Throws (PATH_TRAVERSAL, exit 2) unless writing `target` cannot leave the worktree: no existing component
 * between the worktree root and `target` is a symlink or anything but a directory, and `target` itself is
 * missing or of the `expected` kind (never a symlink).
 */
export function assertSafeStatePath(target: string, expected: StateEntryKind, within?: string): void {
  const abs = path.resolve(target);
  const root = within !== undefined ? path.resolve(within) : stateBoundary(abs);
  const components: string[] = [];
  if (root === null) components.push(abs);
  else {
    const rel = path
      .relative(root, abs)
      .split(path.sep)
      .filter((s) => s !== '');
    let current = root;
    for (const segment of rel) {
      current = path.join(current, segment);
      components.push(current);
    }
  }
  for (let i = 0; i < components.length; i++) {
    const component = components[i]!;
    const last = i === components.length - 1;
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(component, { throwIfNoEntry: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR')
        throw misplaced(components[i - 1] ?? component, 'is not a directory', abs);
      throw error;
    }
    if (stat === undefined) return; // nothing below can exist; the writer creates real directories from here
    if (stat.isSymbolicLink()) throw unsafeStatePath(component, `is a symlink (to ${linkTarget(component)})`, abs);
    if (!last) {
      if (!stat.isDirectory()) throw refuse(stat, component, `is ${describe(stat)}, not a directory`, abs);
    } else if (expected === 'file' && !stat.isFile()) {
      throw refuse(stat, component, `is ${describe(stat)}, not a regular file`, abs);
    } else if (expected === 'dir' && !stat.isDirectory()) {
      throw refuse(stat, component, `is ${describe(stat)}, not a directory`, abs);
    } else if (expected === 'any' && !stat.isDirectory() && !stat.isFile()) {
      throw refuse(stat, component, `is ${describe(stat)}, not a regular file or directory`, abs);
    }
  }
}

/**
 * `assertSafeStatePath` as a question, for readers that must decide without failing (the security audit of
 * a refused request): false wherever a write would be refused (any symlink on the way, wherever it points;
 * the wrong kind of entry). Other failures (permissions) still throw.
 */
export function isSafeStatePath(target: string, expected: StateEntryKind, within?: string): boolean {
  try {
    assertSafeStatePath(target, expected, within);
    return true;
  } catch (error) {
    if (isHestaiError(error)) return false;
    throw error;
  }
}
