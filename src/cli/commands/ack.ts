import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { action, SESSION_OPTION } from '../run.js';

export function registerAck(program: Command): void {
  program
    .command('ack')
    .description("acknowledge a session's stale context for its current generation (audited)")
    .requiredOption('--reason <text>', 'why the context is still valid')
    .option(...SESSION_OPTION)
    .action(
      action(async (ctx, opts: { reason: string; session?: string }) => {
        const { acknowledgeStale } = await import('../../session/ack.js');
        const res = await acknowledgeStale(
          { working_dir: path.resolve(ctx.cwd), session_id: opts.session, reason: opts.reason },
          { clock: ctx.clock, env: ctx.env },
        );
        const text = `acknowledged: session ${res.session_id}, context of ${res.context_generated_at} (${res.context_age_hours} h old${res.was_stale ? ', was stale' : ''})`;
        return { exitCode: ExitCode.Ok, json: res, text };
      }),
    );
}
