import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode, usageError } from '../../errors.js';
import { paint } from '../output.js';
import { action } from '../run.js';

export function registerConflict(program: Command): void {
  program
    .command('conflict')
    .argument('[decision]', 'show (default), takeover or abort')
    .description(
      'the live sessions whose focus conflicts with yours (CI-I5), and the decision after seeing them: takeover marks them STALE, abort withdraws your session (archived as ABORTED); continuing needs no command',
    )
    .option('--session <id>', 'your session id (default: HESTAI_SESSION, else the only live session)')
    .action(
      action(async (ctx, given: string | undefined, opts: { session?: string }) => {
        const decision = given ?? 'show';
        const workingDir = path.resolve(ctx.cwd);
        const { resolveConflict, showNeighbours } = await import('../../session/resolve-conflict.js');
        const { describeNeighbour } = await import('../../session/rules/conflict.js');
        if (decision === 'show') {
          const view = showNeighbours(
            { working_dir: workingDir, session_id: opts.session },
            { clock: ctx.clock, env: ctx.env },
          );
          const lines = [`session ${view.session_id} (focus "${view.focus}")`];
          if (view.neighbours.length === 0) lines.push('no other live session in this worktree');
          for (const n of view.neighbours)
            lines.push(paint(ctx.out, n.relation === 'unrelated' ? 'dim' : 'yellow', `  ${describeNeighbour(n)}`));
          if (view.conflicts.length > 0)
            lines.push(
              `conflict: decide with "hestai conflict takeover" (mark ${view.conflicts.length === 1 ? 'it' : 'them'} STALE and take over) or "hestai conflict abort" (withdraw yours); or go on working alongside.`,
            );
          else if (view.neighbours.length > 0) lines.push('no conflict: the neighbours work on unrelated foci.');
          return { exitCode: ExitCode.Ok, json: view, text: lines.join('\n') };
        }
        if (decision !== 'takeover' && decision !== 'abort') {
          throw usageError(`unknown decision "${decision.slice(0, 40)}"`, {
            code: 'CONFLICT_ACTION_INVALID',
            remedy: 'Use "hestai conflict" (show), "hestai conflict takeover" or "hestai conflict abort".',
          });
        }
        const res = await resolveConflict(
          { working_dir: workingDir, session_id: opts.session, action: decision },
          { clock: ctx.clock, env: ctx.env },
        );
        const text =
          res.action === 'takeover'
            ? [
                `took over: ${res.taken_over.map((t) => t.existing_session_id).join(', ')} now STALE (logged in both records)`,
                ...res.neighbours.map((n) => `unrelated neighbour left alone: ${describeNeighbour(n)}`),
              ].join('\n')
            : `aborted: session ${res.session_id} withdrawn, archived as ABORTED to ${res.archive_path}`;
        return { exitCode: ExitCode.Ok, json: res, text };
      }),
    );
}
