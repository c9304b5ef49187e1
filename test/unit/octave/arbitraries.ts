/** fast-check generators of OCTAVE documents (valid by construction), for the property tests. */
import fc from 'fast-check';
import type { OctaveDocument, OctaveEntry, OctaveValue } from '../../../src/octave/index.js';

/** Characters the writer refuses, defined here independently of the implementation. */
export const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

/** Characters that exercise quoting, comments and escapes. */
const TRICKY = fc.constantFrom(
  ' ',
  '/',
  ',',
  '[',
  ']',
  '"',
  '\\',
  ':',
  '=',
  'a',
  'Z',
  '0',
  '⇌',
  '→',
  '⊕',
  'é',
  '😀',
  '\u00A0',
);

/** Any scalar the writer accepts: arbitrary code points without control characters, or tricky text. */
export const scalar: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !CONTROL.test(s)),
  fc.string({ unit: TRICKY, maxLength: 12 }),
  fc.constantFrom('', ' ', '//', 'a // b', 'http://x', '""', '[]', 'true', '1.0', '===END==='),
);

export const key: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,7}$/);

export const envelopeName: fc.Arbitrary<string> = fc
  .stringMatching(/^[A-Za-z0-9_:.-]{1,12}$/)
  .filter((name) => name !== 'END');

const { value } = fc.letrec<{ value: OctaveValue }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 4 })),
}));
export { value };

const { entries } = fc.letrec<{ entries: OctaveEntry[]; entry: OctaveEntry }>((tie) => ({
  entries: fc
    .uniqueArray(fc.tuple(key, tie('entry')), { selector: ([k]) => k, maxLength: 5 })
    .map((pairs) => pairs.map(([k, e]) => ({ ...e, key: k }))),
  entry: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    value.map((v): OctaveEntry => ({ key: '', value: v })),
    tie('entries').map((children): OctaveEntry => ({ key: '', children })),
  ),
}));

/** Any document the writer accepts. */
export const document: fc.Arbitrary<OctaveDocument> = fc.record({ name: envelopeName, entries });

/** How many entries (at every level) a document holds. */
export function countEntries(list: readonly OctaveEntry[]): number {
  return list.reduce((n, e) => n + 1 + ('children' in e ? countEntries(e.children) : 0), 0);
}
