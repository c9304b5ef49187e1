// Entry of `hooks/commit-msg`, bundled by scripts/build.mjs into dist/hooks/commit-msg.cjs. git runs the
// hook in the worktree root with the message file as its argument.
import { checkCommitMsg } from '../commit-msg.js';
import { decideCommitMsg, executeHook } from '../main.js';

/** Runs the commit-msg hook in the current directory; resolves to the exit code. */
export function run(args: readonly string[]): Promise<number> {
  return executeHook('commit-msg', process.cwd(), args, process.env, decideCommitMsg(checkCommitMsg));
}
