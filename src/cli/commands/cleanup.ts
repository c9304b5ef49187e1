import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { action } from '../run.js';

export function registerCleanup(program: Command): void {
  program
    .command('cleanup')
    .description('mark inactive sessions STALE and archive them; delete archives past retention')
    .action(
      action(async (ctx) => {
        const { cleanupSessions } = await import('../../session/cleanup.js');
        const res = await cleanupSessions({ working_dir: path.resolve(ctx.cwd) }, { clock: ctx.clock, env: ctx.env });
        const t = res.thresholds;
        const text = [
          `thresholds (${t.source}): stale after ${t.stale_session_hours} h, archives kept ${t.archive_retention_days} days`,
          `marked stale: ${res.marked_stale.length}; archived: ${res.archived.length}; archives deleted: ${res.deleted_archives.length}; kept: ${res.kept_archives}; handshakes removed: ${res.removed_handshakes.length}`,
          ...res.archived.map((a) => `  archived ${a.session_id} → ${a.archive_path}`),
          ...res.deleted_archives.map((a) => `  deleted ${a}`),
          ...res.removed_handshakes.map((token) => `  removed the pending handshake of ${token} (its session is gone)`),
          ...res.problems.map((p) => `  skipped ${p.file}: ${p.problem}`),
        ].join('\n');
        return { exitCode: ExitCode.Ok, json: res, text };
      }),
    );
}
