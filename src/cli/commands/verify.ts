import type { Command } from 'commander';
import { ExitCode, usageError } from '../../errors.js';
import { action } from '../run.js';

export function registerVerify(program: Command): void {
  program
    .command('verify')
    .description('the CI step: check every commit in a range (test-first, trailers, bypasses, exemptions)')
    .option('--from <rev>', 'base of the range, excluded (default: merge-base with tdd.default_branch, or tdd.since on it)')
    .option('--to <rev>', 'end of the range, included', 'HEAD')
    .option('--format <format>', 'text | json | github (workflow annotations)')
    .option('--red-green', 'run tdd.test_command at each paired test commit (must fail) and feat commit (must pass)')
    .action(
      action(async (ctx, options: { from?: string; to: string; format?: string; redGreen?: boolean }) => {
        const format = options.format ?? (ctx.json ? 'json' : 'text');
        if (!['text', 'json', 'github'].includes(format)) {
          throw usageError(`--format ${format} is not one of text, json, github`, { code: 'USAGE', remedy: 'Use --format text, --format json or --format github.' });
        }
        const { verifyRange, verifyGithub, verifyJson, verifyText } = await import('../../verify/index.js');
        const { testFileMatcher } = await import('../../tdd/test-files.js');
        const report = await verifyRange({ working_dir: ctx.cwd, ...(options.from === undefined ? {} : { from: options.from }), to: options.to, red_green: options.redGreen === true });
        const exitCode = report.ok ? ExitCode.Ok : ExitCode.Blocked;
        const json = verifyJson(report);
        if (format === 'json') return { exitCode, json, text: JSON.stringify(json, null, 2) };
        const { loadConfig } = await import('../../config/load.js');
        const { resolveWorkspace } = await import('../../workspace.js');
        const globs = (await loadConfig(resolveWorkspace(ctx.cwd).root)).config.tdd.test_globs;
        return { exitCode, json, text: format === 'github' ? verifyGithub(report, testFileMatcher(globs)) : verifyText(report) };
      }),
    );
}
