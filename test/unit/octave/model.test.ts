import { describe, expect, it } from 'vitest';
import { getValue, octaveDocument, parseOctave, toObject, writeOctave } from '../../../src/octave/index.js';

const doc = parseOctave(
  [
    '===F===',
    'META:',
    '  TYPE::FAST_LAYER',
    'ROLE::lead',
    'ITEMS::[a,[b]]',
    'BLOCK:',
    '  INNER:',
    '    X::1',
    '  EMPTY:',
    '===END===',
  ].join('\n'),
);

describe('toObject', () => {
  it('turns assignments into strings or arrays and blocks into nested objects, in order', () => {
    const object = toObject(doc);
    expect(object).toEqual({
      META: { TYPE: 'FAST_LAYER' },
      ROLE: 'lead',
      ITEMS: ['a', ['b']],
      BLOCK: { INNER: { X: '1' }, EMPTY: {} },
    });
    expect(Object.keys(object)).toEqual(['META', 'ROLE', 'ITEMS', 'BLOCK']);
  });

  it('accepts a list of entries (a block’s children)', () => {
    expect(toObject([{ key: 'A', value: 'x' }])).toEqual({ A: 'x' });
  });

  it('keeps a key named __proto__ as an own property without touching the prototype', () => {
    const object = toObject(parseOctave('===X===\n__proto__::x\n===END==='));
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.keys(object)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(object, '__proto__')?.value).toBe('x');
  });
});

describe('getValue', () => {
  it('reads values by dotted path; blocks and missing keys are undefined', () => {
    expect(getValue(doc, 'ROLE')).toBe('lead');
    expect(getValue(doc, 'META.TYPE')).toBe('FAST_LAYER');
    expect(getValue(doc, 'BLOCK.INNER.X')).toBe('1');
    expect(getValue(doc, 'ITEMS')).toEqual(['a', ['b']]);
    expect(getValue(doc, 'BLOCK')).toBeUndefined();
    expect(getValue(doc, 'BLOCK.MISSING')).toBeUndefined();
    expect(getValue(doc, 'ROLE.X')).toBeUndefined();
    expect(getValue(doc, 'NOPE')).toBeUndefined();
  });
});

describe('octaveDocument', () => {
  it('builds a document from a plain object: scalars, lists, blocks, in key order', () => {
    const built = octaveDocument('CURRENT_FOCUS', {
      META: { TYPE: 'FAST_LAYER', VERSION: '1.0' },
      SESSION: '3f1c',
      COUNT: 3,
      ACTIVE: true,
      ITEMS: ['a', 1, false, ['b']],
      SKIPPED: undefined,
      EMPTY: {},
    });
    expect(built).toEqual({
      name: 'CURRENT_FOCUS',
      entries: [
        {
          key: 'META',
          children: [
            { key: 'TYPE', value: 'FAST_LAYER' },
            { key: 'VERSION', value: '1.0' },
          ],
        },
        { key: 'SESSION', value: '3f1c' },
        { key: 'COUNT', value: '3' },
        { key: 'ACTIVE', value: 'true' },
        { key: 'ITEMS', value: ['a', '1', 'false', ['b']] },
        { key: 'EMPTY', children: [] },
      ],
    });
    expect(writeOctave(built)).toBe(
      '===CURRENT_FOCUS===\nMETA:\n  TYPE::FAST_LAYER\n  VERSION::1.0\nSESSION::3f1c\nCOUNT::3\nACTIVE::true\nITEMS::[a,1,false,[b]]\nEMPTY:\n===END===\n',
    );
  });

  it('is the inverse of toObject', () => {
    expect(octaveDocument(doc.name, toObject(doc))).toEqual(doc);
  });

  it('rejects null and other non-data values from untyped callers', () => {
    expect(() => octaveDocument('X', { A: null } as never)).toThrow(TypeError);
    expect(() => octaveDocument('X', { A: [() => 1] } as never)).toThrow('the value of "A" is a function');
  });
});
