import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode, usageError } from '../../errors.js';
import { quoteInput, shellQuote } from '../../util/quote.js';
import { paint, type Output } from '../output.js';
import type { ClockInResponse } from '../../session/clock-in.js';
import { action } from '../run.js';

/** The line that exports the session in the caller's shell: sh (default) or fish. */
export function exportLine(shell: boolean | string, id: string): string {
  if (shell === true || shell === 'sh' || shell === 'bash' || shell === 'zsh') return `export HESTAI_SESSION=${id}`;
  if (shell === 'fish') return `set -gx HESTAI_SESSION ${id}`;
  throw usageError(`--print-env ${quoteInput(shell)} is not a shell hestai prints for`, {
    code: 'USAGE',
    remedy: 'Use --print-env (sh, bash, zsh) or --print-env fish.',
  });
}

/** What clock-in tells a person: the session, its focus and context, its neighbours, and what to read first. */
function clockInLines(out: Pick<Output, 'color'>, res: ClockInResponse, role: string): string[] {
  const lines = [
    `${paint(out, 'green', 'clocked in')}: session ${res.session_id} (${role})`,
    `focus: ${res.focus_resolved.value} (${res.focus_resolved.source})`,
    `branch: ${res.context.git.branch ?? '(detached)'}${res.context.git.ahead !== null ? ` [${res.context.git.ahead}↑${res.context.git.behind}↓]` : ''}`,
    `context generated at ${res.context_generated_at}; selection: ${res.selection.method}${res.selection.reason ? ` (${res.selection.reason})` : ''}`,
  ];
  if (res.conflict) {
    lines.push(
      paint(
        out,
        'yellow',
        `conflict: session ${res.conflict.existing_session_id} (${res.conflict.existing_role}, "${res.conflict.existing_focus}", ${res.conflict.relation} focus) is active here; resolution: ${res.conflict.resolution}`,
      ),
    );
  }
  for (const n of res.neighbours.filter((x) => x.relation === 'unrelated'))
    lines.push(
      paint(
        out,
        'dim',
        `neighbour: session ${n.existing_session_id} (${n.existing_role}, "${n.existing_focus}"): unrelated focus, no conflict`,
      ),
    );
  if (res.stale_decision === 'continue')
    lines.push(
      paint(
        out,
        'yellow',
        `stale sessions left as they are: ${res.stale_sessions.map((s) => s.session_id).join(', ')}`,
      ),
    );
  if (res.cleanup_notice) lines.push(paint(out, 'yellow', res.cleanup_notice));
  for (const c of res.corrupt_sessions)
    lines.push(paint(out, 'yellow', `unreadable session ${c.session_id}: ${c.error}`));
  if (!res.github_context.available) lines.push(paint(out, 'dim', `github: skipped (${res.github_context.reason})`));
  if (res.structure_missing.length > 0)
    lines.push(paint(out, 'dim', `missing: ${res.structure_missing.join(', ')} (hestai init creates them)`));
  lines.push('read first:', ...res.context.selected.slice(0, 10).map((s) => `  ${s.path}  (${s.reasons.join('; ')})`));
  for (const g of res.context.quality_gates) lines.push(`gate ${g.name}: ${g.status}`);
  for (const w of res.warnings) lines.push(paint(out, 'yellow', `warning: ${w}`));
  return lines;
}

/**
 * A role with no constitution here, where some roles have one, is refused before anything is written: its
 * session could never anchor. The remedy is the same clock-in with a role that has one.
 */
async function refuseUnknownRole(cwd: string, role: string, focus: string | undefined): Promise<void> {
  const [{ availableRoles, exampleRole }, { resolveWorkspace }] = await Promise.all([
    import('../../records/roles.js'),
    import('../../workspace.js'),
  ]);
  const roles = availableRoles(resolveWorkspace(cwd).paths);
  if (roles.length === 0 || roles.includes(role)) return;
  const again = `hestai clock-in --role ${exampleRole(roles)}${focus === undefined ? '' : ` --focus ${/^[A-Za-z0-9_./-]+$/.test(focus) ? focus : shellQuote(focus)}`}`;
  throw usageError(`role "${role}" has no constitution here (roles here: ${roles.join(', ')}); nothing was created`, {
    code: 'ROLE_UNKNOWN',
    remedy: `Clock in with one of them ("${again}"), or add .hestai-sys/agents/${role}.oct.md and commit it.`,
  });
}

export function registerClockIn(program: Command): void {
  program
    .command('clock-in')
    .description('register a session: resolve its focus, gather fresh context, update the FAST layer')
    .requiredOption('--role <role>', 'agent role, e.g. implementation-lead (a-z, 0-9, "-")')
    .option('--focus <text>', 'work focus (default: from the branch, else "general")')
    .option(
      '--on-conflict <mode>',
      'when a live session works on the same or a related focus: continue (decide later with "hestai conflict"), abort or takeover',
      'continue',
    )
    .option(
      '--on-stale <decision>',
      'when sessions here have had no activity beyond cleanup.stale_session_hours: cleanup (archive them) or continue (leave them); without it such sessions make clock-in stop with this offer',
    )
    .option('--model <name>', 'AI model for context selection (overrides the configuration)')
    .option(
      '--print-env [shell]',
      'pin the session to its caller and print only the line that exports HESTAI_SESSION on stdout (the rest on stderr): sh (default, `export HESTAI_SESSION=<id>`: eval "$(hestai clock-in --role R --print-env)") or fish (`set -gx HESTAI_SESSION <id>`: hestai clock-in --role R --print-env fish | source)',
    )
    .action(
      action(
        async (
          ctx,
          opts: {
            role: string;
            focus?: string;
            onConflict: string;
            onStale?: string;
            model?: string;
            printEnv?: boolean | string;
          },
        ) => {
          if (opts.printEnv !== undefined) exportLine(opts.printEnv, ''); // refuse an unknown shell before clocking in
          await refuseUnknownRole(ctx.cwd, opts.role, opts.focus);
          const { clockIn } = await import('../../session/clock-in.js');
          const res = await clockIn(
            {
              working_dir: path.resolve(ctx.cwd),
              role: opts.role,
              focus: opts.focus,
              model: opts.model,
              on_conflict: opts.onConflict as 'continue',
              on_stale: opts.onStale as 'cleanup' | undefined,
              pinned: opts.printEnv !== undefined,
            },
            { clock: ctx.clock, env: ctx.env },
          );
          const lines = clockInLines(ctx.out, res, opts.role);
          lines.push(
            res.instruction,
            `next: hestai anchor --stage identity --role ${opts.role} --token ${res.session_id}`,
          );
          if (opts.printEnv !== undefined && !ctx.json) {
            // A pinned session is used only where it is named: stdout carries exactly the line to export.
            lines.push(
              `pinned: commits and commands use this session only with HESTAI_SESSION=${res.session_id} (or --session).`,
            );
            return { exitCode: ExitCode.Ok, json: res, text: exportLine(opts.printEnv, res.session_id), notes: lines };
          }
          return { exitCode: ExitCode.Ok, json: res, text: lines.join('\n') };
        },
      ),
    );
}
