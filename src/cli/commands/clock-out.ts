import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { action, SESSION_OPTION } from '../run.js';

export function registerClockOut(program: Command): void {
  program
    .command('clock-out')
    .description('archive the session in OCTAVE and mark the FAST layer ended')
    .option(...SESSION_OPTION)
    .option('--summary <text>', 'what the session did')
    .option(
      '--carry <item>',
      "carry this checklist item of the session forward to its focus (repeatable; default: the session's items are marked DONE)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--carry-all',
      'carry every checklist item of the session forward to its focus instead of marking them DONE',
    )
    .action(
      action(async (ctx, opts: { session?: string; summary?: string; carry?: string[]; carryAll?: boolean }) => {
        const { clockOut } = await import('../../session/clock-out.js');
        const res = await clockOut(
          {
            working_dir: path.resolve(ctx.cwd),
            session_id: opts.session,
            summary: opts.summary,
            carry: opts.carry,
            carry_all: opts.carryAll,
          },
          { clock: ctx.clock, env: ctx.env },
        );
        const text = [
          `clocked out: session ${res.session_id} after ${res.duration}, ${res.commits.length} commit(s)`,
          `archive: ${res.archive_path}`,
          `anchor: ${res.anchor_digest ?? 'none'}`,
          `checklist: ${res.checklist.done.length} done, ${res.checklist.carried_forward.length} carried forward`,
          ...res.warnings.map((w) => `warning: ${w}`),
        ].join('\n');
        return { exitCode: ExitCode.Ok, json: res, text };
      }),
    );
}
