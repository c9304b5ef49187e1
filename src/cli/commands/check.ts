import path from 'node:path';
import type { Command } from 'commander';
import { action } from '../run.js';

/**
 * `hestai check pre-commit` / `commit-msg FILE` / `prepare-commit-msg FILE [SOURCE] [SHA]` / `pre-push REMOTE URL`
 * / `tool-use`: the hooks through the CLI (a hook manager's config calls these where hestai is installed globally).
 */
export function registerCheck(program: Command): void {
  const check = program
    .command('check')
    .description('run a hook check by hand: pre-commit, commit-msg FILE, prepare-commit-msg, pre-push, tool-use');
  const run = (name: 'pre-commit' | 'commit-msg' | 'prepare-commit-msg' | 'pre-push') =>
    action(async (ctx, ...args: unknown[]) => {
      const { resolveWorkspace } = await import('../../workspace.js');
      const { runHook } = await import('../../hooks/main.js');
      const root = resolveWorkspace(ctx.cwd).root;
      // git's arguments: a message file first (commit-msg, prepare-commit-msg), then words (source, sha, remote, url).
      const words = args.flat().filter((a): a is string => typeof a === 'string');
      const argv =
        name === 'commit-msg' || name === 'prepare-commit-msg'
          ? words.map((w, i) => (i === 0 ? path.resolve(ctx.cwd, w) : w))
          : words;
      const code = await runHook(name, root, argv, ctx.env);
      return { exitCode: code as 0 | 1 | 2, json: { ok: code === 0, exit_code: code }, text: '' };
    });
  check
    .command('pre-commit')
    .description(
      'block a commit without a valid anchor, with a terminal handshake, or with stale unacknowledged context',
    )
    .action(run('pre-commit'));
  check
    .command('tool-use')
    .description(
      'the edit-time rule for any agent runtime: reads a tool call as JSON on stdin; exit 0 allow, 1 deny (or --deny-exit 2), 2 error',
    )
    .option(
      '--deny-exit <code>',
      'exit code of a refusal: 1 (default) or 2 (for runtimes where 2 blocks, e.g. Gemini CLI)',
      '1',
    )
    .action(async (options: { denyExit: string }, command: import('commander').Command) => {
      const globals = command.optsWithGlobals<{ cwd?: string; json?: boolean }>();
      if (options.denyExit !== '1' && options.denyExit !== '2') {
        process.stderr.write(
          `hestai: --deny-exit must be 1 or 2, not ${JSON.stringify(options.denyExit)}\nhint: hestai check tool-use --deny-exit 2\n`,
        );
        process.exitCode = 2;
        return;
      }
      const [{ runToolUseCheck }, { PACKAGE_ROOT }] = await Promise.all([
        import('../../agent/check-tool-use.js'),
        import('../../setup/init.js'),
      ]);
      const { text } = await import('node:stream/consumers');
      process.exitCode = await runToolUseCheck({
        stdin: () => text(process.stdin),
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
        env: process.env,
        cwd: path.resolve(globals.cwd ?? process.cwd()),
        packageRoot: PACKAGE_ROOT,
        json: globals.json === true,
        denyExit: options.denyExit === '2' ? 2 : 1,
      });
    });
  check
    .command('commit-msg')
    .description('check the Conventional Commit header and the test-first rule; append the HestAI trailers')
    .argument('<file>', 'the commit message file (git passes .git/COMMIT_EDITMSG)')
    .action(run('commit-msg'));
  check
    .command('prepare-commit-msg')
    .description(
      'add the HestAI trailers to a commit git makes without commit-msg (revert, cherry-pick, rebase); never blocks',
    )
    .argument('<file>', 'the commit message file')
    .argument('[source...]', "git's message source and commit")
    .action(run('prepare-commit-msg'));
  check
    .command('pre-push')
    .description("publish the anchors' proof records with the push (reads git's refs on stdin)")
    .argument('<remote>', 'the remote name')
    .argument('[url]', 'its URL')
    .action(run('pre-push'));
}
