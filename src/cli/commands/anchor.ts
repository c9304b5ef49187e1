import path from 'node:path';
import type { Command } from 'commander';
import type { AnchorDeps } from '../../anchor/handshake.js';
import { ExitCode, usageError } from '../../errors.js';
import { paint } from '../output.js';
import { action, type CommandContext, type CommandResult } from '../run.js';
import { formatHandshake, readPayloadFile } from './anchor-output.js';

export { formatHandshake, readPayloadFile };

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
  check?: boolean;
  again?: boolean;
}

/** The handshake's ports as the CLI gives them (clock_in is loaded only when a stage clocks in). */
function anchorDeps(ctx: CommandContext): AnchorDeps {
  return {
    clock: ctx.clock,
    env: ctx.env,
    clockIn: async (input, deps) => (await import('../../session/clock-in.js')).clockIn(input, deps),
  };
}

/** A payload's CTX and ARTIFACT paths, written relative to the shell's directory, made relative to the root. */
async function fromShell(ctx: CommandContext, payload: string): Promise<string> {
  const [{ resolveWorkspace }, { rebasePayload }, { shellBase }] = await Promise.all([
    import('../../workspace.js'),
    import('../../anchor/person.js'),
    import('./anchor-person.js'),
  ]);
  const cwd = path.resolve(ctx.cwd);
  return rebasePayload(payload, shellBase(resolveWorkspace(cwd).root, cwd));
}

/** `--check`: the payload judged as its stage would judge it; nothing written, no retry spent. */
async function check(ctx: CommandContext, flags: AnchorFlags): Promise<CommandResult> {
  if (flags.payloadFile === undefined)
    throw usageError('--check needs the payload to check', {
      code: 'PAYLOAD_MISSING',
      remedy: 'Pass it: hestai anchor --check --payload-file FILE (- reads stdin).',
    });
  const part =
    flags.stage === undefined
      ? 'person'
      : flags.stage === 'context'
        ? 'bind'
        : flags.stage === 'proof'
          ? 'proof'
          : null;
  if (part === null)
    throw usageError(`--check takes --stage context or proof, not ${flags.stage}`, {
      code: 'USAGE',
      remedy: 'Check a stage payload (--stage context or --stage proof), or the whole payload without --stage.',
    });
  const { checkPayload } = await import('../../anchor/check.js');
  const result = await checkPayload(
    {
      working_dir: path.resolve(ctx.cwd),
      part,
      payload: await fromShell(ctx, readPayloadFile(flags.payloadFile, '--payload-file')!),
      ...(flags.token === undefined ? {} : { token: flags.token }),
      ...(flags.role === undefined ? {} : { role: flags.role }),
      ...(flags.strictness === undefined ? {} : { strictness: flags.strictness }),
    },
    anchorDeps(ctx),
  );
  const lines = [
    result.ok
      ? `${paint(ctx.out, 'green', 'ok')} anchor --check (${result.role}, ${result.strictness}): the payload passes; no retry spent`
      : `${paint(ctx.out, 'red', 'FAILED')} anchor --check (${result.role}, ${result.strictness}); no retry spent`,
    ...result.errors.map((e) => `  - ${e}`),
    ...result.warnings.map((w) => `${paint(ctx.out, 'yellow', 'warn')} ${w}`),
  ];
  if (!result.ok) lines.push('', result.guidance);
  return { exitCode: result.ok ? ExitCode.Ok : ExitCode.Blocked, json: result, text: lines.join('\n') };
}

/** Without --stage: a person's one run on a terminal (or with --again / --payload-file); else the command to use. */
async function oneRun(ctx: CommandContext, flags: AnchorFlags): Promise<CommandResult> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  if (!interactive && flags.again !== true && flags.payloadFile === undefined) {
    const { resolveWorkspace } = await import('../../workspace.js');
    const { availableRoles, exampleRole } = await import('../../records/roles.js');
    const role = flags.role ?? exampleRole(availableRoles(resolveWorkspace(path.resolve(ctx.cwd)).paths));
    throw usageError('hestai anchor without --stage opens your editor, and this is not a terminal', {
      code: 'STAGE_MISSING',
      remedy: `In a terminal run "hestai anchor"; here, reuse your last payload (hestai anchor --again), pass one (hestai anchor --payload-file FILE), or start the stages: hestai anchor --stage identity --role ${role}`,
    });
  }
  const { personAnchor } = await import('./anchor-person.js');
  return personAnchor(
    ctx,
    {
      ...(flags.role === undefined ? {} : { role: flags.role }),
      ...(flags.token === undefined ? {} : { token: flags.token }),
      ...(flags.topic === undefined ? {} : { topic: flags.topic }),
      ...(flags.strictness === undefined ? {} : { strictness: flags.strictness }),
      ...(flags.payloadFile === undefined ? {} : { payloadFile: flags.payloadFile }),
      again: flags.again === true,
    },
    anchorDeps(ctx),
  );
}

export function registerAnchor(program: Command): void {
  program
    .command('anchor')
    .argument(
      '[action]',
      '"reset" reopens a terminal handshake (human only, audited): hestai anchor reset --token T [--reason X] [--yes]',
    )
    .description(
      'the Odyssean Anchor: on a terminal, one run in your editor; --stage identity, then context (BIND), then proof (TENSION + COMMIT)',
    )
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
    .option('--check', 'judge --payload-file as its stage would (whole payload without --stage); no retry spent')
    .option('--again', 'without --stage: submit the last payload accepted in this worktree')
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
        if (flags.check === true) return check(ctx, flags);
        if (flags.stage === undefined) return oneRun(ctx, flags);
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
              : { payload: await fromShell(ctx, readPayloadFile(flags.payloadFile, '--payload-file')!) }),
          },
          anchorDeps(ctx),
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
