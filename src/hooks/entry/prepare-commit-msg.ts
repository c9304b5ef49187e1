// Entry of `hooks/prepare-commit-msg`, bundled by scripts/build.mjs into dist/hooks/prepare-commit-msg.cjs. git
// runs the hook in the worktree root with the message file, the message's source and a commit as arguments.
import { executeHook } from '../main.js';
import { prepareCommitMsg } from '../prepare-commit-msg.js';

/**
 * Runs the prepare-commit-msg hook in the current directory. It resolves to 0 whatever happened: the hook only
 * adds trailers and git runs it even under --no-verify, so an invalid config or an internal error is printed
 * and the commit goes on (CI's verify judges it).
 */
export async function run(args: readonly string[]): Promise<number> {
  await executeHook('prepare-commit-msg', process.cwd(), args, process.env, prepareCommitMsg);
  return 0;
}
