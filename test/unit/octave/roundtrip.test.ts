import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { octaveDocument, parseOctave, toObject, tryParseOctave, writeOctave } from '../../../src/octave/index.js';
import { countEntries, document, envelopeName, key, scalar } from './arbitraries.js';
import { runs } from '../../helpers/property.js';

describe('OCTAVE round trip (properties)', () => {
  it('parse(write(doc)) deep-equals doc', () => {
    fc.assert(
      fc.property(document, (doc) => {
        expect(parseOctave(writeOctave(doc))).toEqual(doc);
      }),
      runs(500),
    );
  });

  it('write is canonical: write(parse(write(doc))) === write(doc)', () => {
    fc.assert(
      fc.property(document, (doc) => {
        const text = writeOctave(doc);
        expect(writeOctave(parseOctave(text))).toBe(text);
      }),
      runs(500),
    );
  });

  it('writes exactly one line per entry plus the two envelope lines (no value can add a line)', () => {
    fc.assert(
      fc.property(document, (doc) => {
        const lines = writeOctave(doc).split('\n');
        expect(lines.pop()).toBe('');
        expect(lines).toHaveLength(countEntries(doc.entries) + 2);
      }),
      runs(500),
    );
  });

  it('octaveDocument(name, toObject(doc)) deep-equals doc', () => {
    fc.assert(
      fc.property(document, (doc) => {
        expect(octaveDocument(doc.name, toObject(doc))).toEqual(doc);
      }),
      runs(500),
    );
  });

  it('a scalar with a control character is always refused, naming its key', () => {
    const control = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(
        envelopeName,
        key,
        scalar,
        fc.oneof(control, fc.constant('\u007F')),
        scalar,
        (name, k, before, bad, after) => {
          const doc = { name, entries: [{ key: k, value: `${before}${bad}${after}` }] };
          expect(() => writeOctave(doc)).toThrow(`the value of "${k}" contains control character`);
        },
      ),
      runs(500),
    );
  });

  it('tryParseOctave never throws, whatever the text', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc
        .array(
          fc.string({
            unit: fc.constantFrom('=', 'E', 'N', 'D', 'A', ':', ' ', '"', '[', ']', ',', '\\', '/', '\n'),
            maxLength: 30,
          }),
          { maxLength: 8 },
        )
        .map((lines) => ['===X===', ...lines, '===END==='].join('\n')),
    );
    fc.assert(
      fc.property(text, (t) => {
        const result = tryParseOctave(t);
        if (!result.ok) expect(result.errors.length).toBeGreaterThan(0);
      }),
      runs(500),
    );
  });
});
