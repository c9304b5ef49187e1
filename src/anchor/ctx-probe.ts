/**
 * The real CTX probe: resolves a cited path inside the working directory (following symlinks, refusing
 * what resolves outside it) and counts a file's lines. Results are cached per probe.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../paths.js';
import type { CtxProbe, CtxTarget } from './rules/types.js';

/**
 * The most a CTX citation reads to count lines (8 MiB). A cited file larger than this exists (a citation
 * without a line range passes) but a line range in it is refused: reading it would cost unbounded time
 * and memory (a 3 GiB file used to crash the proof with a RangeError).
 */
export const MAX_CTX_BYTES = 8 * 1024 * 1024;

/** Lines in a buffer: newlines, plus one for a last line without a newline. */
export function countLines(buffer: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < buffer.length; i++) if (buffer[i] === 0x0a) count++;
  return buffer.length > 0 && buffer[buffer.length - 1] !== 0x0a ? count + 1 : count;
}

/** A probe rooted at `root` (its real path is used for the containment check). */
export function makeCtxProbe(root: string): CtxProbe {
  const realRoot = fs.realpathSync(root);
  const cache = new Map<string, CtxTarget>();
  return (relative) => {
    const cached = cache.get(relative);
    if (cached) return cached;
    let target: CtxTarget;
    let real: string;
    try {
      real = fs.realpathSync(path.join(realRoot, relative));
    } catch {
      target = { kind: 'missing' };
      cache.set(relative, target);
      return target;
    }
    if (!isInside(realRoot, real)) target = { kind: 'outside', target: real };
    else {
      target = probeFile(real);
    }
    cache.set(relative, target);
    return target;
  };
}

/** What a real path is, reading at most MAX_CTX_BYTES in fixed chunks; never opens a FIFO or device. */
function probeFile(real: string): CtxTarget {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(real);
  } catch {
    return { kind: 'missing' };
  }
  if (stat.isDirectory()) return { kind: 'dir' };
  if (!stat.isFile()) return { kind: 'special' };
  if (stat.size > MAX_CTX_BYTES) return { kind: 'too_large', bytes: stat.size, limit: MAX_CTX_BYTES };
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a FIFO swapped in after the stat cannot block the proof.
    fd = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    if (!fs.fstatSync(fd).isFile()) return { kind: 'special' };
    const chunk = Buffer.alloc(64 * 1024);
    let lines = 0;
    let total = 0;
    let last = -1;
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n <= 0) break;
      total += n;
      if (total > MAX_CTX_BYTES) return { kind: 'too_large', bytes: total, limit: MAX_CTX_BYTES };
      for (let i = 0; i < n; i++) if (chunk[i] === 0x0a) lines++;
      last = chunk[n - 1]!;
    }
    return { kind: 'file', lines: total > 0 && last !== 0x0a ? lines + 1 : lines };
  } catch {
    return { kind: 'missing' };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
