/**
 * The RAPH vector v4.0 reader: a hand-written, line-based parser (no OCTAVE library, no zod) so that a
 * whole vector validates in well under a millisecond. It only finds structure; the rules judge it.
 *
 * - A section header counts only at column 0 (`## NAME ...`); an indented `## COMMIT` is an ordinary
 *   (stray) line of the section it is in and cannot end that section early.
 * - Inside a section a line is `KEY::value` (leading spaces allowed), a `//` comment, blank, or stray.
 * - The envelope markers are recorded, not required: the rules decide (payloads may omit them).
 */
import { VECTOR_CLOSE, VECTOR_OPEN } from './constants.js';

export interface VectorLine {
  key: string;
  value: string;
  /** 1-based line number in the submitted text. */
  line: number;
}

export interface StrayLine {
  text: string;
  line: number;
}

export interface VectorSection {
  /** The header word, upper-cased (`## bind (x)` → `BIND`). */
  name: string;
  line: number;
  entries: VectorLine[];
  stray: StrayLine[];
}

export interface ParsedVector {
  /** Line of the opening marker, or null. `openText` holds a different `===...===` first line, if any. */
  open: number | null;
  openText: string | null;
  close: number | null;
  sections: VectorSection[];
  /** Non-blank lines outside any section (before the first header, or after the closing marker). */
  outside: StrayLine[];
}

const HEADER = /^##\s*([A-Za-z_][A-Za-z0-9_]*)\b/;
const ENTRY = /^\s*([A-Za-z_][A-Za-z0-9_]*)::(.*)$/;
const MARKER = /^===[^=\s]+(?:::[^=\s]+)?===\s*$/;

/** Splits a submitted vector into markers, sections and their `KEY::value` lines. Never throws. */
export function parseVector(text: string): ParsedVector {
  const result: ParsedVector = { open: null, openText: null, close: null, sections: [], outside: [] };
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  let current: VectorSection | null = null;
  let closed = false;
  for (let i = 0; i < lines.length; i++) {
    let raw = lines[i]!;
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    if (!closed && raw.startsWith('===')) {
      if (trimmed === VECTOR_CLOSE) {
        result.close = line;
        closed = true;
        current = null;
        continue;
      }
      if (result.open === null && result.sections.length === 0 && MARKER.test(trimmed)) {
        if (trimmed === VECTOR_OPEN) result.open = line;
        else result.openText = trimmed;
        continue;
      }
    }
    if (closed) {
      result.outside.push({ text: raw, line });
      continue;
    }
    const header = HEADER.exec(raw);
    if (header !== null) {
      current = { name: header[1]!.toUpperCase(), line, entries: [], stray: [] };
      result.sections.push(current);
      continue;
    }
    if (trimmed.startsWith('//')) continue;
    if (current === null) {
      result.outside.push({ text: raw, line });
      continue;
    }
    const entry = ENTRY.exec(raw);
    if (entry !== null) current.entries.push({ key: entry[1]!, value: entry[2]!.trim(), line });
    else current.stray.push({ text: raw, line });
  }
  return result;
}

/** The first entry with `key` in a section, or undefined. */
export function entry(section: VectorSection | undefined, key: string): VectorLine | undefined {
  return section?.entries.find((e) => e.key === key);
}
