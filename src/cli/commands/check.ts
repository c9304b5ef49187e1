import type { Command } from 'commander';
import { action } from '../run.js';

/**
 * `hestai check pre-commit` / `hestai check commit-msg FILE`: the hook entrypoints through the CLI. The
 * bin dispatches these without commander when started in a worktree root (see bin.ts); this adapter
 * serves `--cwd`, subdirectories and `--help`.
 */
export function registerCheck(program: Command): void {
  const check = program.command('check').description('run a hook check by hand: pre-commit, commit-msg FILE');
  const run = (name: 'pre-commit' | 'commit-msg') =>
    action(async (ctx, ...args: unknown[]) => {
      const { resolveWorkspace } = await import('../../workspace.js');
      const { runHook } = await import('../../hooks/main.js');
      const root = resolveWorkspace(ctx.cwd).root;
      const file = typeof args[0] === 'string' ? (await import('node:path')).resolve(ctx.cwd, args[0]) : undefined;
      const code = await runHook(name, root, file === undefined ? [] : [file], ctx.env);
      return { exitCode: code as 0 | 1 | 2, json: { ok: code === 0, exit_code: code }, text: '' };
    });
  check
    .command('pre-commit')
    .description('block a commit without a valid anchor, with a terminal handshake, or with stale unacknowledged context')
    .action(run('pre-commit'));
  check
    .command('commit-msg')
    .description('check the Conventional Commit header and the test-first rule; append the HestAI trailers')
    .argument('<file>', 'the commit message file (git passes .git/COMMIT_EDITMSG)')
    .action(run('commit-msg'));
}
