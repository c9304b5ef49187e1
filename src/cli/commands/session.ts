import path from 'node:path';
import type { Command } from 'commander';
import { hestaiCommand } from '../../agent/invocation.js';
import { ExitCode } from '../../errors.js';
import type { Checklist } from '../../protocol/machine.js';
import { paint, type Output } from '../output.js';
import { action, SESSION_OPTION, type CommandContext, type CommandResult } from '../run.js';

const deps = (ctx: CommandContext) => ({ clock: ctx.clock, env: ctx.env, cli: hestaiCommand });
const dir = (ctx: CommandContext) => path.resolve(ctx.cwd);
const lib = () => import('../../protocol/operations.js');
/** The working directory and session every subcommand passes. */
const at = (ctx: CommandContext, inv: SessionInput) => ({ working_dir: dir(ctx), session_id: inv.session });

function formatChecklist(out: Output, checklist: Checklist): string[] {
  const lines: string[] = [];
  for (const stage of ['start', 'work', 'end'] as const) {
    if (checklist[stage].length === 0) continue;
    lines.push(`${stage}:`);
    for (const item of checklist[stage]) {
      const mark =
        item.status === 'x' ? paint(out, 'green', '[x]') : item.result === 'FAIL' ? paint(out, 'red', '[ ]') : '[ ]';
      lines.push(
        `  ${mark} ${item.req.padEnd(6)} ${item.phase}/${item.gate}: ${item.step}${item.blocking ? '' : ' (non-blocking)'}`,
      );
    }
  }
  return lines;
}

/** What a `hestai session` subcommand was given. */
export interface SessionInput {
  session: string | undefined;
  phase: string | undefined;
  opts: SessionOpts;
}
type SessionOpts = Record<string, string | boolean | string[] | undefined>;

type SessionSub = 'start' | 'gate' | 'advance' | 'evidence' | 'blocked' | 'end' | 'show';

