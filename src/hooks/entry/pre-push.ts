// Entry of `hooks/pre-push`, bundled by scripts/build.mjs into dist/hooks/pre-push.cjs. git runs the hook
// in the worktree root with the remote's name and URL as arguments and the refs being pushed on stdin.
import { prePush } from '../pre-push.js';
import { decidePrePush, executeHook, readHookStdin } from '../main.js';

/** Runs the pre-push hook in the current directory; resolves to the exit code. */
export function run(args: readonly string[]): Promise<number> {
  return executeHook('pre-push', process.cwd(), args, process.env, decidePrePush(prePush, readHookStdin));
}
