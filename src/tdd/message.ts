/** How git will clean the message (`commit.cleanup`) and which character starts a comment line. */
export interface MessageOptions {
  /** `core.commentChar` (default `#`). */
  commentChar?: string;
  /** `commit.cleanup`: comments are stripped under `strip` and `default` (the default). */
  cleanup?: 'strip' | 'whitespace' | 'verbatim' | 'scissors' | 'default';
}

/** The scissors line `git commit -v` writes; everything from it on is not part of the message. */
export function scissorsLine(commentChar: string): string {
  return `${commentChar} ------------------------ >8 ------------------------`;
}

/** True when comment lines are removed from the message under this cleanup mode. */
export function stripsComments(options: MessageOptions): boolean {
  const mode = options.cleanup ?? 'default';
  return mode === 'strip' || mode === 'default';
}

/** Splits a raw message file into lines (CRLF tolerated) and cuts it at the scissors line. */
export function messageLines(raw: string, options: MessageOptions = {}): { lines: string[]; tail: string[] } {
  const all = raw.replace(/\r\n/g, '\n').split('\n');
  const cut = options.cleanup === 'verbatim' ? -1 : all.indexOf(scissorsLine(options.commentChar ?? '#'));
  return cut === -1 ? { lines: all, tail: [] } : { lines: all.slice(0, cut), tail: all.slice(cut) };
}

/**
 * The message as git will store it (approximately `git stripspace`): cut at the scissors line, comment
 * lines removed (default cleanup), trailing whitespace and surplus blank lines dropped.
 */
export function cleanMessage(raw: string, options: MessageOptions = {}): string {
  const commentChar = options.commentChar ?? '#';
  const strip = stripsComments(options);
  const out: string[] = [];
  let blank = false;
  for (const line of messageLines(raw, options).lines) {
    if (strip && line.startsWith(commentChar)) continue;
    const trimmed = line.trimEnd();
    if (trimmed === '') {
      blank = out.length > 0;
      continue;
    }
    if (blank) out.push('');
    blank = false;
    out.push(trimmed);
  }
  return out.join('\n');
}

/** The header (first line) of a cleaned message. */
export function messageHeader(cleaned: string): string {
  const end = cleaned.indexOf('\n');
  return end === -1 ? cleaned : cleaned.slice(0, end);
}
