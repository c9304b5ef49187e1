import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import type { RefUpdate } from '../../receive/updates.js';
import { action } from '../run.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every line of the hook's output goes to stderr, which git relays to the pusher as `remote:` lines. */
const say = (lines: readonly string[]) => {
  if (lines.length > 0) process.stderr.write(`${lines.join('\n')}\n`);
};

/**
 * The repository the hook runs in, as every git command of the run must see it: git starts a hook with the
 * repository's directory as cwd and GIT_DIR relative; a bare repository is given itself as work tree (verify
 * reads files at commits, never a work tree).
 */
async function hookRepository(cwd: string): Promise<string> {
  const { runGit } = await import('../../git/exec.js');
  const gitDir = path.resolve(cwd, process.env['GIT_DIR'] ?? runGit(['rev-parse', '--git-dir'], { cwd }).stdout.trim());
  process.env['GIT_DIR'] = gitDir;
  const bare = runGit(['rev-parse', '--is-bare-repository'], { cwd }).stdout.trim() === 'true';
  if (bare) process.env['GIT_WORK_TREE'] = gitDir;
  return bare ? gitDir : runGit(['rev-parse', '--show-toplevel'], { cwd }).stdout.trim();
}

/**
 * What the hook says when it fails: pre-receive refuses the push (fail closed); post-receive (`receipts`, the
 * refs it was given) runs once the push has landed, so it says which receipts are missing.
 */
function failure(error: unknown, phase: string, receipts: readonly RefUpdate[] | null): string[] {
  const reason = (error as Error)?.message ?? String(error);
  if (receipts)
    return [
      `hestai receive: no receipt was written for ${receipts.map((u) => u.ref).join(', ') || 'this push'} (${reason}); the push itself was accepted`,
      '  its commits have no receipt (verify.receipts: required fails them); the server admin sees this reason in the hook output',
    ];
  return [
    `hestai receive: refused: the push could not be judged while ${phase}: ${reason}`,
    '  the push is refused rather than let in unjudged (fail closed); remedy: git push again once the server is fixed (its admin sees this reason in the hook output)',
  ];
}

export function registerReceive(program: Command): void {
  program
    .command('receive')
    .description(
      "a git server's hook: as pre-receive (no arguments, `<old> <new> <ref>` lines on stdin) or update (`<ref> <old> <new>`) judge each pushed ref as hestai verify does, by the base's policy; with --receipts (post-receive) record a receipt per ref",
    )
    .argument('[update...]', 'the update hook\u2019s arguments: <ref> <old> <new>')
    .option(
      '--receipts',
      'post-receive: record the receive time, old/new ids and pusher of each ref in refs/hestai/receipts',
    )
    .option(
      '--timeout <seconds>',
      'refuse the push (fail closed) when judging takes longer (default: git config hestai.receive.timeout, else none)',
    )
    .action(
      action(async (ctx, args: string[], options: { receipts?: boolean; timeout?: string }) => {
        let phase = 'reading the pushed refs';
        let timer: NodeJS.Timeout | undefined;
        let list: RefUpdate[] = [];
        try {
          const root = await hookRepository(ctx.cwd);
          const updates = await import('../../receive/updates.js');
          list = args.length === 0 ? updates.parsePreReceive(await readStdin()) : updates.parseUpdateArgs(args);
          if (options.receipts) {
            const { recordReceipts } = await import('../../receive/receipts.js');
            const { markReceived } = await import('../../receive/receive.js');
            markReceived(root);
            const receipts = await recordReceipts(root, list, ctx.clock(), process.env);
            say(
              receipts.map(
                (r) =>
                  `hestai receive: receipt for ${r.ref} at ${r.received_at} (pusher ${r.pusher}, ${r.commits} commit(s)${r.parts > 1 ? ` in ${r.parts} parts` : ''})`,
              ),
            );
            return { exitCode: ExitCode.Ok, json: { ok: true, receipts }, text: '', streamed: true };
          }
          const { configGet } = await import('../../git/repo.js');
          const seconds = Number(options.timeout ?? configGet(root, 'hestai.receive.timeout') ?? 0);
          if (Number.isFinite(seconds) && seconds > 0) {
            timer = setTimeout(() => {
              say([
                `hestai receive: refused: judging the push did not finish within ${seconds} s (hestai.receive.timeout) while ${phase}; the push is refused rather than let in unjudged (fail closed)`,
                '  remedy: push fewer commits at a time (git push origin <commit>:<branch>), or raise the limit: git config hestai.receive.timeout <seconds>',
              ]);
              process.exit(ExitCode.Blocked);
            }, seconds * 1000);
            timer.unref();
          }
          phase = `judging ${list.length} ref(s)`;
          const { receive, receiveLines, receiveOptions } = await import('../../receive/receive.js');
          const result = await receive(root, list, receiveOptions(root), ctx.clock());
          say(receiveLines(result));
          return { exitCode: result.ok ? ExitCode.Ok : ExitCode.Blocked, json: result, text: '', streamed: true };
        } catch (error) {
          say(failure(error, phase, options.receipts ? list : null));
          return { exitCode: ExitCode.Blocked, json: { ok: false }, text: '', streamed: true };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
}
