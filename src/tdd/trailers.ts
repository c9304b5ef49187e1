import { isBlankLine, isCommentLine, scissorsOffset, type MessageOptions } from './message.js';

/** One `Key: value` trailer of a commit message. */
export interface Trailer {
  key: string;
  value: string;
  /**
   * Added beside the block's trailers of the same key (`Assisted-by` may name several tools), and not at all
   * when the block has this key and value already; without it a trailer replaces those of its key.
   */
  add?: true;
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
  // A message kept verbatim (`git commit --cleanup=verbatim`) may end in paragraphs of `#` comment lines
  // that git would have stripped: they are not the trailer block.
  while (paragraphs.length > 1 && paragraphs[paragraphs.length - 1]!.split('\n').every((line) => line.startsWith('#')))
    paragraphs.pop();
  if (paragraphs.length < 2) return [];
  return parseBlock(paragraphs[paragraphs.length - 1]!.split('\n')) ?? [];
}

/** The value of the last trailer named `key` (case-insensitive), or null. */
export function lastTrailer(trailers: readonly Trailer[], key: string): string | null {
  const wanted = key.toLowerCase();
  for (let i = trailers.length - 1; i >= 0; i--)
    if (trailers[i]!.key.toLowerCase() === wanted) return trailers[i]!.value;
  return null;
}

/**
 * Adds trailers to a raw commit message file so that they are the trailer block of the message git will
 * store (what `git interpret-trailers --if-exists replace` does to a cleaned message): into the existing
 * trailer block when the last paragraph is one (replacing trailers with the same key), otherwise as a
 * new paragraph, placed right after the last line git keeps. What git removes (comments under cleanup
 * strip, a scissors tail, trailing blank lines) stays below, untouched. A line starting with the comment
 * character is content when git keeps it (`-m`/`-F` under the default cleanup): the trailers go below it.
 * A message with no content is returned unchanged, so git still aborts an empty commit.
 */
export function appendTrailers(raw: string, trailers: readonly Trailer[], options: MessageOptions = {}): string {
  const cut = scissorsOffset(raw, options);
  const head = cut === -1 ? raw : raw.slice(0, cut);
  const tail = cut === -1 ? '' : raw.slice(cut);
  const lines = head.split('\n');
  const kept = (line: string) => !isBlankLine(line) && !isCommentLine(line, options);
  const last = lines.findLastIndex(kept);
  if (last === -1) return raw;
  // The last paragraph git keeps: kept lines back to a blank line (comment lines in between vanish).
  let start = last;
  for (let i = last - 1; i >= 0; i--) {
    if (isCommentLine(lines[i]!, options)) continue;
    if (isBlankLine(lines[i]!)) break;
    start = i;
  }
  const isHeader = start === lines.findIndex(kept);
  const paragraph = lines
    .slice(start, last + 1)
    .filter(kept)
    .map((line) => line.replace(/[ \t\r]+$/, ''));
  const existing = isHeader ? null : parseBlock(paragraph);
  const keys = new Set(trailers.filter((t) => !t.add).map((t) => t.key.toLowerCase()));
  const present = (t: Trailer) =>
    existing?.some((e) => e.key.toLowerCase() === t.key.toLowerCase() && e.value === t.value) === true;
  const rendered = trailers.filter((t) => !(t.add && present(t))).map((t) => `${t.key}: ${t.value}`);
  let out: string[];
  if (existing) {
    const comments = lines.slice(start, last + 1).filter((line) => isCommentLine(line, options));
    const others = existing.filter((t) => !keys.has(t.key.toLowerCase())).map((t) => `${t.key}: ${t.value}`);
    out = [...lines.slice(0, start), ...comments, ...others, ...rendered, ...lines.slice(last + 1)];
  } else {
    out = [...lines.slice(0, last + 1), '', ...rendered, ...lines.slice(last + 1)];
  }
  const rest = out.length - (lines.length - last - 1);
  if (rest < out.length && !isBlankLine(out[rest]!)) out.splice(rest, 0, ''); // keep a blank line above git's comments
  let text = out.join('\n');
  if (!text.endsWith('\n')) text += '\n';
  return text + tail;
}
