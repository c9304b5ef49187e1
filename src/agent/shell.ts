/**
 * Shell commands as the agent hook sees them (issue 37): no reading of what a command does. Before its anchor an
 * agent runs no shell command but an exact invocation of hestai's start commands; after it, the agent is trusted
 * with its shell and only the words a plain tokenizer sees are checked against the rules' own files. Pure.
 */

/**
 * hestai's subcommands an agent needs to start, and only these (docs/agents.md): clock in (no takeover), the
 * anchor stages, status, help and the read-only `session` steps. What changes a session (`clock-out`,
 * `refresh`, `session end`, a takeover), a person's decisions (`trust`, `anchor reset`, `init`, `ack`) and
 * everything else wait for the anchor.
 */
export const HESTAI_START_COMMANDS = ['clock-in', 'anchor', 'odyssean-anchor', 'session', 'status', 'help'] as const;

/** The `session` subcommands that only read. */
const SESSION_READS = ['show', 'blocked'];

/** The value of option `name` in `args` (`--name v` or `--name=v`), each one. */
function optionValues(args: readonly string[], name: string): string[] {
  return args.flatMap((a, i) =>
    a === name ? [args[i + 1] ?? ''] : a.startsWith(`${name}=`) ? [a.slice(name.length + 1)] : [],
  );
}

/**
 * Pure: does a start command (its arguments after hestai) stay within starting and reading? No takeover, no
 * `session` step that acts, and no `--session` / `--token` but the caller's own (`self`).
 */
function startsOrReads(args: readonly string[], sub: string, self: string | null): boolean {
  if (sub === 'anchor' && args.includes('reset')) return false;
  if (sub === 'clock-in' && optionValues(args, '--on-conflict').some((v) => v !== 'continue' && v !== 'abort'))
    return false;
  if (sub === 'session') {
    const step = args[args.indexOf('session') + 1];
    if (step === undefined || !SESSION_READS.includes(step)) return false;
  }
  return [...optionValues(args, '--session'), ...optionValues(args, '--token')].every((v) => v === self);
}

/**
 * Pure: the words of a command with no shell syntax at all, or null. Words are separated by blanks; a word may
 * be single- or double-quoted (no `$`, backquote, backslash or newline inside); outside quotes only letters,
 * digits and `_ - . / : @ % + = ,` are plain (no `;` `&` `|` `<` `>` `(` `)` `$` backquote, glob, `~`, `#`,
 * braces, backslash or newline).
 */
export function plainWords(command: string): string[] | null {
  const words: string[] = [];
  const re = /[ \t]*(?:([A-Za-z0-9_\-./:@%+=,]+)|'([^'\n]*)'|"([^"$`\\\n]*)")(?=[ \t]|$)|[ \t]+$/y;
  let at = 0;
  while (at < command.length) {
    re.lastIndex = at;
    const m = re.exec(command);
    if (m === null || m[0] === '') return null;
    const word = m[1] ?? m[2] ?? m[3];
    if (word !== undefined) words.push(word);
    at = re.lastIndex;
  }
  return words;
}

/**
 * The form that runs the installed CLI here, besides `node <bin>`: `hestai` (first on PATH). Never `npx hestai`:
 * npm's config (`~/.npmrc`: `script-shell`, a prefix) can make it run another program.
 */
export type HestaiForm = 'hestai';

/**
 * Pure: is `command` exactly an invocation of hestai's start commands: `node <one of bins> ...` (the installed
 * CLI; a hook entry only with `--session-start <id>`), or `hestai ...` where `forms` says it runs that CLI; no
 * shell syntax, no environment assignment, no `--cwd`, and nothing that changes a session or names one but
 * the caller's (`self`, see `startsOrReads`)?
 */
export function isHestaiStart(
  command: string,
  bins: readonly string[],
  forms: readonly HestaiForm[] = [],
  self: string | null = null,
): boolean {
  const words = plainWords(command.trim());
  if (words === null) return false;
  let args: string[];
  if (words[0] === 'hestai' && forms.includes('hestai')) args = words.slice(1);
  else if (words[0] === 'node' && words[1] !== undefined && bins.includes(words[1])) {
    // a hook entry only as the step that binds a session: `node <hook> [runtime] --session-start <id>`
    if (/[\\/]hooks[\\/](claude-code|agent-hook)$/.test(words[1]))
      return /^([a-z-]+ )?--session-start [A-Za-z0-9._:-]+$/.test(words.slice(2).join(' '));
    args = words.slice(2);
  } else return false;
  if (args.some((a) => a === '--cwd' || a.startsWith('--cwd='))) return false;
  const sub = args.find((a) => !a.startsWith('-'));
  if (sub === undefined) return args.length > 0 && args.every((a) => /^--(version|help|json)$|^-[Vh]$/.test(a));
  if (!(HESTAI_START_COMMANDS as readonly string[]).includes(sub)) return false;
  return startsOrReads(args, sub, self);
}

/** Pure: a command's words as a plain tokenizer sees them: quotes group and are removed, operators and blanks split. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const stop = end === -1 ? command.length : end;
      word = (word ?? '') + command.slice(i + 1, stop);
      i = stop;
    } else if (/[\s;&|<>()`]/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words.filter((w) => w !== '');
}

/**
 * Pure: the words of a shell command that may name a path (the protected-path check splits each at `=`, `:`
 * and the like). Left out: a message (a word with blanks after `-m`, `-am` or `--message`), the value of
 * `-c core.hooksPath=...` (git runs hooks from there, never writes it) and the hestai CLI `node` runs (`bins`).
 */
export function shellMentions(command: string, bins: readonly string[]): string[] {
  const words = shellWords(command);
  return words.filter((w, i) => {
    const before = words[i - 1] ?? '';
    if ((/^-[A-Za-z]*m$|^--message$/.test(before) || /^--message=/.test(w)) && /\s/.test(w)) return false;
    if (before === 'node' && bins.includes(w)) return false;
    return !/^core\.hookspath=/i.test(w);
  });
}
