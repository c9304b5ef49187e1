import { messageLines, stripsComments, type MessageOptions } from './message.js';

/** One `Key: value` trailer of a commit message. */
export interface Trailer {
  key: string;
  value: string;
}

const TRAILER = /^([A-Za-z0-9][A-Za-z0-9-]*):[ \t]*(.*)$/;

/** Parses a block of lines as trailers, or returns null when a line is neither a trailer nor a continuation. */
function parseBlock(lines: readonly string[]): Trailer[] | null {
  const trailers: Trailer[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && trailers.length > 0) {
      const last = trailers[trailers.length - 1]!;
      last.value = `${last.value} ${line.trim()}`.trim();
      continue;
    }
    const match = TRAILER.exec(line);
    if (!match) return null;
    trailers.push({ key: match[1]!, value: match[2]!.trim() });
  }
  return trailers;
}

/** The trailers of a cleaned message: its last paragraph, when that is not the header and is all trailers. */
export function parseTrailers(message: string): Trailer[] {
  const paragraphs = message.trim().split(/\n[ \t]*\n/);
  if (paragraphs.length < 2) return [];
  return parseBlock(paragraphs[paragraphs.length - 1]!.split('\n')) ?? [];
}

/** The value of the last trailer named `key` (case-insensitive), or null. */
export function lastTrailer(trailers: readonly Trailer[], key: string): string | null {
  const wanted = key.toLowerCase();
  for (let i = trailers.length - 1; i >= 0; i--) if (trailers[i]!.key.toLowerCase() === wanted) return trailers[i]!.value;
  return null;
}

/**
 * Adds trailers to a raw commit message file the way `git interpret-trailers --if-exists replace` does:
 * into the existing trailer block when the last paragraph is one (replacing trailers with the same key),
 * otherwise as a new paragraph; always above a trailing comment block and a scissors line, which are kept.
 * A message with no content is returned unchanged, so git still aborts an empty commit.
 */
export function appendTrailers(raw: string, trailers: readonly Trailer[], options: MessageOptions = {}): string {
  const commentChar = options.commentChar ?? '#';
  const isComment = (line: string) => stripsComments(options) && line.startsWith(commentChar);
  const { lines, tail } = messageLines(raw, options);
  if (lines.length > 0 && lines[lines.length - 1] === '' && tail.length === 0) lines.pop();
  // The trailing block of comment and blank lines stays below the trailers.
  let end = lines.length;
  while (end > 0 && (lines[end - 1]!.trim() === '' || isComment(lines[end - 1]!))) end--;
  const body = lines.slice(0, end);
  if (!body.some((line) => line.trim() !== '' && !isComment(line))) return raw;
  const after = [...lines.slice(end), ...tail];
  while (after.length > 0 && after[0]!.trim() === '') after.shift();

  const lastBlank = body.findLastIndex((line) => line.trim() === '');
  const block = lastBlank === -1 ? null : body.slice(lastBlank + 1).filter((line) => !isComment(line));
  const existing = block && block.length > 0 ? parseBlock(block) : null;
  const keys = new Set(trailers.map((t) => t.key.toLowerCase()));
  const rendered = trailers.map((t) => `${t.key}: ${t.value}`);
  let out: string[];
  if (existing) {
    const kept = existing.filter((t) => !keys.has(t.key.toLowerCase())).map((t) => `${t.key}: ${t.value}`);
    out = [...body.slice(0, lastBlank + 1), ...kept, ...rendered];
  } else {
    out = [...body, '', ...rendered];
  }
  if (after.length > 0) out.push('', ...after);
  const text = out.join('\n');
  return text.endsWith('\n') ? text : `${text}\n`;
}
