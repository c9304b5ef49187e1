// The judging part of `hooks/prepare-commit-msg`, bundled by scripts/build.mjs into its own
// dist/hooks/prepare-commit-msg-judge.cjs, which the entry (prepare-commit-msg.ts) loads only where commit-msg
// does not follow. git runs the hook in the worktree root with the message file, the message's source and a commit.
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
