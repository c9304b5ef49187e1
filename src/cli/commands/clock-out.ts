import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { action } from '../run.js';

export function registerClockOut(program: Command): void {
  program
    .command('clock-out')
    .description('archive the session in OCTAVE and mark the FAST layer ended')
    .option(
      '--session <id>',
      'session id (default: HESTAI_SESSION, else the most recently anchored or started session)',
    )
    .option('--summary <text>', 'what the session did')
    .action(
      action(async (ctx, opts: { session?: string; summary?: string }) => {
        const { clockOut } = await import('../../session/clock-out.js');
        const res = await clockOut(
          { working_dir: path.resolve(ctx.cwd), session_id: opts.session, summary: opts.summary },
          { clock: ctx.clock, env: ctx.env },
        );
        const text = [
          `clocked out: session ${res.session_id} after ${res.duration}, ${res.commits.length} commit(s)`,
          `archive: ${res.archive_path}`,
          `anchor: ${res.anchor_digest ?? 'none'}`,
        ].join('\n');
        return { exitCode: ExitCode.Ok, json: res, text };
      }),
    );
}
