/**
 * The real CTX probe: resolves a cited path inside the working directory (following symlinks, refusing
 * what resolves outside it) and counts a file's lines. Results are cached per probe.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CtxProbe, CtxTarget } from './rules/types.js';

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
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) target = { kind: 'outside', target: real };
    else {
      const stat = fs.statSync(real);
      target = stat.isDirectory() ? { kind: 'dir' } : stat.isFile() ? { kind: 'file', lines: countLines(fs.readFileSync(real)) } : { kind: 'missing' };
    }
    cache.set(relative, target);
    return target;
  };
}
