import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { paint } from '../output.js';
import { action } from '../run.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'check the installation: node, git, repository, config, hooks active in this worktree, agent runtime hooks',
    )
    .action(
      action(async (ctx) => {
        const { runDoctor } = await import('../../setup/doctor.js');
        const { hooksCheck } = await import('../../setup/doctor-check.js');
        const { agentHooksCheck } = await import('../../setup/doctor-agents.js');
        const report = await runDoctor(ctx.cwd, [hooksCheck, agentHooksCheck], ctx.env);
        const mark = {
          pass: paint(ctx.out, 'green', 'ok  '),
          warn: paint(ctx.out, 'yellow', 'warn'),
          fail: paint(ctx.out, 'red', 'FAIL'),
        };
        const text = report.checks
          .map((c) => `${mark[c.status]} ${c.name}: ${c.message}${c.remedy ? `\n     hint: ${c.remedy}` : ''}`)
          .join('\n');
        return { exitCode: report.ok ? ExitCode.Ok : ExitCode.Blocked, json: report, text };
      }),
    );
}
