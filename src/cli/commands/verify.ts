import type { Command } from 'commander';
import { ExitCode, isHestaiError, usageError } from '../../errors.js';
import { action, type CommandResult } from '../run.js';
import type { VerifyWriter } from '../../verify/format.js';

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/**
 * What `verify --format json|github` prints when the run could not happen (bad revision, shallow clone,
 * invalid config, internal error): still ONE JSON document with `error`, or an `::error` annotation, so
 * CI parsers and annotations see every failure. The human message also goes to stderr.
 */
function failedRun(format: string, error: unknown): CommandResult {
  const hestai = isHestaiError(error) ? error : null;
  const body = hestai
    ? hestai.toJSON()
    : { code: 'INTERNAL', message: String((error as Error)?.message ?? error), exit_code: ExitCode.Usage, details: [] };
  const exitCode = hestai ? hestai.exitCode : ExitCode.Usage;
  const json = { ok: false, range: null, commits: [], errors: 1, warnings: 0, error: body };
  const hint = body.remedy ? ` hint: ${body.remedy}` : '';
  const text =
    format === 'json'
      ? JSON.stringify(json, null, 2)
      : `::error title=${escapeData('hestai verify could not run').replace(/[:,]/g, ' ')}::${escapeData(`${body.message}${body.details.length ? ` (${body.details.join('; ')})` : ''}.${hint}`)}`;
  const notes = [
    `hestai: ${body.message}`,
    ...body.details.map((d) => `  - ${d}`),
    ...(body.remedy ? [`hint: ${body.remedy}`] : []),
  ];
  return { exitCode, json, text, notes };
}

export function registerVerify(program: Command): void {
  program
    .command('verify')
    .description('the CI step: check every commit in a range (test-first, trailers, bypasses, exemptions)')
    .option(
      '--from <rev>',
      "base of the range, excluded (default: in GitHub Actions the event's base, else origin/HEAD)",
    )
    .option(
      '--policy <rev>',
      "read the policy from this commit's config instead of the base's (auditing a branch's own history)",
    )
    .option('--to <rev>', 'end of the range, included', 'HEAD')
    .option('--format <format>', 'text | json | github (workflow annotations)')
    .option('--red-green', 'run tdd.test_command at each paired test commit (must fail) and feat commit (must pass)')
    .action(
      action(
        async (ctx, options: { from?: string; policy?: string; to: string; format?: string; redGreen?: boolean }) => {
          // V8's optimizing compiler costs a run of 10,000 commits more CPU on its own threads than it saves on the
          // main one (measured in commit 71fbc40): verify runs on V8's interpreter and baseline code.
          process.getBuiltinModule('node:v8').setFlagsFromString('--no-opt');
          const format = options.format ?? (ctx.json ? 'json' : 'text');
          if (!['text', 'json', 'github'].includes(format)) {
            throw usageError(`--format ${format} is not one of text, json, github`, {
              code: 'USAGE',
              remedy: 'Use --format text, --format json or --format github.',
            });
          }
          const { verifyStream, githubWriter, jsonWriter, textWriter } = await import('../../verify/index.js');
          const json = format === 'json' || ctx.json;
          const writers = json ? jsonWriter() : null;
          let writer: VerifyWriter | null = writers;
          // Whole lines, printed about 64 KB at a time: a range of any length is never held as one text.
          let pending: string[] = [];
          let size = 0;
          const flush = () => {
            if (pending.length > 0) ctx.out.stdout(pending.join('\n'));
            pending = [];
            size = 0;
          };
          const write = (text: string) => {
            if (text === '') return;
            pending.push(text);
            size += text.length;
            if (size > 65536) flush();
          };
          let started = false;
          try {
            if (!json) {
              // The working tree's config is validated here too (its test globs name the annotated file).
              const { testFileMatcher } = await import('../../tdd/test-files.js');
              const { loadConfig } = await import('../../config/load.js');
              const { resolveWorkspace } = await import('../../workspace.js');
              const globs = (await loadConfig(resolveWorkspace(ctx.cwd).root)).config.tdd.test_globs;
              writer = format === 'github' ? githubWriter(testFileMatcher(globs)) : textWriter();
            }
            const { verifyEvidenceReaders } = await import('../../anchor/reverify.js');
            const readers = verifyEvidenceReaders();
            const summary = await verifyStream(
              {
                working_dir: ctx.cwd,
                ...(options.from === undefined ? {} : { from: options.from }),
                ...(options.policy === undefined ? {} : { policy: options.policy }),
                env: process.env,
                to: options.to,
                red_green: options.redGreen === true,
                // Changed files only where a verdict depends on them (src/verify/verify.ts, VerifyInput.files).
                files: 'judged',
              },
              readers,
              {
                start: (head) => {
                  started = true;
                  write(writer!.start(head));
                },
                commit: (c) => write(writer!.commit(c)),
              },
            ).finally(() => readers.close());
            write(writer!.end(summary));
            flush();
            const { count: _count, ...document } = summary;
            return { exitCode: summary.ok ? ExitCode.Ok : ExitCode.Blocked, json: document, text: '', streamed: true };
          } catch (error) {
            if (started && writers !== null) {
              // Part of the document is out: close it with the error, still one JSON document.
              const failed = failedRun('json', error);
              write(writers.failed((failed.json as { error: unknown }).error));
              flush();
              return { ...failed, text: '', streamed: true };
            }
            flush();
            if (format === 'text' || (ctx.json && !started)) throw error;
            return failedRun(format, error);
          }
        },
      ),
    );
}
