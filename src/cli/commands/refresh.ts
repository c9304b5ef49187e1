import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { action, SESSION_OPTION } from '../run.js';

export function registerRefresh(program: Command): void {
  program
    .command('refresh')
    .description("regenerate a session's context (new generation timestamp for the 24 h rule)")
    .option(...SESSION_OPTION)
    .action(
      action(async (ctx, opts: { session?: string }) => {
        const { refreshSession } = await import('../../session/refresh.js');
        const res = await refreshSession(
          { working_dir: path.resolve(ctx.cwd), session_id: opts.session },
          { clock: ctx.clock, env: ctx.env },
        );
        const text = [
          `refreshed: session ${res.session_id}, context generated at ${res.context_generated_at} (was ${res.previous_context_generated_at})`,
          `selection: ${res.selection.method}${res.selection.reason ? ` (${res.selection.reason})` : ''}`,
          ...res.context.selected.slice(0, 10).map((s) => `  ${s.path}`),
          ...res.warnings.map((w) => `warning: ${w}`),
        ].join('\n');
        return { exitCode: ExitCode.Ok, json: res, text };
      }),
    );
}
