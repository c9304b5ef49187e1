import { describe, expect, it } from 'vitest';
import { normalizeArchetypeJoin, normalizeOperators, OPERATORS, parseOctave } from '../../../src/octave/index.js';

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

describe('normalizeArchetypeJoin', () => {
  it('joins archetype names with ⊕', () => {
    expect(normalizeArchetypeJoin('ATHENA+HERMES')).toBe('ATHENA⊕HERMES');
    expect(normalizeArchetypeJoin(' ATHENA + HERMES+APOLLO ')).toBe('ATHENA⊕HERMES⊕APOLLO');
    expect(normalizeArchetypeJoin('ATHENA⊕HERMES + ARES')).toBe('ATHENA⊕HERMES⊕ARES');
  });

  it('leaves anything that is not a join of names unchanged', () => {
    for (const text of ['ATHENA', 'C++', '1+1', 'a + b c', '+ATHENA', 'ATHENA+', '']) {
      expect(normalizeArchetypeJoin(text)).toBe(text);
    }
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
