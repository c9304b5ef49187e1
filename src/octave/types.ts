/**
 * The OCTAVE data model: plain, ordered data (no classes), so a parsed document deep-equals the document
 * that was written, and callers can build documents as literals.
 *
 * Every value is text. Numbers and booleans are not typed: `VERSION::1.0` is the string `"1.0"` and
 * `ENABLED::true` the string `"true"`; callers convert when they need to.
 */

/** A value: a scalar string, or a (possibly nested, possibly empty) list of values. */
export type OctaveValue = string | OctaveValue[];

/** `KEY::value` */
export interface OctaveAssignment {
  key: string;
  value: OctaveValue;
}

/** `KEY:` followed by its children, each indented by two more spaces. A block may be empty. */
export interface OctaveBlock {
  key: string;
  children: OctaveEntry[];
}

/** One line of a document body (a block also owns the lines below it). Keys are unique per level. */
export type OctaveEntry = OctaveAssignment | OctaveBlock;

/** One `===NAME===` … `===END===` envelope and its entries, in order. */
export interface OctaveDocument {
  name: string;
  entries: OctaveEntry[];
}

/** A syntax problem: the 1-based line it is on and what was expected there (without a "line N:" prefix). */
export interface OctaveSyntaxError {
  line: number;
  message: string;
}

/** The result of {@link tryParseOctave}: the document, or every problem found (sorted by line). */
export type OctaveParseResult = { ok: true; doc: OctaveDocument } | { ok: false; errors: OctaveSyntaxError[] };

/** True when the entry is a block (`KEY:` with children) rather than an assignment (`KEY::value`). */
export function isBlock(entry: OctaveEntry): entry is OctaveBlock {
  return 'children' in entry;
}

/** `line 5: expected …` — the form used in messages. */
export function formatOctaveError(error: OctaveSyntaxError): string {
  return `line ${error.line}: ${error.message}`;
}
