/**
 * The `hestai session ...` fast path: the seven protocol commands run on every gate check an agent makes,
 * so a plain invocation skips the CLI parser (commander and every other command's registration). Only the
 * forms below are taken; anything else (help, `--version`, an unknown or repeated option, a value that
 * looks like an option, a missing or extra argument, `--`) returns null and goes through the full CLI,
 * which answers it (usage errors included) exactly as before. Both paths run the same handlers
 * (commands/session.ts).
 */
export type SessionSub = 'start' | 'gate' | 'advance' | 'evidence' | 'blocked' | 'end' | 'show';

export interface SessionInvocation {
  sub: SessionSub;
  /** `--cwd` (global). */
  cwd: string | undefined;
  /** `--json` (global). */
  json: boolean;
  /** `--session` (of `hestai session`). */
  session: string | undefined;
  /** The phase argument of `gate` and `evidence`. */
  phase: string | undefined;
  /** The subcommand's options, keyed as commander names them (camelCase). */
  opts: Record<string, string | boolean | string[]>;
}

type Spec = {
  /** Options taking a value: flag → key. */
  values: Record<string, string>;
  /** Boolean flags: flag → key. */
  flags: Record<string, string>;
  /** Value options given more than once collect into a list. */
  repeatable?: readonly string[];
  required: readonly string[];
  phase: boolean;
};

const SPECS: Record<SessionSub, Spec> = {
  start: {
    values: { '--objective': 'objective', '--branch': 'branch', '--starting-commit': 'startingCommit' },
    flags: {},
    required: ['objective'],
    phase: false,
  },
  gate: { values: { '--step': 'step' }, flags: {}, required: [], phase: true },
  advance: { values: { '--to': 'to' }, flags: { '--force': 'force' }, required: [], phase: false },
  evidence: {
    values: { '--type': 'type', '--value': 'value', '--step': 'step' },
    flags: {},
    required: ['type', 'value'],
    phase: true,
  },
  blocked: { values: {}, flags: {}, required: [], phase: false },
  end: {
    values: { '--summary': 'summary', '--next': 'next', '--decision': 'decision' },
    flags: {},
    repeatable: ['decision'],
    required: ['summary'],
    phase: false,
  },
  show: { values: {}, flags: { '--history': 'history', '--violations': 'violations' }, required: [], phase: false },
};

const isSub = (s: string | undefined): s is SessionSub => s !== undefined && Object.hasOwn(SPECS, s);

export function sessionArgv(args: readonly string[]): SessionInvocation | null {
  let cwd: string | undefined;
  let json = false;
  let session: string | undefined;
  let i = 0;
  const takeValue = (arg: string, flag: string): string | null => {
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
    const value = args[i + 1];
    if (value === undefined || value.startsWith('-')) return null;
    i++;
    return value;
  };
  /** The global and `session` options, anywhere; false when `arg` is not one of them, null when malformed. */
  const common = (arg: string): boolean | null => {
    if (arg === '--json') return json ? null : (json = true);
    for (const [flag, set] of [
      ['--cwd', (v: string) => (cwd = v)],
      ['--session', (v: string) => (session = v)],
    ] as const) {
      if (arg !== flag && !arg.startsWith(`${flag}=`)) continue;
      if ((flag === '--cwd' ? cwd : session) !== undefined) return null;
      const value = takeValue(arg, flag);
      if (value === null) return null;
      set(value);
      return true;
    }
    return false;
  };
  for (; i < args.length && args[i] !== 'session'; i++) {
    if (args[i] === '--session' || args[i]!.startsWith('--session=')) return null; // not a global option
    if (common(args[i]!) !== true) return null;
  }
  const sub = args[i + 1];
  if (args[i] !== 'session' || !isSub(sub)) return null;
  const spec = SPECS[sub];
  const opts: Record<string, string | boolean | string[]> = {};
  let phase: string | undefined;
  for (i += 2; i < args.length; i++) {
    const arg = args[i]!;
    const seen = common(arg);
    if (seen === null) return null;
    if (seen) continue;
    if (!arg.startsWith('-')) {
      if (!spec.phase || phase !== undefined) return null;
      phase = arg;
      continue;
    }
    const flagKey = spec.flags[arg];
    if (flagKey !== undefined) {
      if (flagKey in opts) return null;
      opts[flagKey] = true;
      continue;
    }
    const flag = Object.keys(spec.values).find((f) => arg === f || arg.startsWith(`${f}=`));
    if (flag === undefined) return null;
    const key = spec.values[flag]!;
    const value = takeValue(arg, flag);
    if (value === null) return null;
    if (spec.repeatable?.includes(key)) opts[key] = [...((opts[key] as string[] | undefined) ?? []), value];
    else if (key in opts) return null;
    else opts[key] = value;
  }
  if (spec.phase && phase === undefined) return null;
  if (spec.required.some((k) => !(k in opts))) return null;
  return { sub, cwd, json, session, phase, opts };
}