/** The seven subcommands' handlers. */
const handlers: Record<SessionSub, (ctx: CommandContext, inv: SessionInput) => Promise<CommandResult>> = {
  start: async (ctx, inv) => {
    const opts = inv.opts as { objective: string; branch?: string; startingCommit?: string };
    const { sessionStart } = await lib();
    const res = await sessionStart(
      {
        ...at(ctx, inv),
        objective: opts.objective,
        branch: opts.branch,
        starting_commit: opts.startingCommit,
      },
      deps(ctx),
    );
    const text = [
      `protocol run started for session ${res.session_id}: phase ${res.phase}`,
      res.blocked_until.length ? `blocked until: ${res.blocked_until.join(', ')}` : 'no blocking start gate is unmet',
      ...formatChecklist(ctx.out, res.checklist),
      `next: ${hestaiCommand(dir(ctx))} session blocked`,
    ].join('\n');
    return { exitCode: ExitCode.Ok, json: res, text };
  },
  gate: async (ctx, inv) => {
    const phase = inv.phase!;
    const opts = inv.opts as { step?: string };
    const res = await (await lib()).validateGate({ ...at(ctx, inv), phase, step: opts.step }, deps(ctx));
    const lines = [
      `${res.status === 'PASS' ? paint(ctx.out, 'green', 'PASS') : res.status === 'FAIL' ? paint(ctx.out, 'red', 'FAIL') : res.status} ${res.phase}${res.step ? `/${res.step}` : ''} (${res.requirement_level}${res.blocking ? ', blocking' : ''}): ${res.message}`,
    ];
    for (const g of res.gates)
      lines.push(
        `  ${g.status.padEnd(7)} ${g.gate} (${g.requirement_level}): ${g.message}${g.evidence ? `  [evidence: ${g.evidence.split('\n')[0]}]` : ''}`,
      );
    return { exitCode: res.status === 'FAIL' ? ExitCode.Blocked : ExitCode.Ok, json: res, text: lines.join('\n') };
  },
  advance: async (ctx, inv) => {
    const opts = inv.opts as { to?: string; force?: boolean };
    const { advancePhase } = await lib();
    const res = await advancePhase({ ...at(ctx, inv), target_phase: opts.to, force: opts.force }, deps(ctx));
    const lines = [`${res.success ? paint(ctx.out, 'green', 'ok') : paint(ctx.out, 'red', 'refused')} ${res.message}`];
    for (const v of res.violations ?? []) lines.push(`  violation: ${v}`);
    for (const w of res.warnings) lines.push(`${paint(ctx.out, 'yellow', 'warn')} ${w}`);
    for (const a of res.suggested_actions ?? []) lines.push(`    run:   ${a}`);
    if (!res.success) lines.push(`hint: see what is missing: ${hestaiCommand(dir(ctx))} session blocked`);
    return { exitCode: res.success ? ExitCode.Ok : ExitCode.Blocked, json: res, text: lines.join('\n') };
  },
  evidence: async (ctx, inv) => {
    const phase = inv.phase!;
    const opts = inv.opts as { type: string; value: string; step?: string };
    const { recordEvidence } = await lib();
    const res = await recordEvidence(
      {
        ...at(ctx, inv),
        phase,
        evidence_type: opts.type,
        evidence: opts.value,
        step: opts.step,
      },
      deps(ctx),
    );
    const text = `evidence recorded for ${res.phase}/${res.step}: gate ${res.gate_status}${res.auto_validated ? '' : ' (not validated by evidence)'}: ${res.message}`;
    return { exitCode: ExitCode.Ok, json: res, text };
  },
  blocked: async (ctx, inv) => {
    const res = await (await lib()).getBlockedReason({ ...at(ctx, inv), surface: 'cli' }, deps(ctx));
    const lines = res.is_blocked
      ? [`phase ${res.current_phase} is blocked:`]
      : [`phase ${res.current_phase}: nothing blocks`];
    res.blocked_phases.forEach((b, i) => {
      lines.push(
        `  ${b.requirement_level} ${b.phase}/${b.gate}: ${b.reason}`,
        `    needs: ${b.evidence_needed}`,
        `    run:   ${res.suggested_actions[i]}`,
      );
    });
    return { exitCode: ExitCode.Ok, json: res, text: lines.join('\n') };
  },
  end: async (ctx, inv) => {
    const opts = inv.opts as { summary: string; next?: string; decision?: string[] };
    const { sessionEnd } = await lib();
    const res = await sessionEnd(
      {
        ...at(ctx, inv),
        summary: opts.summary,
        next_session_notes: opts.next,
        key_decisions: opts.decision,
      },
      deps(ctx),
    );
    const lines = [
      `${res.status === 'COMPLETE' ? paint(ctx.out, 'green', res.status) : paint(ctx.out, 'red', res.status)} ${res.message}`,
    ];
    for (const u of res.unmet) lines.push(`  unmet: ${u}`);
    if (res.status === 'INCOMPLETE')
      lines.push(
        `hint: ${hestaiCommand(dir(ctx))} session blocked (for the current phase) or ${hestaiCommand(dir(ctx))} session show`,
      );
    return {
      exitCode: res.status === 'INCOMPLETE' ? ExitCode.Blocked : ExitCode.Ok,
      json: res,
      text: lines.join('\n'),
    };
  },
  show: async (ctx, inv) => {
    const opts = inv.opts as { history?: boolean; violations?: boolean };
    const l = await lib();
    if (opts.history) {
      const res = l.sessionHistory(dir(ctx));
      const text = res.sessions.length
        ? res.sessions
            .map(
              (s) => `${s.ended_at} ${s.session_id} ${s.outcome} ${s.commit_sha?.slice(0, 7) ?? '-'}: ${s.objective}`,
            )
            .join('\n')
        : 'no completed protocol runs';
      return { exitCode: ExitCode.Ok, json: res, text };
    }
    if (opts.violations) {
      const res = l.sessionViolations(dir(ctx));
      const text = res.violations.length
        ? res.violations
            .map((v) => `${v.timestamp} ${v.session_id} ${v.severity} ${v.phase}: ${v.requirement}`)
            .join('\n')
        : 'no violations';
      return { exitCode: ExitCode.Ok, json: res, text };
    }
    const res = await l.sessionState(at(ctx, inv), deps(ctx));
    const text = [
      `session ${res.session_id}: ${res.objective}`,
      `phase ${res.current_phase} (completed: ${res.phases_completed.join(', ') || 'none'}); branch ${res.branch ?? '(detached)'}, started ${res.started_at} at ${res.starting_commit?.slice(0, 7) ?? '(no commit)'}`,
      ...(res.protocol_changed
        ? [paint(ctx.out, 'yellow', 'warn protocol.yaml changed since the run started; its current gates apply')]
        : []),
      ...formatChecklist(ctx.out, res.checklist),
      `violations: ${res.violations.length}, forced advances: ${res.forced_advances}`,
    ].join('\n');
    return { exitCode: ExitCode.Ok, json: res, text };
  },
};

