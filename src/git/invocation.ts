import { nearestAncestor } from '../util/proc.js';

/**
 * What the hook can learn about the `git commit` that runs it. git tells a commit-msg hook nothing about
 * `--amend`; on Linux the command line of the nearest `git` ancestor process says it (an alias such as
 * `git ci --amend` keeps the arguments there too).
 */
export interface CommitInvocation {
  /** The git command (`commit`, or an alias). */
  command: string;
  /** `--amend` (or a unique prefix such as `--amen`), the last of `--amend`/`--no-amend` winning. */
  amend: boolean;
  /** `--reset-author`: the author date becomes now. */
  resetAuthor: boolean;
  /** `--date`: the author date is the one given. */
  date: boolean;
  /** `-C`/`-c`: author and message come from another commit. */
  reuse: boolean;
  /** `--cleanup=<mode>` (the last one given), or null: how git cleans the message, over `commit.cleanup`. */
  cleanup: string | null;
  /** No `--no-verify` or `-n` (the last of `--verify`/`--no-verify` winning): git runs pre-commit and commit-msg. */
  verify: boolean;
}

type Kind = 'flag' | 'value' | 'optional';

/** `git commit`'s long options and whether they take a value (git 2.39..2.47; unknown ones are flags). */
const COMMIT_LONG: Record<string, Kind> = {
  quiet: 'flag',
  verbose: 'flag',
  file: 'value',
  author: 'value',
  date: 'value',
  message: 'value',
  'reedit-message': 'value',
  'reuse-message': 'value',
  fixup: 'value',
  squash: 'value',
  'reset-author': 'flag',
  trailer: 'value',
  signoff: 'flag',
  template: 'value',
  edit: 'flag',
  cleanup: 'value',
  status: 'flag',
  'gpg-sign': 'optional',
  all: 'flag',
  include: 'flag',
  interactive: 'flag',
  patch: 'flag',
  only: 'flag',
  'no-verify': 'flag',
  'dry-run': 'flag',
  short: 'flag',
  branch: 'flag',
  'ahead-behind': 'flag',
  porcelain: 'flag',
  long: 'flag',
  null: 'flag',
  amend: 'flag',
  'no-post-rewrite': 'flag',
  'untracked-files': 'optional',
  'pathspec-from-file': 'value',
  'pathspec-file-nul': 'flag',
  'allow-empty': 'flag',
  'allow-empty-message': 'flag',
};
const COMMIT_SHORT_VALUE = new Set(['m', 'F', 'C', 'c', 't']);
const COMMIT_SHORT_OPTIONAL = new Set(['u', 'S']);
const COMMIT_SHORT_LONG: Record<string, string> = { C: 'reuse-message', c: 'reedit-message' };

/** git's own options (before the command) that take the next argument when not written `--opt=value`. */
const GLOBAL_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--attr-source',
]);

/** Commands other than `commit` that run the commit-msg hook; none of them has an `--amend`. */
const NOT_COMMIT = new Set(['merge', 'pull', 'rebase', 'cherry-pick', 'revert', 'am', 'sequencer']);

/** Every spelling of a long option: `name`, its negation (`no-name`, or `name` without `no-`). */
const SPELLINGS: Array<{ spelling: string; option: string; negated: boolean }> = Object.keys(COMMIT_LONG).flatMap(
  (option) => [
    { spelling: option, option, negated: false },
    option.startsWith('no-')
      ? { spelling: option.slice(3), option, negated: true }
      : { spelling: `no-${option}`, option, negated: true },
  ],
);

/** Pure: a long option as git's parse-options reads it (exact name, else a unique prefix), or null. */
export function resolveLongOption(name: string): { option: string; negated: boolean } | null {
  const exact = SPELLINGS.find((s) => s.spelling === name);
  if (exact) return exact;
  const prefixed = SPELLINGS.filter((s) => s.spelling.startsWith(name));
  const distinct = new Set(prefixed.map((s) => `${s.option}/${s.negated}`));
  return distinct.size === 1 ? prefixed[0]! : null;
}

/**
 * Pure: reads git's argv (`git [global options] <command> [options] [--] [pathspec]`) with `git commit`'s
 * option grammar, so an option's value (`-m --amend`, `--message --amend`) is never read as an option.
 * Null when there is no command. The last of `--amend`/`--no-amend` wins, as in git.
 */
