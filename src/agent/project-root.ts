import fs from 'node:fs';
import path from 'node:path';

/**
 * The worktree root for an agent hook, found without starting git (the hook is on every tool call): the
 * nearest directory at or above `start` holding `.git` (a directory, or a file in a linked worktree or a
 * submodule), as git itself finds the work tree; only outside any git work tree the nearest one holding
 * `.hestai/`. A `.hestai/` in a subdirectory of a repository (committed with it) never stands for the
 * worktree: the git hooks, the CLI and the MCP server judge the repository git names, and so does this.
 * Symbolic links resolved. Null when there is neither.
 */
export function findProjectRoot(start: string): string | null {
  let dir: string;
  try {
    dir = fs.realpathSync(start);
  } catch {
    return null;
  }
  let hestai: string | null = null;
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    if (hestai === null && fs.existsSync(path.join(dir, '.hestai'))) hestai = dir;
    const parent = path.dirname(dir);
    if (parent === dir) return hestai;
    dir = parent;
  }
}

/** How a command line calls hestai here: one function for every hint and template (src/util/invocation.ts). */
export { agentCliFor, cliCommandFor } from '../util/invocation.js';
