// Entry of `hooks/prepare-commit-msg`, bundled by scripts/build.mjs into dist/hooks/prepare-commit-msg.cjs: a small
// file that reads git's command line (Linux /proc) before it loads the judge (prepare-commit-msg-judge.cjs).
import { readCommitInvocation, runsCommitMsgHook } from '../../git/invocation.js';

/**
 * Runs the prepare-commit-msg hook in the current directory; resolves to 0 whatever happened. Under `git commit`
 * without --no-verify, commit-msg runs next and writes the same trailers, so this hook has nothing to add. Elsewhere
 * (a revert, cherry-pick, rebase pick, --no-verify commit, or no /proc) it judges the session and adds them.
 */
export async function run(args: readonly string[]): Promise<number> {
  if (runsCommitMsgHook(readCommitInvocation())) return 0;
  const { run: judge } = await import('./prepare-commit-msg-judge.js');
  return judge(args);
}
