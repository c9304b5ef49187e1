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

/** One process, named so a reused pid is not mistaken for it: its pid and its start time (clock ticks since boot). */
export interface ProcessId {
  pid: number;
  start: string;
}

/** Pure: the start time (field 22) from the text of `/proc/<pid>/stat`, or null. */
export function parseProcStart(text: string): string | null {
  const close = text.lastIndexOf(')');
  if (close === -1) return null;
  return text.slice(close + 2).split(' ')[19] ?? null;
}

/**
 * `startPid` and its ancestors (parent next), at most `depth` processes, each with its start time, read from
 * Linux's /proc; empty where there is no /proc (macOS, Windows).
 */
export function processChain(startPid: number, depth: number, procRoot = '/proc'): ProcessId[] {
  const chain: ProcessId[] = [];
  let pid = startPid;
  while (chain.length < depth && pid > 1) {
    const text = read(`${procRoot}/${pid}/stat`);
    const stat = text === null ? null : parseProcStat(text);
    const start = text === null ? null : parseProcStart(text);
    if (stat === null || start === null) break;
    chain.push({ pid, start });
    pid = stat.ppid;
  }
  return chain;
}
