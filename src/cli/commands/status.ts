import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { paint } from '../output.js';
import { action } from '../run.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('the dashboard: sessions, binding state, context age, hooks in this worktree')
    .action(
      action(async (ctx) => {
        const { sessionStatus } = await import('../../session/status.js');
        const res = await sessionStatus({ working_dir: path.resolve(ctx.cwd) }, { clock: ctx.clock, env: ctx.env });
        const lines = [`worktree: ${res.root}`];
        if (res.sessions.length === 0) lines.push('sessions: none (run "hestai clock-in --role <role>")');
        for (const s of res.sessions) {
          const current = res.current_session?.session_id === s.session_id ? paint(ctx.out, 'bold', '* ') : '  ';
          const binding = s.verdict.may_act
            ? paint(ctx.out, 'green', `anchored ${s.binding.anchor_digest}`)
            : paint(ctx.out, 'yellow', `may not act (${s.verdict.code}: ${s.verdict.reason})`);
          const age = s.context_stale
            ? paint(
                ctx.out,
                'red',
                `context ${s.context_age_hours} h old: STALE (hestai refresh, or hestai ack --reason)`,
              )
            : `context ${s.context_age_hours} h old${s.acknowledged ? ' (acknowledged)' : ''}`;
          lines.push(`${current}${s.session_id} ${s.state} ${s.role} "${s.focus}" — ${binding}; ${age}`);
        }
        for (const c of res.corrupt_sessions)
          lines.push(paint(ctx.out, 'yellow', `  unreadable ${c.session_id}: ${c.error}`));
        if (res.current_session)
          lines.push(`hooks check: ${res.current_session.session_id} (${res.current_session.source})`);
        else if (res.sessions.length > 0)
          lines.push(
            'hooks check: only the session named by HESTAI_SESSION (no single live, unpinned session to use by default)',
          );
        lines.push(
          `archives: ${res.archives} (kept ${res.thresholds.archive_retention_days} days; stale after ${res.thresholds.stale_session_hours} h)`,
        );
        if (res.trust.warning) lines.push(paint(ctx.out, 'yellow', `trust: ${res.trust.warning}`));
        else if (res.trust.powers.length > 0)
          lines.push(`trust: trusted (${res.trust.powers.join(', ')} allowed since ${res.trust.trusted_at})`);
        lines.push(
          `hooks: pre-commit ${res.hooks.pre_commit ? 'installed' : 'missing'}, commit-msg ${res.hooks.commit_msg ? 'installed' : 'missing'} (see hestai doctor)`,
        );
        return { exitCode: ExitCode.Ok, json: res, text: lines.join('\n') };
      }),
    );
}
