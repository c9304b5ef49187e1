import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { action } from '../run.js';

export function registerTrust(program: Command): void {
  program
    .command('trust')
    .description(
      "allow this repository's commands and endpoints (quality_gates, ai.*) for exactly the current content of its workspace files",
    )
    .option('--revoke', 'forget the trust decision for this worktree')
    .action(
      action(async (ctx, opts: { revoke?: boolean }) => {
        const { trustCommand } = await import('../../trust/allow.js');
        const res = await trustCommand(
          { working_dir: path.resolve(ctx.cwd), revoke: opts.revoke === true },
          { env: ctx.env, clock: ctx.clock },
        );
        const lines =
          res.action === 'trusted'
            ? [
                `trusted ${res.trust.root} (${res.trust.files.join(', ') || 'no workspace files'}; sha256 ${res.trust.sha256.slice(0, 16)})`,
              ]
            : [res.action === 'revoked' ? `revoked trust for ${res.trust.root}` : `${res.trust.root} was not trusted`];
        for (const c of res.commands) lines.push(`  quality_gates: ${c.name}: ${c.command}`);
        for (const e of res.endpoints) lines.push(`  ${e.key}: ${e.value}`);
        if (res.trust.files.includes('.hestai/protocol.yaml')) lines.push('  .hestai/protocol.yaml: its command gates');
        if (res.trust.record)
          lines.push(`recorded in ${res.trust.record} (a change to these files needs \`hestai trust\` again)`);
        return { exitCode: ExitCode.Ok, json: res, text: lines.join('\n') };
      }),
    );
}
