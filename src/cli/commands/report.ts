import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode, usageError } from '../../errors.js';
import { action } from '../run.js';

const FORMATS = ['html', 'markdown'];

export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      "the audit trail to look at: one self-contained HTML page (or a markdown step summary) of verify's verdicts, sessions, anchors and exceptions",
    )
    .option('--from <rev>', 'base of the range, excluded (default: as hestai verify)')
    .option('--policy <rev>', "read the policy from this commit's config instead of the base's (as hestai verify)")
    .option('--to <rev>', 'end of the range, included', 'HEAD')
    .option('--format <format>', 'html (default) | markdown (the CI step summary)')
    .option('--out <file>', 'write here ("-" for stdout); default hestai-report.html for html, stdout for markdown')
    .action(
      action(async (ctx, options: { from?: string; to: string; policy?: string; format?: string; out?: string }) => {
        const format = options.format ?? 'html';
        if (!FORMATS.includes(format))
          throw usageError(`--format ${format} is not one of ${FORMATS.join(', ')}`, {
            code: 'USAGE',
            remedy: 'Use --format html or --format markdown.',
          });
        const { gatherReport, renderHtml, renderMarkdown } = await import('../../report/index.js');
        const data = await gatherReport({
          working_dir: ctx.cwd,
          ...(options.from === undefined ? {} : { from: options.from }),
          ...(options.policy === undefined ? {} : { policy: options.policy }),
          to: options.to,
          env: process.env,
        });
        const text = format === 'html' ? renderHtml(data) : renderMarkdown(data);
        const out = options.out ?? (format === 'html' ? 'hestai-report.html' : '-');
        const json = { ok: data.ok, format, out: out === '-' ? null : path.resolve(out), summary: data.summary };
        if (out === '-') return { exitCode: ExitCode.Ok, json, text: text.replace(/\n$/, '') };
        const { writeFileAtomic } = await import('../../state/store.js');
        const file = path.resolve(out);
        writeFileAtomic(file, text);
        const s = data.summary;
        return {
          exitCode: ExitCode.Ok,
          json,
          text: `wrote ${file} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB): ${s.commits} commit(s), ${s.errors} error(s), ${s.warnings} warning(s)`,
        };
      }),
    );
}
