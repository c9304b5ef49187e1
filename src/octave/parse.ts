/**
 * The OCTAVE parser (the subset this project reads and writes).
 *
 * Structure: blank lines may surround one envelope `===NAME===` … `===END===`; anything else outside it is
 * an error. Inside, each non-blank line is a comment (`//` as its first non-space text, at any
 * indentation), an assignment `KEY::value` (see `values.ts` for values) or a block opener `KEY:` whose
 * children are indented by exactly two more spaces. Keys are unique per level. `\r\n` line ends and a
 * leading byte-order mark are accepted. Raw control characters (tabs included) are refused anywhere.
 *
 * Problems are collected (with their 1-based line) rather than stopping at the first; after a bad line
 * the lines indented below it are skipped, so one mistake is reported once.
 */
import { usageError, type HestaiError } from '../errors.js';
import { END_NAME, findForbiddenChar, isValidKey } from './syntax.js';
import {
  formatOctaveError,
  type OctaveDocument,
  type OctaveEntry,
  type OctaveParseResult,
  type OctaveSyntaxError,
} from './types.js';
import { parseValueText } from './values.js';

const ENVELOPE = /^===([A-Za-z0-9_:.-]+)=== *$/;
const ASSIGNMENT = /^([^\s:]+)::(.*)$/;
const BLOCK_OPENER = /^([^\s:]+):(?: +\/\/.*| *)$/;
const SINGLE_COLON = /^([A-Za-z_][A-Za-z0-9_-]*):[^:]/;

const KEY_RULE = 'keys start with a letter or "_", then letters, digits, "_" or "-"';

