/**
 * Shell commands as the agent hook sees them (issue 37): no reading of what a command does. Before its anchor an
 * agent runs no shell command but an exact invocation of hestai's start commands; after it, the agent is trusted
 * with its shell and only the words a plain tokenizer sees are checked against the rules' own files. Pure.
 */

/**
 * hestai's subcommands an agent needs to start, and only these (docs/agents.md): clock in, the anchor stages,
 * the protocol's steps, status, refresh and clock out. A person's decisions (`trust`, `anchor reset`, `init`,
 * `ack`) and everything else wait for the anchor.
 */
export const HESTAI_START_COMMANDS = [
  'clock-in',
  'anchor',
  'odyssean-anchor',
  'session',
  'status',
  'refresh',
  'clock-out',
  'help',
] as const;

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

/** The forms that run the installed CLI here, besides `node <bin>`: `hestai` (first on PATH), `npx hestai` (the project's link). */
export type HestaiForm = 'hestai' | 'npx';

/**
 * Pure: is `command` exactly an invocation of hestai's start commands: `node <one of bins> ...` (the installed
 * CLI; a hook entry only with `--session-start <id>`), or `hestai ...` and `npx [--no|--no-install] hestai ...`
 * where `forms` says they run that CLI; no shell syntax, no environment assignment, no `--cwd`, and for
 * `anchor` no `reset`?
 */
export function isHestaiStart(command: string, bins: readonly string[], forms: readonly HestaiForm[] = []): boolean {
  const words = plainWords(command.trim());
  if (words === null) return false;
  let args: string[];
  if (words[0] === 'hestai' && forms.includes('hestai')) args = words.slice(1);
  else if (words[0] === 'npx' && forms.includes('npx')) {
    let k = 1;
    while (words[k] === '--no' || words[k] === '--no-install') k++;
    if (words[k] !== 'hestai') return false;
    args = words.slice(k + 1);
  } else if (words[0] === 'node' && words[1] !== undefined && bins.includes(words[1])) {
    // a hook entry only as the step that binds a session: `node <hook> [runtime] --session-start <id>`
    if (/[\\/]hooks[\\/](claude-code|agent-hook)$/.test(words[1]))
      return /^([a-z-]+ )?--session-start [A-Za-z0-9._:-]+$/.test(words.slice(2).join(' '));
    args = words.slice(2);
  } else return false;
  if (args.some((a) => a === '--cwd' || a.startsWith('--cwd='))) return false;
  const sub = args.find((a) => !a.startsWith('-'));
  if (sub === undefined) return args.length > 0 && args.every((a) => /^--(version|help|json)$|^-[Vh]$/.test(a));
  if (!(HESTAI_START_COMMANDS as readonly string[]).includes(sub)) return false;
  return !(sub === 'anchor' && args.includes('reset'));
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
