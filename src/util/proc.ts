import fs from 'node:fs';
import path from 'node:path';

/** What `nearestAncestor` found: the process's argv, no such ancestor, or no /proc to look in (not Linux). */
export type AncestorLookup =
  { kind: 'found'; pid: number; argv: string[] } | { kind: 'none' } | { kind: 'unavailable' };

/** Pure: the command name and parent pid from the text of `/proc/<pid>/stat` (the name may hold spaces and `)`). */
export function parseProcStat(text: string): { comm: string; ppid: number } | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open === -1 || close < open) return null;
  const ppid = Number(text.slice(close + 2).split(' ')[1]);
  return Number.isInteger(ppid) ? { comm: text.slice(open + 1, close), ppid } : null;
}

/** Pure: argv from the text of `/proc/<pid>/cmdline` (NUL-separated, NUL-terminated). */
export function parseProcCmdline(text: string): string[] {
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'latin1');
  } catch {
    return null;
  }
}

/** The base name of a process's executable (`/proc/<pid>/exe`), null when it cannot be read. */
function executableName(proc: string, pid: number): string | null {
  try {
    return path.basename(fs.readlinkSync(`${proc}/${pid}/exe`));
  } catch {
    return null;
  }
}

/**
 * The nearest ancestor process (parent first, at most `maxDepth` levels up) whose executable's base name is
 * `name`, read from Linux's /proc: a few small file reads, no process started. Only the executable counts:
 * the command name and argv[0] are whatever the caller chose (a shell script named `git` has the command
 * name `git` and runs /bin/sh). `unavailable` where there is no /proc (macOS, Windows) or the parent cannot
 * be read.
 */
export function nearestAncestor(
  name: string,
  options: { startPid?: number; maxDepth?: number; procRoot?: string } = {},
): AncestorLookup {
  const proc = options.procRoot ?? '/proc';
  let pid = options.startPid ?? process.ppid;
  for (let depth = 0; depth < (options.maxDepth ?? 6) && pid > 1; depth++) {
    const statText = read(`${proc}/${pid}/stat`);
    const stat = statText === null ? null : parseProcStat(statText);
    if (stat === null) return depth === 0 ? { kind: 'unavailable' } : { kind: 'none' };
    if (executableName(proc, pid) === name) {
      const cmdline = read(`${proc}/${pid}/cmdline`);
      return { kind: 'found', pid, argv: cmdline === null ? [] : parseProcCmdline(cmdline) };
    }
    pid = stat.ppid;
  }
  return { kind: 'none' };
}
