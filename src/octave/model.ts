/**
 * Conveniences over the document model: a plain-object view (`toObject`, `getValue`) and a
 * builder from a plain object (`octaveDocument`), so callers can read and write FAST-layer files without
 * walking entries. `octaveDocument(doc.name, toObject(doc))` equals `doc`.
 */
import { isBlock, type OctaveDocument, type OctaveEntry, type OctaveValue } from './types.js';

/** A plain-object view of entries: assignments become strings or arrays, blocks nested objects. */
export interface OctaveObject {
  [key: string]: OctaveValue | OctaveObject;
}

/** A scalar accepted by the builder; numbers and booleans are written with `String()`. */
export type OctaveScalarInput = string | number | boolean;
/** A list accepted by the builder. */
export type OctaveListInput = readonly (OctaveScalarInput | OctaveListInput)[];
/** A plain object accepted by the builder: `undefined` members are left out. */
export interface OctaveObjectInput {
  readonly [key: string]: OctaveScalarInput | OctaveListInput | OctaveObjectInput | undefined;
}

/** Sets an own property, even for keys such as `__proto__`. */
function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isEntryList(source: OctaveDocument | readonly OctaveEntry[]): source is readonly OctaveEntry[] {
  return Array.isArray(source);
}

/** The document (or a block's children) as a plain nested object, in entry order. */
export function toObject(source: OctaveDocument | readonly OctaveEntry[]): OctaveObject {
  const entries = isEntryList(source) ? source : source.entries;
  const out: OctaveObject = {};
  for (const entry of entries) define(out, entry.key, isBlock(entry) ? toObject(entry.children) : entry.value);
  return out;
}

/**
 * The value at a dotted key path (keys never contain `.`), e.g. `getValue(doc, 'META.TYPE')`; undefined
 * when a key is missing or the path names a block.
 */
export function getValue(doc: OctaveDocument, path: string): OctaveValue | undefined {
  let entries: readonly OctaveEntry[] = doc.entries;
  const keys = path.split('.');
  for (const [index, key] of keys.entries()) {
    const entry = entries.find((e) => e.key === key);
    if (entry === undefined) return undefined;
    const last = index === keys.length - 1;
    if (isBlock(entry)) {
      if (last) return undefined;
      entries = entry.children;
    } else {
      return last ? entry.value : undefined;
    }
  }
  return undefined;
}

function toValue(input: OctaveScalarInput | OctaveListInput, path: string): OctaveValue {
  if (Array.isArray(input)) return input.map((item: OctaveScalarInput | OctaveListInput) => toValue(item, path));
  if (typeof input === 'string') return input;
  if (typeof input === 'number' || typeof input === 'boolean') return String(input);
  throw new TypeError(
    `octaveDocument: the value of "${path}" is a ${input === null ? 'null' : typeof input}, expected a string, number, boolean, array or object`,
  );
}

function toEntries(input: OctaveObjectInput, parent: string | null): OctaveEntry[] {
  const entries: OctaveEntry[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const path = parent === null ? key : `${parent}.${key}`;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      entries.push({ key, children: toEntries(value as OctaveObjectInput, path) });
    } else {
      entries.push({ key, value: toValue(value as OctaveScalarInput | OctaveListInput, path) });
    }
  }
  return entries;
}

/**
 * Builds a document from a plain object: strings, numbers and booleans become scalars, arrays lists,
 * nested objects blocks, `undefined` members are skipped; key order is kept. Keys and values are
 * checked when the document is written.
 *
 * @example octaveDocument('CURRENT_FOCUS', { META: { TYPE: 'FAST_LAYER' }, ROLE: 'implementation-lead' })
 */
export function octaveDocument(name: string, input: OctaveObjectInput): OctaveDocument {
  return { name, entries: toEntries(input, null) };
}
