import { describe, expect, it } from 'vitest';
import { normalizeOperators, OPERATORS, parseOctave } from '../../../src/octave/index.js';

describe('normalizeOperators', () => {
  it('converts <-> to ⇌ and -> to →', () => {
    expect(normalizeOperators('A<->B->C')).toBe('A⇌B→C');
    expect(normalizeOperators('speed <-> quality -> ship')).toBe('speed ⇌ quality → ship');
  });

  it('leaves + and text without aliases alone, and is idempotent', () => {
    expect(normalizeOperators('a + b, c-d, x > y, <-')).toBe('a + b, c-d, x > y, <-');
    expect(normalizeOperators(normalizeOperators('A<->B->C'))).toBe('A⇌B→C');
    expect(normalizeOperators('A⇌B→C')).toBe('A⇌B→C');
  });
});

describe('operators in values', () => {
  it('exposes the operator characters', () => {
    expect(OPERATORS).toEqual({ synthesis: '⊕', tension: '⇌', flow: '→' });
  });

  it('are kept as written by the parser, so callers normalize where they mean an operator', () => {
    const doc = parseOctave('===X===\nT::A<->B->C\n===END===');
    const [entry] = doc.entries;
    expect(entry).toEqual({ key: 'T', value: 'A<->B->C' });
    expect(normalizeOperators('A<->B->C')).toBe('A⇌B→C');
  });
});
