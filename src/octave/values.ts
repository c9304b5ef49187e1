/**
 * Parsing of the text after `KEY::` on one line: a quoted string, a list, or a bare scalar.
 *
 * - Bare scalar: the rest of the line with surrounding spaces removed, kept exactly as written (no
 *   escapes, no number or boolean conversion, operators such as `->` are not normalized). A `//` at the
 *   start of the value or after a space begins a trailing comment, so `KEY::x // note` is `x` while
 *   `URL::http://example.com` keeps its `//`. `KEY::` alone is the empty string.
 * - Quoted string: `"…"` with the escapes `\"`, `\\`, `\n`, `\t` and `\uXXXX`; `//` inside is text.
 * - List: `[a, b, "c, d", [nested], []]`. Items are bare (up to the next `,` `[` `]` or `"`, surrounding
 *   spaces removed), quoted or lists; an empty item must be written `""`. `//` inside a list is text.
 * After a quoted string or a list only spaces and an optional `// comment` may follow.
 */
import { MAX_LIST_DEPTH } from './syntax.js';
import type { OctaveValue } from './types.js';

/** A parsed value, or what was expected (the message names 1-based columns of the line). */
export type ValueResult = { ok: true; value: OctaveValue } | { ok: false; message: string };

interface Cursor {
  readonly text: string;
  pos: number;
  /** 1-based column of `text[0]` in its line. */
  readonly column: number;
}

class ValueSyntaxError extends Error {}

function fail(cursor: Cursor, message: string, pos = cursor.pos): never {
  throw new ValueSyntaxError(`${message} at column ${cursor.column + pos}`);
}

function skipSpaces(cursor: Cursor): void {
  while (cursor.text[cursor.pos] === ' ') cursor.pos += 1;
}

function atCommentOrEnd(cursor: Cursor): boolean {
  return cursor.pos >= cursor.text.length || cursor.text.startsWith('//', cursor.pos);
}

/**
 * Parses the value text that follows `KEY::`. `column` is the 1-based column of its first character,
 * used in messages. Never throws.
 */
export function parseValueText(text: string, column: number): ValueResult {
  const cursor: Cursor = { text, pos: 0, column };
  try {
    skipSpaces(cursor);
    if (atCommentOrEnd(cursor)) return { ok: true, value: '' };
    const first = text[cursor.pos];
    if (first !== '"' && first !== '[') return { ok: true, value: readBareScalar(text.slice(cursor.pos)) };
    const value = first === '"' ? readQuoted(cursor) : readList(cursor, 1);
    skipSpaces(cursor);
    if (!atCommentOrEnd(cursor)) {
      const closing = first === '"' ? 'the closing quote' : 'the closing "]"';
      fail(
        cursor,
        `unexpected text after ${closing}: ${JSON.stringify(text.slice(cursor.pos))} (start a trailing comment with "//")`,
      );
    }
    return { ok: true, value };
  } catch (error) {
    if (error instanceof ValueSyntaxError) return { ok: false, message: error.message };
    throw error;
  }
}

/** The bare value: up to a `//` that follows a space (a trailing comment), without trailing spaces. */
function readBareScalar(rest: string): string {
  const comment = rest.indexOf(' //');
  return (comment === -1 ? rest : rest.slice(0, comment)).replace(/ +$/, '');
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', n: '\n', t: '\t' };

function readQuoted(cursor: Cursor): string {
  const open = cursor.pos;
  cursor.pos += 1;
  let out = '';
  for (;;) {
    const ch = cursor.text[cursor.pos];
    if (ch === undefined) fail(cursor, "unterminated string: expected a closing '\"' for the quote opened", open);
    if (ch === '"') {
      cursor.pos += 1;
      return out;
    }
    if (ch !== '\\') {
      out += ch;
      cursor.pos += 1;
      continue;
    }
    const code = cursor.text[cursor.pos + 1];
    if (code === 'u') {
      const hex = cursor.text.slice(cursor.pos + 2, cursor.pos + 6);
      if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail(cursor, 'invalid escape: expected "\\u" followed by four hex digits');
      out += String.fromCharCode(Number.parseInt(hex, 16));
      cursor.pos += 6;
      continue;
    }
    const simple = code === undefined ? undefined : SIMPLE_ESCAPES[code];
    if (simple === undefined) {
      const shown = code === undefined ? '\\' : `\\${code}`;
      fail(cursor, `unknown escape "${shown}" (allowed: \\" \\\\ \\n \\t \\uXXXX)`);
    }
    out += simple;
    cursor.pos += 2;
  }
}

function readList(cursor: Cursor, depth: number): OctaveValue[] {
  if (depth > MAX_LIST_DEPTH) fail(cursor, `lists nest too deep (at most ${MAX_LIST_DEPTH} levels)`);
  const open = cursor.pos;
  cursor.pos += 1;
  const items: OctaveValue[] = [];
  skipSpaces(cursor);
  if (cursor.text[cursor.pos] === ']') {
    cursor.pos += 1;
    return items;
  }
  for (;;) {
    items.push(readItem(cursor, depth));
    skipSpaces(cursor);
    const next = cursor.text[cursor.pos];
    if (next === ']') {
      cursor.pos += 1;
      return items;
    }
    if (next === undefined) fail(cursor, 'unterminated list: expected "]" for the "[" opened', open);
    if (next !== ',') fail(cursor, `expected "," or "]" in the list, got ${JSON.stringify(next)}`);
    cursor.pos += 1;
  }
}

function readItem(cursor: Cursor, depth: number): OctaveValue {
  skipSpaces(cursor);
  const ch = cursor.text[cursor.pos];
  if (ch === '"') return readQuoted(cursor);
  if (ch === '[') return readList(cursor, depth + 1);
  if (ch === undefined) fail(cursor, 'unterminated list: expected an item or "]"');
  if (ch === ',' || ch === ']') fail(cursor, 'expected a list item (write "" for an empty string)');
  const start = cursor.pos;
  while (cursor.pos < cursor.text.length && !',[]"'.includes(cursor.text[cursor.pos] ?? '')) cursor.pos += 1;
  const next = cursor.text[cursor.pos];
  if (next === '"' || next === '[') {
    fail(cursor, `unexpected ${JSON.stringify(next)} inside an unquoted list item (quote the item)`);
  }
  return cursor.text.slice(start, cursor.pos).replace(/ +$/, '');
}
