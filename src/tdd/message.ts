/**
 * How git turns the commit message file into the stored message (`git commit`'s cleanup), ported from
 * git's `cleanup_message`/`strbuf_stripspace` so the commit-msg hook judges the bytes git will store.
 *
 * What the hook can know: `commit.cleanup` and `core.commentChar` (git config) and whether an editor
 * was used (git runs the hook with `GIT_EDITOR=:` when it was not: `-m`, `-F`, `--no-edit`). What it
 * cannot know: a `--cleanup=<mode>` or `-v` given on the command line (git does not pass them to the
 * hook). `hestai verify` always judges the stored message, so such a commit is still caught in CI.
 */
export type CleanupMode = 'strip' | 'whitespace' | 'verbatim' | 'scissors';

export interface MessageOptions {
  /** `core.commentChar`: the string that starts a comment line (default `#`; `auto` is resolved by the caller). */
  commentChar?: string;
  /** `commit.cleanup` as configured (`default` when unset). */
  cleanup?: CleanupMode | 'default';
  /** Whether git opened an editor for the message (default true); false when the hook ran with `GIT_EDITOR=:`. */
  editor?: boolean;
}

/** The cleanup git applies: `default` is `strip` with an editor and `whitespace` without; `scissors` needs an editor. */
export function effectiveCleanup(options: MessageOptions): CleanupMode {
  const mode = options.cleanup ?? 'default';
  const editor = options.editor ?? true;
  if (mode === 'default') return editor ? 'strip' : 'whitespace';
  if (mode === 'scissors') return editor ? 'scissors' : 'whitespace';
  return mode;
}

const CUT_LINE = '------------------------ >8 ------------------------';

/** The scissors line `git commit -v` writes; everything from it on is not part of the message. */
export function scissorsLine(commentChar: string): string {
  return `${commentChar} ${CUT_LINE}`;
}

/** True when comment lines are removed from the message (cleanup `strip`). */
export function stripsComments(options: MessageOptions): boolean {
  return effectiveCleanup(options) === 'strip';
}

/**
 * Where git cuts the message (`wt_status_locate_end`): the offset of a scissors line (at the start or
 * after a newline, followed by a newline), or -1. git cuts with an editor (`-v` or cleanup scissors).
 */
export function scissorsOffset(raw: string, options: MessageOptions): number {
  if (options.editor === false) return -1;
  const line = `${scissorsLine(options.commentChar ?? '#')}\n`;
  if (raw.startsWith(line)) return 0;
  const at = raw.indexOf(`\n${line}`);
  return at === -1 ? -1 : at + 1;
}

/** git's isspace: space, tab, CR, LF (not Unicode spaces, not a byte order mark). */
const TRAILING_SPACE = /[ \t\r\n]+$/;

/** True when git's cleanup removes `line` as a comment under `options`. */
export function isCommentLine(line: string, options: MessageOptions): boolean {
  return stripsComments(options) && line.length > 0 && line.startsWith(options.commentChar ?? '#');
}

/** True for a line git treats as empty (only spaces, tabs, CRs). */
export function isBlankLine(line: string): boolean {
  return /^[ \t\r]*$/.test(line);
}

/** `strbuf_stripspace`: trailing whitespace off every line, runs of empty lines collapsed, none at the ends. */
function stripspace(text: string, commentPrefix: string | null): string {
  const out: string[] = [];
  let empties = 0;
  const lines = text.split('\n');
  // Stryker disable next-line all: equivalent; a trailing empty line is never emitted by the loop below anyway.
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    if (commentPrefix !== null && line.startsWith(commentPrefix)) continue;
    const kept = line.replace(TRAILING_SPACE, '');
    if (kept === '') {
      empties++;
      continue;
    }
    if (empties > 0 && out.length > 0) out.push('');
    empties = 0;
    out.push(kept);
  }
  return out.join('\n');
}

/**
 * The message as git will store it (without its final newline): cut at the scissors line (editor
 * only), then `verbatim` keeps every byte, `whitespace` and `scissors` clean whitespace, `strip` also
 * removes comment lines.
 */
export function cleanMessage(raw: string, options: MessageOptions = {}): string {
  const mode = effectiveCleanup(options);
  const cut = scissorsOffset(raw, options);
  const text = cut === -1 ? raw : raw.slice(0, cut);
  if (mode === 'verbatim') return text.replace(/\n+$/, '');
  return stripspace(text, mode === 'strip' ? (options.commentChar ?? '#') : null);
}

/** The header (first line) of a cleaned message, byte for byte (nothing trimmed). */
export function messageHeader(cleaned: string): string {
  const end = cleaned.indexOf('\n');
  return end === -1 ? cleaned : cleaned.slice(0, end);
}

const AUTO_CANDIDATES = '#;@!$%^&|:';

/** The candidates (in git's order) that start no line of `text` (a line starts at the text start or after LF/CR). */
function unusedCandidates(text: string): string[] {
  const used = new Set<string>([text[0] ?? '']);
  for (let i = 0; i < text.length - 1; i++) if (text[i] === '\n' || text[i] === '\r') used.add(text[i + 1]!);
  return [...AUTO_CANDIDATES].filter((c) => !used.has(c));
}

/**
 * `core.commentChar=auto`: git picks the first of `#;@!$%^&|:` that starts no line of the message it
 * pre-fills. Without an editor the hook's file is that message, so the choice is exact. With an editor
 * git has appended its comment block in the chosen character, so the hook takes the character of the
 * last non-blank line when it is one git could have chosen (every earlier candidate starts a line),
 * else the last candidate of that run: a heuristic, and verify judges the stored message either way.
 */
export function autoCommentChar(raw: string, editor: boolean): string {
  const unused = unusedCandidates(raw);
  const first = unused[0] ?? '#';
  if (!editor) return first;
  const run = AUTO_CANDIDATES.slice(
    0,
    AUTO_CANDIDATES.indexOf(first) === -1 ? AUTO_CANDIDATES.length : AUTO_CANDIDATES.indexOf(first),
  );
  if (run === '') return first;
  const lastLine = raw.split('\n').findLast((line) => !isBlankLine(line)) ?? '';
  return run.includes(lastLine[0] ?? '\0') ? lastLine[0]! : run[run.length - 1]!;
}