export function parseCommitInvocation(argv: readonly string[]): CommitInvocation | null {
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-')) {
    if (GLOBAL_VALUE.has(argv[i]!)) i++;
    i++;
  }
  const command = argv[i];
  if (command === undefined) return null;
  const result: CommitInvocation = {
    command,
    amend: false,
    resetAuthor: false,
    date: false,
    reuse: false,
    cleanup: null,
    verify: true,
  };
  if (NOT_COMMIT.has(command)) return result;
  const set = (option: string, negated: boolean) => {
    if (option === 'amend') result.amend = !negated;
    else if (option === 'no-verify') result.verify = negated;
    else if (option === 'reset-author') result.resetAuthor = !negated;
    else if (option === 'date') result.date = !negated;
    else if (option === 'reuse-message' || option === 'reedit-message') result.reuse = !negated;
  };
  for (i++; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' || arg === '--end-of-options') break;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const resolved = resolveLongOption(eq === -1 ? arg.slice(2) : arg.slice(2, eq));
      if (resolved === null) continue; // git refuses it before any hook runs
      set(resolved.option, resolved.negated);
      if (resolved.option === 'cleanup' && !resolved.negated)
        result.cleanup = eq === -1 ? (argv[i + 1] ?? null) : arg.slice(eq + 1);
      if (eq === -1 && !resolved.negated && COMMIT_LONG[resolved.option] === 'value') i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const short = arg[j]!;
        if (short === 'n') set('no-verify', false);
        if (COMMIT_SHORT_OPTIONAL.has(short)) break; // its value is the rest of the cluster
        if (COMMIT_SHORT_VALUE.has(short)) {
          const long = COMMIT_SHORT_LONG[short];
          if (long !== undefined) set(long, false);
          if (j === arg.length - 1) i++; // the value is the next argument
          break;
        }
      }
    }
  }
  return result;
}

/**
 * Pure: git's exported `GIT_AUTHOR_DATE` (`@<epoch> <+hhmm>`) names the same instant and zone as an ISO date
 * (`%aI`: `±HH:MM`, or `Z` for UTC as git >= 2.45 prints it, which is `+0000`).
 */
export function sameAuthorDate(exported: string | undefined, iso: string): boolean {
  const env = /^@(\d+) ([+-]\d{4})$/.exec(exported ?? '');
  const zone = /(?:([+-])(\d{2}):(\d{2})|Z)$/.exec(iso);
  const ms = Date.parse(iso);
  if (!env || !zone || Number.isNaN(ms)) return false;
  const offset = zone[1] === undefined ? '+0000' : `${zone[1]}${zone[2]}${zone[3]}`;
  return Number(env[1]) === ms / 1000 && env[2] === offset;
}

/**
 * Pure: does this commit replace HEAD (`git commit --amend`)? Both signals must agree: the command line
 * says `--amend`, and git's `GIT_AUTHOR_DATE` is HEAD's author date (what git exports on an amend that
 * keeps the author; a new commit gets the current time) unless `--reset-author`, `--date` or `-C`/`-c` set
 * another one. Everything here can be forged by whoever runs git; the caller judges an amend as a fresh
 * commit on HEAD's parents, so a forged "amend" gains nothing a commit made there would not get.
 */
export function replacesHead(
  invocation: CommitInvocation | null,
  env: NodeJS.ProcessEnv,
  headAuthorDate: string,
): boolean {
  if (invocation === null || !invocation.amend) return false;
  if (invocation.resetAuthor || invocation.date || invocation.reuse) return true;
  return sameAuthorDate(env['GIT_AUTHOR_DATE'], headAuthorDate);
}

/** The invocation of the nearest `git` ancestor (Linux /proc), or why there is none to read. */
export type InvocationLookup =
  { kind: 'found'; invocation: CommitInvocation | null } | { kind: 'none' } | { kind: 'unavailable' };

/** Reads the command line of the `git` process running this hook: a few /proc reads, no process started. */
export function readCommitInvocation(): InvocationLookup {
  const found = nearestAncestor('git');
  return found.kind === 'found' ? { kind: 'found', invocation: parseCommitInvocation(found.argv) } : found;
}

/**
 * Pure: whether git runs the commit-msg hook after this prepare-commit-msg: the nearest git is `git commit`
 * itself (not an alias) without `--no-verify`. A revert, cherry-pick, merge or rebase, an alias, or no /proc
 * to read: not known, so false.
 */
export function runsCommitMsgHook(lookup: InvocationLookup): boolean {
  return lookup.kind === 'found' && lookup.invocation?.command === 'commit' && lookup.invocation.verify;
}
