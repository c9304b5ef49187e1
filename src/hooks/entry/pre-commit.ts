// Entry of `hooks/pre-commit`, bundled by scripts/build.mjs into dist/hooks/pre-commit.cjs (one file,
// CommonJS: the fastest start). git runs the hook in the worktree root.
import { checkPreCommit } from '../pre-commit.js';
import { decidePreCommit, executeHook } from '../main.js';

/** Runs the pre-commit hook in the current directory; resolves to the exit code. */
export function run(args: readonly string[]): Promise<number> {
  return executeHook('pre-commit', process.cwd(), args, process.env, decidePreCommit(checkPreCommit));
}
