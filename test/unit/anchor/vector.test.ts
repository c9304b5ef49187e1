import { describe, expect, it } from 'vitest';
import { parseVector } from '../../../src/anchor/vector.js';
import { VECTOR } from './fixtures.js';

describe('parseVector', () => {
  it('finds the markers, the four sections and their KEY::value lines with line numbers', () => {
    const parsed = parseVector(VECTOR);
    expect(parsed.open).toBe(1);
    expect(parsed.close).toBe(VECTOR.split('\n').length);
    expect(parsed.sections.map((s) => s.name)).toEqual(['BIND', 'ARM', 'TENSION', 'COMMIT']);
    expect(parsed.sections[0]!.entries[0]).toEqual({ key: 'ROLE', value: 'implementation-lead', line: 3 });
    expect(parsed.sections[0]!.entries[1]).toMatchObject({ key: 'COGNITION', value: 'LOGOS::ATHENA+HEPHAESTUS' });
    expect(parsed.outside).toEqual([]);
  });

  it('counts a header only at column 0: an indented "## COMMIT" stays a stray line of TENSION', () => {
    const parsed = parseVector('## TENSION\nL1::[A]⇌CTX:x[y]→TRIGGER[z]\n  ## COMMIT\nARTIFACT::a.ts\n');
    expect(parsed.sections.map((s) => s.name)).toEqual(['TENSION']);
    expect(parsed.sections[0]!.stray).toEqual([{ text: '  ## COMMIT', line: 3 }]);
    expect(parsed.sections[0]!.entries.map((e) => e.key)).toEqual(['L1', 'ARTIFACT']);
  });

  it('accepts CRLF, a byte-order mark, blank lines and // comments; records lines outside sections', () => {
    const parsed = parseVector(
      '\uFEFF===RAPH_VECTOR::v4.0===\r\nhello\r\n\r\n## BIND\r\n// a comment\r\nROLE::x\r\n===END_RAPH_VECTOR===\r\nafter\r\n',
    );
    expect(parsed.open).toBe(1);
    expect(parsed.sections[0]!.entries).toEqual([{ key: 'ROLE', value: 'x', line: 6 }]);
    expect(parsed.outside).toEqual([
      { text: 'hello', line: 2 },
      { text: 'after', line: 8 },
    ]);
  });

  it('records a different opening marker instead of accepting it', () => {
    const parsed = parseVector('===ODYSSEAN_ANCHOR===\n## BIND\nROLE::x\n===END_RAPH_VECTOR===');
    expect(parsed.open).toBeNull();
    expect(parsed.openText).toBe('===ODYSSEAN_ANCHOR===');
  });
});
