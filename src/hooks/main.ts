import { clockFromEnv } from '../clock.js';
import { loadConfigFast } from '../config/cache.js';
import { isHestaiError } from '../errors.js';
import { workspacePaths } from '../paths.js';
import { applyHookOutcome, type HookOutcome } from './outcome.js';

/**
 * Runs a hook in this process and returns its exit code: the code path of `hooks/pre-commit`,
 * `hooks/commit-msg` and `hestai check ...`. It loads neither commander nor zod nor yaml (unless the
 * workspace config changed since it was last validated). `root` is the worktree root (git's hook cwd).
 */
export async function runHook(name: 'pre-commit' | 'commit-msg', root: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const write = (text: string) => process.stderr.write(text);
  try {
    const clock = clockFromEnv(env);
    const config = await loadConfigFast(root);
    let outcome: HookOutcome;
    if (name === 'pre-commit') {
      const { checkPreCommit } = await import('./pre-commit.js');
      outcome = checkPreCommit({ root, config, env, clock });
    } else {
      const file = args[0];
      if (!file) {
        write('hestai: commit-msg needs the message file as its argument\nhint: git passes it; by hand: hestai check commit-msg .git/COMMIT_EDITMSG\n');
        return 2;
      }
      const { checkCommitMsg } = await import('./commit-msg.js');
      outcome = checkCommitMsg({ root, file, config, env, clock });
    }
    return applyHookOutcome(outcome, workspacePaths(root), clock, write);
  } catch (error) {
    if (isHestaiError(error)) {
      write(`hestai: ${error.message}\n${error.details.map((d) => `  - ${d}\n`).join('')}${error.remedy ? `hint: ${error.remedy}\n` : ''}`);
      return error.exitCode;
    }
    write(`hestai: internal error in the ${name} hook: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 2;
  }
}
