/**
 * The OCTAVE writer: canonical text that {@link parseOctave} reads back to an equal document.
 *
 * Canonical form: the envelope lines, one entry per line, two-space indentation per block level, lists
 * without spaces (`[a,b,"c d"]`), scalars bare unless they need quoting (see `needsQuoting`), a final
 * newline. Comments are not kept.
 *
 * The writer refuses, with a {@link HestaiError} (exit 2, code `OCTAVE_UNWRITABLE`) naming the key:
 * control characters (tab, CR, LF and the rest; see `findForbiddenChar`) in any scalar — even though a
 * quoted string may contain a `\n` escape on parse — so a newline in, say, a focus can never inject a
 * key; invalid or duplicate keys; an invalid envelope name; lists nested too deep.
 */
import { usageError, type HestaiError } from '../errors.js';
import {
  END_NAME,
  findForbiddenChar,
  isValidEnvelopeName,
  isValidKey,
  MAX_LIST_DEPTH,
  needsQuoting,
  quote,
} from './syntax.js';
import { isBlock, type OctaveDocument, type OctaveEntry, type OctaveValue } from './types.js';

function unwritable(message: string): HestaiError {
  return usageError(`cannot write OCTAVE: ${message}`, {
    code: 'OCTAVE_UNWRITABLE',
    remedy: 'Values must be single-line text without control characters; keys start with a letter or "_".',
  });
}

/** Writes `doc` as canonical OCTAVE text. Throws a HestaiError naming the key when it cannot. */
export function writeOctave(doc: OctaveDocument): string {
  if (!isValidEnvelopeName(doc.name)) {
    throw unwritable(
      `invalid envelope name ${JSON.stringify(doc.name)} (letters, digits, "_", ":", ".", "-"; not "${END_NAME}")`,
    );
  }
  const lines = [`===${doc.name}===`];
  writeEntries(doc.entries, '', null, lines);
  lines.push(`===${END_NAME}===`);
  return `${lines.join('\n')}\n`;
}

function writeEntries(entries: readonly OctaveEntry[], indent: string, parent: string | null, out: string[]): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    const path = parent === null ? entry.key : `${parent}.${entry.key}`;
    if (!isValidKey(entry.key)) {
      throw unwritable(
        `invalid key ${JSON.stringify(path)} (keys start with a letter or "_", then letters, digits, "_" or "-")`,
      );
    }
    if (seen.has(entry.key)) throw unwritable(`duplicate key "${path}"`);
    seen.add(entry.key);
    if (isBlock(entry)) {
      out.push(`${indent}${entry.key}:`);
      writeEntries(entry.children, `${indent}  `, path, out);
    } else {
      out.push(`${indent}${entry.key}::${formatValue(entry.value, path, 0)}`);
    }
  }
}

function formatValue(value: OctaveValue, path: string, depth: number): string {
  if (Array.isArray(value)) {
    if (depth >= MAX_LIST_DEPTH)
      throw unwritable(`the value of "${path}" nests lists deeper than ${MAX_LIST_DEPTH} levels`);
    return `[${value.map((item) => formatValue(item, path, depth + 1)).join(',')}]`;
  }
  if (typeof value !== 'string') {
    throw unwritable(`the value of "${path}" is a ${typeof value}, expected a string or a list`);
  }
  const forbidden = findForbiddenChar(value);
  if (forbidden !== null) {
    throw unwritable(
      `the value of "${path}" contains ${forbidden.kind} ${forbidden.name} at index ${forbidden.index} (values must be single-line text)`,
    );
  }
  return needsQuoting(value, depth > 0) ? quote(value) : value;
}