/** `hestai session start|gate|advance|evidence|blocked|end|show`: the session protocol (seed 004). */
export function registerSession(program: Command): void {
  const session = program
    .command('session')
    .description('the session protocol state machine (seed 004): start, gate, advance, evidence, blocked, end, show')
    .option(...SESSION_OPTION);
  const sid = () => session.opts<{ session?: string }>().session;

  session
    .command('start')
    .description('start the protocol run of the clock-in session (one run per session)')
    .requiredOption('--objective <text>', 'what the session is for')
    .option('--branch <name>', 'the branch (default: the current one)')
    .option('--starting-commit <rev>', 'the starting commit (default: HEAD when the session clocked in)')
    .action(action((ctx, opts: SessionOpts) => handlers.start(ctx, { session: sid(), phase: undefined, opts })));

  session
    .command('gate')
    .argument('<phase>', 'the phase whose gates to validate')
    .option('--step <gate>', 'validate only this gate of the phase')
    .description('validate the gates of a phase (records the results; exit 1 when a required gate fails)')
    .action(action((ctx, phase: string, opts: SessionOpts) => handlers.gate(ctx, { session: sid(), phase, opts })));

  session
    .command('advance')
    .option('--to <phase>', 'advance to this phase (every blocking gate on the way must hold)')
    .option('--force', 'advance past unmet blocking gates: each is recorded as a violation (limited per session)')
    .description('advance to the next phase; refused while a blocking gate is unmet')
    .action(action((ctx, opts: SessionOpts) => handlers.advance(ctx, { session: sid(), phase: undefined, opts })));

  session
    .command('evidence')
    .argument('<phase>', 'the phase the evidence is for')
    .requiredOption('--type <type>', 'tool_output | file_path | commit_sha | content_hash | manual')
    .requiredOption('--value <text>', 'the evidence: output excerpt, path, sha, sha256 or note')
    .option('--step <gate>', 'the gate the evidence is for (default: the only gate accepting the type)')
    .description('record typed evidence for a gate and re-validate it')
    .action(action((ctx, phase: string, opts: SessionOpts) => handlers.evidence(ctx, { session: sid(), phase, opts })));

  session
    .command('blocked')
    .description('why the current phase cannot advance, with the commands that unblock it')
    .action(action((ctx) => handlers.blocked(ctx, { session: sid(), phase: undefined, opts: {} })));

  session
    .command('end')
    .requiredOption('--summary <text>', 'what the session accomplished')
    .option('--next <text>', 'notes for the next session')
    .option('--decision <text>', 'a key decision (repeatable)', (value: string, previous: string[] = []) => [
      ...previous,
      value,
    ])
    .description(
      'end the run: COMPLETE writes one history record and clears the run; INCOMPLETE (exit 1) lists the unmet MUST gates',
    )
    .action(action((ctx, opts: SessionOpts) => handlers.end(ctx, { session: sid(), phase: undefined, opts })));

  session
    .command('show')
    .option('--history', 'the last 5 completed runs (session://history)')
    .option('--violations', 'the violations log (session://violations)')
    .description('the run: phase, checklist, evidence, violations (session://state)')
    .action(action((ctx, opts: SessionOpts) => handlers.show(ctx, { session: sid(), phase: undefined, opts })));
  for (const sub of session.commands) sub.exitOverride().showSuggestionAfterError(true);
}
