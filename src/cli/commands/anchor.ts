import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode, usageError } from '../../errors.js';
import type { AnchorHandshakeResult } from '../../anchor/results.js';
import { paint, type Output } from '../output.js';
import { action, type CommandContext, type CommandResult } from '../run.js';

/** Reads a payload file (`-` = stdin); a missing file is a usage error naming it. */
export function readPayloadFile(file: string | undefined, flag: string): string | undefined {
  if (file === undefined) return undefined;
  try {
    return fs.readFileSync(file === '-' ? 0 : path.resolve(file), 'utf8');
  } catch (error) {
    throw usageError(`cannot read ${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      file,
      code: 'PAYLOAD_UNREADABLE',
      remedy: `Pass a readable file, or "-" to read from stdin.`,
    });
  }
}

/** The human-readable form of a handshake result. */
export function formatHandshake(out: Output, r: AnchorHandshakeResult): string {
  const lines = [
    r.success
      ? `${paint(out, 'green', 'ok')} anchor ${r.stage}${r.token ? ` (token ${r.token})` : ''}`
      : `${paint(out, 'red', 'FAILED')} anchor ${r.stage}${r.token ? ` (token ${r.token})` : ''}`,
  ];
  for (const e of r.errors) lines.push(`  - ${e}`);
  if (r.constitution_path) lines.push(`constitution: ${r.constitution_path}`);
  if (r.server_arm) lines.push('', r.server_arm);
  if (r.anchor) lines.push('', r.anchor);
  if (!r.success && r.guidance) lines.push('', r.guidance);
  else if (r.template) lines.push('', 'template:', r.template);
  for (const w of r.warnings) lines.push(`${paint(out, 'yellow', 'warn')} ${w}`);
  if (r.next_step) lines.push('', `next: ${r.next_step}`);
  return lines.join('\n');
}

interface AnchorFlags {
  stage?: string;
  role?: string;
  token?: string;
  session?: string;
  mode?: string;
  strictness?: string;
  tier?: string;
  topic?: string;
  focus?: string;
  payloadFile?: string;
  reason?: string;
  yes?: boolean;
}

export function registerAnchor(program: Command): void {
  program
    .command('anchor')
    .argument(
      '[action]',
      '"reset" reopens a terminal handshake (human only, audited): hestai anchor reset --token T [--reason X] [--yes]',
    )
    .description('the Odyssean Anchor handshake: --stage identity, then context (BIND), then proof (TENSION + COMMIT)')
    .option('--stage <stage>', 'identity | context | proof')
    .option('--role <role>', 'the role to bind as (identity; untracked context/proof)')
    .option('--session <id>', 'the session id from clock-in (alias: --token, its older name)')
    .option('--token <id>', 'alias of --session')
    .option('--mode <mode>', 'full | lite | untracked (identity; untracked for context/proof)')
    .option('--tier <level>', 'quick | default | deep (default: anchor.strictness; alias: --strictness)')
    .option('--strictness <level>', 'alias of --tier')
    .option('--focus <text>', 'the focus of the session identity clocks in without --session (alias: --topic)')
    .option('--topic <text>', 'alias of --focus')
    .option(
      '--payload-file <file>',
      'the stage payload (context: ## BIND; proof: ## TENSION and ## COMMIT); - reads stdin',
    )
    .option('--reason <text>', 'reset: why the handshake is reset (recorded in .hestai/audit/audit.jsonl)')
    .option('--yes', 'reset: confirm when stdin is not a terminal (a person approved it; recorded all the same)')
    .action(
      action(async (ctx, verb: string | undefined, given: AnchorFlags) => {
        // One name per concept (session, tier, focus); the older names stay accepted.
        const flags: AnchorFlags = {
          ...given,
          token: given.session ?? given.token,
          strictness: given.tier ?? given.strictness,
          topic: given.focus ?? given.topic,
        };
        if (verb !== undefined) {
          if (verb !== 'reset')
            throw usageError(`unknown anchor action "${verb}"`, {
              code: 'USAGE',
              remedy: 'Use "hestai anchor --stage ..." or "hestai anchor reset --token T".',
            });
          return reset(ctx, flags);
        }
        if (flags.stage === undefined)
          throw usageError('--stage is required', {
            code: 'STAGE_MISSING',
            remedy: 'Pass --stage identity, then context, then proof.',
          });
        const { anchor } = await import('../../anchor/handshake.js');
        const result = await anchor(
          {
            stage: flags.stage as 'identity',
            working_dir: path.resolve(ctx.cwd),
            ...(flags.role === undefined ? {} : { role: flags.role }),
            ...(flags.token === undefined ? {} : { token: flags.token }),
            ...(flags.mode === undefined ? {} : { mode: flags.mode as 'full' }),
            ...(flags.strictness === undefined ? {} : { strictness: flags.strictness as 'default' }),
            ...(flags.topic === undefined ? {} : { topic: flags.topic }),
            ...(flags.payloadFile === undefined
              ? {}
              : { payload: readPayloadFile(flags.payloadFile, '--payload-file') as string }),
          },
          // clock_in is loaded only when identity runs without a token (it gathers context: heavier than a stage).
          {
            clock: ctx.clock,
            env: ctx.env,
            clockIn: async (input, deps) => (await import('../../session/clock-in.js')).clockIn(input, deps),
          },
        );
        return {
          exitCode: result.success ? ExitCode.Ok : ExitCode.Blocked,
          json: result,
          text: formatHandshake(ctx.out, result),
        };
      }),
    );
}

async function reset(ctx: CommandContext, flags: AnchorFlags): Promise<CommandResult> {
  if (flags.token === undefined)
    throw usageError('--token is required for reset', {
      code: 'TOKEN_MISSING',
      remedy: 'Pass --token T (the token of the terminal handshake).',
    });
  if (flags.stage !== undefined)
    throw usageError('reset takes no --stage', {
      code: 'USAGE',
      remedy: 'Run "hestai anchor reset --token T [--reason X]".',
    });
  // A person resets: at a terminal, or approving it explicitly. An agent's piped shell gets exit 2.
  if (flags.yes !== true && process.stdin.isTTY !== true)
    throw usageError('anchor reset is for a person, and stdin is not a terminal', {
      code: 'RESET_NEEDS_PERSON',
      remedy: `Review the failed submissions, then run it yourself in a terminal, or confirm it explicitly: hestai anchor reset --token ${flags.token} --reason "..." --yes`,
    });
  const { resetAnchor } = await import('../../anchor/reset.js');
  const result = await resetAnchor(
    {
      working_dir: path.resolve(ctx.cwd),
      token: flags.token,
      ...(flags.reason === undefined ? {} : { reason: flags.reason }),
    },
    { clock: ctx.clock },
  );
  const p = result.previous;
  const handshake =
    p === null
      ? 'no pending handshake'
      : `handshake was ${p.stage}${p.terminal ? `, terminal after ${p.terminal_stage} failures` : ''}; retries cleared, expires ${result.expires_at}`;
  const lock =
    result.role_lock === null
      ? ''
      : `; role ${result.role_lock.role} unlocked (terminal since ${result.role_lock.at}, session ${result.role_lock.session_id})`;
  return {
    exitCode: ExitCode.Ok,
    json: result,
    text: `reset ${result.token} (${handshake}${lock}); recorded in ${result.audit_log} and published to hestai/anchors with the next push`,
  };
}
