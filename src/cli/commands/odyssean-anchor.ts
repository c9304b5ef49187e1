import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode, usageError } from '../../errors.js';
import { paint } from '../output.js';
import { action } from '../run.js';
import { readPayloadFile } from './anchor.js';

interface Flags {
  session?: string;
  role?: string;
  tier?: string;
  vectorFile?: string;
}

export function registerOdysseanAnchor(program: Command): void {
  program
    .command('odyssean-anchor')
    .description('one-shot anchor: validate a whole RAPH v4.0 vector for a clocked-in session')
    .option('--session <id>', 'the session id from clock-in (default: $HESTAI_SESSION)')
    .option('--role <role>', 'the role to bind as')
    .option('--tier <level>', 'quick | default | deep (default: anchor.strictness)')
    .option('--vector-file <file>', 'the ===RAPH_VECTOR::v4.0=== block; - reads stdin')
    .action(
      action(async (ctx, flags: Flags) => {
        const session = flags.session ?? ctx.env['HESTAI_SESSION'];
        if (!session)
          throw usageError('--session is required', {
            code: 'SESSION_MISSING',
            remedy: 'Pass --session S (the session id from clock-in) or set HESTAI_SESSION.',
          });
        if (flags.vectorFile === undefined)
          throw usageError('--vector-file is required', {
            code: 'PAYLOAD_MISSING',
            remedy: 'Pass --vector-file FILE, or - for stdin.',
          });
        if (flags.role === undefined)
          throw usageError('--role is required', {
            code: 'ROLE_MISSING',
            remedy: 'Pass --role R, e.g. --role implementation-lead.',
          });
        const { odysseanAnchor } = await import('../../anchor/one-shot.js');
        const result = await odysseanAnchor(
          {
            working_dir: path.resolve(ctx.cwd),
            session_id: session,
            role: flags.role,
            vector_candidate: readPayloadFile(flags.vectorFile, '--vector-file')!,
            ...(flags.tier === undefined ? {} : { tier: flags.tier as 'default' }),
          },
          { clock: ctx.clock },
        );
        const head = result.validated
          ? `${paint(ctx.out, 'green', 'ok')} anchored session ${session} (${result.enforcement.anchor_file})`
          : `${paint(ctx.out, 'red', 'FAILED')} odyssean-anchor for session ${session}`;
        const text = [
          head,
          ...result.errors.map((e) => `  - ${e}`),
          '',
          result.validated ? result.canonical_anchor : result.guidance,
          ...result.warnings.map((w) => `warn ${w}`),
        ].join('\n');
        return { exitCode: result.validated ? ExitCode.Ok : ExitCode.Blocked, json: result, text };
      }),
    );
}
