import fs from 'node:fs';
import path from 'node:path';

/**
 * The worktree root for an agent hook, found without starting git (the hook is on every tool call): the
 * nearest directory at or above `start` holding `.git` (a directory, or a file in a linked worktree) or
 * `.hestai/`, with symbolic links resolved. Null when there is none.
 */
export function findProjectRoot(start: string): string | null {
  let dir: string;
  try {
    dir = fs.realpathSync(start);
  } catch {
    return null;
  }
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git')) || fs.existsSync(path.join(dir, '.hestai'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** How a command line calls hestai here: one function for every hint and template (src/util/invocation.ts). */
export { cliCommandFor } from '../util/invocation.js';
