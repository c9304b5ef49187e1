import { clockFromEnv } from '../clock.js';
import { ExitCode } from '../errors.js';
import { handlers } from './commands/session.js';
import { createOutput } from './output.js';
import { runHandler } from './run.js';
import type { SessionInvocation } from './session-argv.js';

/**
 * Runs a `hestai session ...` invocation that `sessionArgv` took (the fast path, without commander): the
 * same context, handler, output and error mapping as the commander action.
 */
export async function runSession(inv: SessionInvocation): Promise<number> {
  await runHandler(
    inv.sub,
    () => ({
      cwd: inv.cwd ?? process.cwd(),
      json: inv.json,
      out: createOutput(inv.json),
      clock: clockFromEnv(),
      env: process.env,
    }),
    () => inv.json,
    (ctx) => handlers[inv.sub](ctx, { session: inv.session, phase: inv.phase, opts: inv.opts }),
  );
  return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.Ok;
}
