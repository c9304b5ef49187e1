import { describe, expect, it } from 'vitest';
import { HestaiError } from '../../../src/errors.js';
import {
  octaveDocument,
  parseOctave,
  writeOctave,
  type OctaveDocument,
  type OctaveValue,
} from '../../../src/octave/index.js';

/** The line the writer emits for `V` holding `value`. */
function line(value: OctaveValue): string {
  return writeOctave({ name: 'T', entries: [{ key: 'V', value }] }).split('\n')[1] ?? '';
}

function thrown(fn: () => unknown): HestaiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HestaiError) return error;
    throw error;
  }
  throw new Error('expected a HestaiError');
}

describe('writeOctave: canonical text', () => {
  it('writes the envelope, two-space indentation, compact lists and a final newline', () => {
    const doc: OctaveDocument = {
      name: 'CURRENT_FOCUS',
      entries: [
        {
          key: 'META',
          children: [
            { key: 'TYPE', value: 'FAST_LAYER' },
            { key: 'VERSION', value: '1.0' },
          ],
        },
        { key: 'ROLE', value: 'implementation-lead' },
        { key: 'ITEMS', value: ['a', 'b', 'c d', []] },
        {
          key: 'BLOCK',
          children: [
            { key: 'NESTED', children: [{ key: 'DEEP', value: [['x']] }] },
            { key: 'EMPTY', children: [] },
          ],
        },
      ],
    };
    expect(writeOctave(doc)).toBe(
      [
        '===CURRENT_FOCUS===',
        'META:',
        '  TYPE::FAST_LAYER',
        '  VERSION::1.0',
        'ROLE::implementation-lead',
        'ITEMS::[a,b,"c d",[]]',
        'BLOCK:',
        '  NESTED:',
        '    DEEP::[[x]]',
        '  EMPTY:',
        '===END===',
        '',
      ].join('\n'),
    );
  });

  it('writes an empty document', () => {
    expect(writeOctave({ name: 'EMPTY', entries: [] })).toBe('===EMPTY===\n===END===\n');
  });

  it('normalizes a parsed document: comments dropped, needless quotes and spaces removed', () => {
    const text = '===X===\n// note\nA::"plain"\nB::[ a , "b" ]  // list\n===END===\n';
    expect(writeOctave(parseOctave(text))).toBe('===X===\nA::plain\nB::[a,b]\n===END===\n');
  });
});

describe('writeOctave: quoting', () => {
  it('leaves ordinary text bare, including operators, colons, backslashes and "//" inside a word', () => {
    expect(line('implement clock_in')).toBe('V::implement clock_in');
    expect(line('A⇌B→C⊕D')).toBe('V::A⇌B→C⊕D');
    expect(line('x::y')).toBe('V::x::y');
    expect(line('C:\\dir')).toBe('V::C:\\dir');
    expect(line('http://h//p')).toBe('V::http://h//p');
  });

  it.each([
    ['empty', '', '""'],
    ['leading space', ' a', '" a"'],
    ['trailing space', 'a ', '"a "'],
    ['a comma', 'a,b', '"a,b"'],
    ['an opening bracket', '[a]', '"[a]"'],
    ['a closing bracket', 'a]', '"a]"'],
    ['a double quote', 'say "hi"', '"say \\"hi\\""'],
    ['a leading //', '//x', '"//x"'],
    ['a trailing-comment lookalike', 'a // b', '"a // b"'],
    ['a backslash with a quote', '\\"', '"\\\\\\""'],
  ])('quotes a scalar with %s', (_name, value, written) => {
    expect(line(value)).toBe(`V::${written}`);
    expect(parseOctave(writeOctave({ name: 'T', entries: [{ key: 'V', value }] })).entries).toEqual([
      { key: 'V', value },
    ]);
  });

  it('quotes list items that contain spaces or list syntax', () => {
    expect(line(['a', 'b c', '', 'd,e', ' ', '"'])).toBe('V::[a,"b c","","d,e"," ","\\""]');
  });
});

describe('writeOctave: refusals', () => {
  it('refuses a newline in a value, naming the key, so no key can be injected', () => {
    const doc = octaveDocument('CURRENT_FOCUS', { ROLE: 'lead', FOCUS: 'x\nROLE::admin' });
    const error = thrown(() => writeOctave(doc));
    expect(error.exitCode).toBe(2);
    expect(error.code).toBe('OCTAVE_UNWRITABLE');
    expect(error.message).toBe(
      'cannot write OCTAVE: the value of "FOCUS" contains control character U+000A at index 1 (values must be single-line text)',
    );
  });

  it.each([
    ['a tab', 'a\tb', 'control character U+0009'],
    ['a carriage return', 'a\rROLE::admin', 'control character U+000D'],
    ['NUL', '\u0000', 'control character U+0000'],
    ['DEL', 'a\u007F', 'control character U+007F'],
    ['NEL', 'a\u0085b', 'control character U+0085'],
    ['a line separator', 'a\u2028b', 'line separator U+2028'],
    ['a lone surrogate', 'a\uD800', 'lone surrogate U+D800'],
  ])('refuses %s', (_name, value, what) => {
    expect(() => line(value)).toThrow(`the value of "V" contains ${what}`);
  });

  it('names the dotted key path, also for list items in nested blocks', () => {
    const doc = octaveDocument('X', { BLOCK: { INNER: { ITEMS: ['ok', ['deep\nx']] } } });
    expect(() => writeOctave(doc)).toThrow('the value of "BLOCK.INNER.ITEMS" contains control character U+000A');
  });

  it('refuses a value decoded from a "\\n" escape (the writer never emits escapes but \\" and \\\\)', () => {
    const doc = parseOctave('===X===\nFOCUS::"a\\nb"\n===END===');
    expect(() => writeOctave(doc)).toThrow('the value of "FOCUS" contains control character U+000A');
  });

  it('refuses invalid and duplicate keys and invalid envelope names', () => {
    expect(() => writeOctave({ name: 'X', entries: [{ key: 'A B', value: 'x' }] })).toThrow('invalid key "A B"');
    expect(() => writeOctave({ name: 'X', entries: [{ key: 'A\nB', value: 'x' }] })).toThrow('invalid key "A\\nB"');
    expect(() =>
      writeOctave({
        name: 'X',
        entries: [
          {
            key: 'B',
            children: [
              { key: 'A', value: '1' },
              { key: 'A', children: [] },
            ],
          },
        ],
      }),
    ).toThrow('duplicate key "B.A"');
    expect(() => writeOctave({ name: 'END', entries: [] })).toThrow('invalid envelope name "END"');
    expect(() => writeOctave({ name: 'A===\nB', entries: [] })).toThrow('invalid envelope name');
    expect(() => writeOctave({ name: '', entries: [] })).toThrow('invalid envelope name ""');
  });

  it('refuses lists nested deeper than the parser reads', () => {
    let deep: OctaveValue = [];
    for (let i = 1; i < 32; i += 1) deep = [deep];
    expect(parseOctave(writeOctave({ name: 'X', entries: [{ key: 'V', value: deep }] })).entries).toEqual([
      { key: 'V', value: deep },
    ]);
    expect(() => writeOctave({ name: 'X', entries: [{ key: 'V', value: [deep] }] })).toThrow(
      'nests lists deeper than 32 levels',
    );
  });

  it('refuses a non-string scalar from untyped callers', () => {
    const doc = { name: 'X', entries: [{ key: 'N', value: 42 }] } as unknown as OctaveDocument;
    expect(() => writeOctave(doc)).toThrow('the value of "N" is a number, expected a string or a list');
  });
});
