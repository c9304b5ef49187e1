// Entry of `hooks/prepare-commit-msg`, bundled by scripts/build.mjs into dist/hooks/prepare-commit-msg.cjs. git
// runs the hook in the worktree root with the message file, the message's source and a commit as arguments.
import { executeHook } from '../main.js';
import { prepareCommitMsg } from '../prepare-commit-msg.js';

/** Runs the prepare-commit-msg hook in the current directory; resolves to the exit code. */
export function run(args: readonly string[]): Promise<number> {
  return executeHook('prepare-commit-msg', process.cwd(), args, process.env, prepareCommitMsg);
}