/** Shows a line in a message: JSON-quoted, long lines cut. */
function show(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

interface Frame {
  entries: OctaveEntry[];
  /** Key → line it was first defined on. */
  keys: Map<string, number>;
}

/** Parses the lines between the envelope markers into `entries`, reporting problems to `errors`. */
class BodyParser {
  private readonly stack: Frame[];
  /** After a bad line, lines indented deeper than this are skipped. */
  private skipDeeperThan: number | null = null;

  constructor(
    entries: OctaveEntry[],
    private readonly errors: OctaveSyntaxError[],
  ) {
    this.stack = [{ entries, keys: new Map() }];
  }

  /** Reads one non-blank body line. */
  line(text: string, line: number): void {
    const indent = /^ */.exec(text)?.[0].length ?? 0;
    const content = text.slice(indent);
    const rawProblem = controlCharProblem(text);
    if (rawProblem === null && content.startsWith('//')) return;
    if (this.skipDeeperThan !== null) {
      if (indent > this.skipDeeperThan) return;
      this.skipDeeperThan = null;
    }
    const problem = rawProblem ?? this.entry(text, content, indent, line);
    if (problem !== null) {
      this.errors.push({ line, message: problem });
      this.skipDeeperThan = indent;
    }
  }

  /** Adds the entry on this line; returns what is wrong with it instead, if anything. */
  private entry(text: string, content: string, indent: number, line: number): string | null {
    const assignment = ASSIGNMENT.exec(content);
    const opener = assignment === null ? BLOCK_OPENER.exec(content) : null;
    const key = assignment?.[1] ?? opener?.[1];
    if (key === undefined) return this.unrecognized(text, content, indent);
    if (!isValidKey(key)) return `invalid key ${show(key)} (${KEY_RULE})`;

    if (indent % 2 !== 0) {
      return `indentation of ${indent} spaces is not a multiple of two (children are indented by exactly two more spaces than their "KEY:" line), got ${show(text)}`;
    }
    const depth = indent / 2;
    const deepest = this.stack.length - 1;
    if (depth > deepest) {
      return `indentation of ${indent} spaces is too deep here (expected at most ${deepest * 2}: children are indented by exactly two more spaces than their "KEY:" line), got ${show(text)}`;
    }
    this.stack.length = depth + 1;
    const frame = this.stack[depth];
    if (frame === undefined) throw new Error('unreachable: frame for a checked depth');
    const first = frame.keys.get(key);
    if (first !== undefined) return `duplicate key "${key}" (first defined on line ${first})`;

    if (assignment !== null) {
      const valueText = assignment[2] ?? '';
      const parsed = parseValueText(valueText, indent + key.length + 3);
      if (!parsed.ok) return `in the value of "${key}": ${parsed.message}`;
      frame.entries.push({ key, value: parsed.value });
    } else {
      const children: OctaveEntry[] = [];
      frame.entries.push({ key, children });
      this.stack.push({ entries: children, keys: new Map() });
    }
    frame.keys.set(key, line);
    return null;
  }

  private unrecognized(text: string, content: string, indent: number): string {
    const single = SINGLE_COLON.exec(content);
    if (single !== null) {
      return `expected "::" after key "${single[1] ?? ''}" (write "KEY::value", or "KEY:" alone to open a block), got ${show(text)}`;
    }
    const envelope = indent === 0 ? ENVELOPE.exec(content) : null;
    if (envelope !== null) {
      return `unexpected envelope ${show(content.trimEnd())}: expected "===${END_NAME}===" to close the open envelope first (one envelope per text)`;
    }
    return `expected "KEY::value" or "KEY:" with two-space indentation, got ${show(text)}`;
  }
}

/** Splits text into lines: `\n` or `\r\n`, a leading byte-order mark dropped. */
function splitLines(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

const isBlank = (line: string): boolean => /^ *$/.test(line);

/** What is wrong when a line holds a raw control character, or null. */
function controlCharProblem(text: string): string | null {
  const forbidden = findForbiddenChar(text);
  if (forbidden === null) return null;
  return `raw ${forbidden.kind} ${forbidden.name} at column ${forbidden.index + 1} (tabs and other control characters are not allowed: indent with spaces, or use an escape such as "\\t" inside a quoted string)`;
}

/**
 * Parses one OCTAVE document without throwing: the document, or every problem found with its 1-based
 * line number.
 */
export function tryParseOctave(text: string): OctaveParseResult {
  const errors: OctaveSyntaxError[] = [];
  const entries: OctaveEntry[] = [];
  const body = new BodyParser(entries, errors);
  let phase: 'before' | 'body' | 'after' = 'before';
  let name = '';
  let openLine = 0;

  for (const [index, raw] of splitLines(text).entries()) {
    const line = index + 1;
    if (isBlank(raw)) continue;
    if (phase === 'body') {
      if (ENVELOPE.exec(raw)?.[1] === END_NAME) phase = 'after';
      else body.line(raw, line);
      continue;
    }
    const problem =
      controlCharProblem(raw) ??
      (phase === 'after'
        ? `unexpected content after "===${END_NAME}===": ${show(raw)} (only blank lines may follow; one envelope per text)`
        : null);
    const opening = problem === null ? ENVELOPE.exec(raw)?.[1] : undefined;
    if (opening === undefined || opening === END_NAME) {
      errors.push({
        line,
        message: problem ?? `expected an opening envelope "===NAME===" (e.g. "===CURRENT_FOCUS==="), got ${show(raw)}`,
      });
      break;
    }
    phase = 'body';
    name = opening;
    openLine = line;
  }

  if (phase === 'before' && errors.length === 0) {
    errors.push({ line: 1, message: 'expected an opening envelope "===NAME===", got an empty text' });
  } else if (phase === 'body') {
    errors.push({
      line: openLine,
      message: `envelope "===${name}===" is never closed: expected "===${END_NAME}===" before the end of the text`,
    });
  }
  return errors.length > 0
    ? { ok: false, errors: errors.sort((a, b) => a.line - b.line) }
    : { ok: true, doc: { name, entries } };
}

/** Every syntax problem of `text` (empty when it is a valid OCTAVE document). */
export function validateOctave(text: string): OctaveSyntaxError[] {
  const result = tryParseOctave(text);
  return result.ok ? [] : result.errors;
}

export interface ParseOctaveOptions {
  /** The file the text came from, named in the error. */
  file?: string;
}

/**
 * Parses one OCTAVE document. Throws a {@link HestaiError} (exit 2, code `OCTAVE_INVALID`) whose message
 * names the file and the first problem's line; `details` lists every problem as `file:line: message`.
 */
export function parseOctave(text: string, options: ParseOctaveOptions = {}): OctaveDocument {
  const result = tryParseOctave(text);
  if (result.ok) return result.doc;
  throw invalidOctave(result.errors, options.file);
}

function invalidOctave(errors: readonly OctaveSyntaxError[], file: string | undefined): HestaiError {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  const where = file ?? '<text>';
  return usageError(
    `invalid OCTAVE in ${where}: ${first === undefined ? 'unknown problem' : formatOctaveError(first)}${more}`,
    {
      file,
      details: errors.map((e) => `${where}:${e.line}: ${e.message}`),
      code: 'OCTAVE_INVALID',
      remedy:
        'Fix the lines listed: the text is "===NAME===", then "KEY::value" or "KEY:" lines (children indented two more spaces), then "===END===".',
    },
  );
}
