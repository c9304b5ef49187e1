/**
 * The lexical rules shared by the parser and the writer, in one place, so that what the writer emits is
 * exactly what the parser reads back.
 */

/** A key: a letter or `_`, then letters, digits, `_` or `-` (e.g. `L1`, `FAST_LAYER`, `work-item`). */
export const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** An envelope name (`===NAME===`), e.g. `CURRENT_FOCUS` or `SESSION::v4.0`. `END` only closes. */
export const ENVELOPE_NAME_PATTERN = /^[A-Za-z0-9_:.-]+$/;

/** The closing envelope name. */
export const END_NAME = 'END';

/** Lists nest at most this deep (a guard against stack exhaustion on hostile input). */
export const MAX_LIST_DEPTH = 32;

/** True when `key` may be used as a key. */
export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** True when `name` may open an envelope (`===name===`). */
export function isValidEnvelopeName(name: string): boolean {
  return ENVELOPE_NAME_PATTERN.test(name) && name !== END_NAME;
}

/**
 * Characters that may never appear raw in an OCTAVE line nor in a value the writer emits: C0 controls
 * (including tab, CR and LF), DEL, C1 controls (including NEL), the Unicode line and paragraph
 * separators, and lone surrogates. Refusing them means no value can ever start a new line, and so can
 * never inject a key.
 */
// With the `u` flag a well-formed surrogate pair is one code point, so the surrogate class only
// matches lone surrogates.
const FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]|[\uD800-\uDFFF]/u;

/** A forbidden character found in a text: where, its `U+XXXX` name and what kind it is. */
export interface ForbiddenChar {
  index: number;
  name: string;
  kind: 'control character' | 'line separator' | 'lone surrogate';
}

/** The first forbidden character of `text` (see above), or null. */
export function findForbiddenChar(text: string): ForbiddenChar | null {
  const match = FORBIDDEN.exec(text);
  if (match === null) return null;
  const code = match[0].charCodeAt(0);
  const kind = code >= 0xd800 ? 'lone surrogate' : code >= 0x2028 ? 'line separator' : 'control character';
  return { index: match.index, name: `U+${code.toString(16).toUpperCase().padStart(4, '0')}`, kind };
}

/**
 * True when a scalar must be written quoted to read back unchanged: it is empty, starts or ends with a
 * space, contains one of `,` `[` `]` `"`, starts with `//` or contains ` //` (which would start a
 * trailing comment). Inside a list, an item containing a space is quoted too, for readability.
 */
export function needsQuoting(text: string, inList: boolean): boolean {
  return (
    text === '' ||
    text.startsWith(' ') ||
    text.endsWith(' ') ||
    /[,[\]"]/.test(text) ||
    text.startsWith('//') ||
    text.includes(' //') ||
    (inList && text.includes(' '))
  );
}

/** `text` as a double-quoted string; only `"` and `\` need escapes (control characters are refused). */
export function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
