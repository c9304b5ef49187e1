import { describe, expect, it } from 'vitest';
import { HestaiError } from '../../../src/errors.js';
import { formatOctaveError, parseOctave, tryParseOctave, validateOctave } from '../../../src/octave/index.js';

const wrap = (...body: string[]): string => ['===X===', ...body, '===END==='].join('\n');

/** Every error case: the text, the line of its (only) error and a part of the message. */
const CASES: { name: string; text: string; line: number; message: string }[] = [
  { name: 'an empty text', text: '', line: 1, message: 'expected an opening envelope "===NAME===", got an empty text' },
  { name: 'only blank lines', text: '\n  \n', line: 1, message: 'got an empty text' },
  {
    name: 'content before the envelope',
    text: '\nhello\n===X===\n===END===',
    line: 2,
    message: 'expected an opening envelope "===NAME===" (e.g. "===CURRENT_FOCUS==="), got "hello"',
  },
  {
    name: 'a comment before the envelope',
    text: '// c\n===X===\n===END===',
    line: 1,
    message: 'expected an opening envelope',
  },
  {
    name: '===END=== as the opening',
    text: '===END===\n',
    line: 1,
    message: 'expected an opening envelope "===NAME===" (e.g. "===CURRENT_FOCUS==="), got "===END==="',
  },
  { name: 'an invalid envelope name', text: '===A B===\n===END===', line: 1, message: 'got "===A B==="' },
  {
    name: 'a missing ===END===',
    text: '\n===X===\nA::1\n',
    line: 2,
    message: 'envelope "===X===" is never closed: expected "===END===" before the end of the text',
  },
  {
    name: 'content after ===END===',
    text: '===X===\n===END===\n\nmore',
    line: 4,
    message: 'unexpected content after "===END===": "more" (only blank lines may follow; one envelope per text)',
  },
  {
    name: 'a second envelope',
    text: '===X===\n===END===\n===Y===\n===END===',
    line: 3,
    message: 'unexpected content after "===END==="',
  },
  {
    name: 'a nested envelope',
    text: wrap('A::1', '===Y==='),
    line: 3,
    message: 'unexpected envelope "===Y===": expected "===END===" to close the open envelope first',
  },
  {
    name: 'an unrecognized line',
    text: wrap('A::1', 'B:', '  C::1', '', '  foo'),
    line: 6,
    message: 'expected "KEY::value" or "KEY:" with two-space indentation, got "  foo"',
  },
  {
    name: 'a single colon before a value',
    text: wrap('ROLE: lead'),
    line: 2,
    message: 'expected "::" after key "ROLE" (write "KEY::value", or "KEY:" alone to open a block), got "ROLE: lead"',
  },
  {
    name: 'a comment glued to a block opener',
    text: wrap('URL://x'),
    line: 2,
    message: 'expected "::" after key "URL"',
  },
  {
    name: 'an invalid key',
    text: wrap('1KEY::x'),
    line: 2,
    message: 'invalid key "1KEY" (keys start with a letter or "_", then letters, digits, "_" or "-")',
  },
  { name: 'an invalid block key', text: wrap('a.b:'), line: 2, message: 'invalid key "a.b"' },
  {
    name: 'an indented first entry',
    text: wrap('  A::1'),
    line: 2,
    message: 'indentation of 2 spaces is too deep here (expected at most 0',
  },
  {
    name: 'a child indented four spaces',
    text: wrap('A:', '    B::1'),
    line: 3,
    message: 'indentation of 4 spaces is too deep here (expected at most 2',
  },
  {
    name: 'a child of an assignment',
    text: wrap('A::1', '  B::2'),
    line: 3,
    message: 'indentation of 2 spaces is too deep here',
  },
  {
    name: 'an odd indentation',
    text: wrap('A:', '   B::1'),
    line: 3,
    message: 'indentation of 3 spaces is not a multiple of two',
  },
  {
    name: 'a tab for indentation',
    text: wrap('A:', '\tB::1'),
    line: 3,
    message: 'raw control character U+0009 at column 1',
  },
  {
    name: 'a raw control character in a value',
    text: wrap('A::x\u0007y'),
    line: 2,
    message: 'raw control character U+0007 at column 5',
  },
  { name: 'a raw line separator', text: wrap('A::x\u2028y'), line: 2, message: 'raw line separator U+2028' },
  {
    name: 'a duplicate key',
    text: wrap('A::1', 'B::2', 'A::3'),
    line: 4,
    message: 'duplicate key "A" (first defined on line 2)',
  },
  {
    name: 'a duplicate block key',
    text: wrap('A:', '  B::1', '  B:'),
    line: 4,
    message: 'duplicate key "B" (first defined on line 3)',
  },
  {
    name: 'an unterminated string',
    text: wrap('FOCUS::"abc'),
    line: 2,
    message: 'in the value of "FOCUS": unterminated string: expected a closing \'"\' for the quote opened at column 8',
  },
  {
    name: 'an unknown escape',
    text: wrap('A::"x\\qy"'),
    line: 2,
    message: 'in the value of "A": unknown escape "\\q" (allowed: \\" \\\\ \\n \\t \\uXXXX) at column 6',
  },
  {
    name: 'a short \\u escape',
    text: wrap('A::"\\u12"'),
    line: 2,
    message: 'invalid escape: expected "\\u" followed by four hex digits at column 5',
  },
  {
    name: 'text after a closing quote',
    text: wrap('A::"x" y'),
    line: 2,
    message: 'unexpected text after the closing quote: "y" (start a trailing comment with "//") at column 8',
  },
  {
    name: 'text after a closing bracket',
    text: wrap('A::[x] y'),
    line: 2,
    message: 'unexpected text after the closing "]": "y"',
  },
  {
    name: 'an unterminated list',
    text: wrap('A::[a,b'),
    line: 2,
    message: 'unterminated list: expected "]" for the "[" opened at column 4',
  },
  {
    name: 'a list ending after a comma',
    text: wrap('A::[a,'),
    line: 2,
    message: 'unterminated list: expected an item or "]" at column 7',
  },
  {
    name: 'an empty list item',
    text: wrap('A::[a,,b]'),
    line: 2,
    message: 'expected a list item (write "" for an empty string) at column 7',
  },
  { name: 'a trailing comma', text: wrap('A::[a,]'), line: 2, message: 'expected a list item' },
  {
    name: 'a quote inside a bare item',
    text: wrap('A::[ab"c"]'),
    line: 2,
    message: 'unexpected "\\"" inside an unquoted list item (quote the item) at column 7',
  },
  {
    name: 'a missing comma between items',
    text: wrap('A::["a" "b"]'),
    line: 2,
    message: 'expected "," or "]" in the list, got "\\"" at column 9',
  },
  {
    name: 'lists nested too deep',
    text: wrap(`A::${'['.repeat(40)}${']'.repeat(40)}`),
    line: 2,
    message: 'lists nest too deep (at most 32 levels)',
  },
];

describe('OCTAVE syntax errors', () => {
  it.each(CASES)('reports $name on line $line', ({ text, line, message }) => {
    const errors = validateOctave(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.line).toBe(line);
    expect(errors[0]?.message).toContain(message);
  });

  it('reports every independent problem, sorted by line', () => {
    const text = wrap('A::1', 'A::2', 'B: x', 'C::"open', 'D::ok');
    expect(validateOctave(text).map((e) => e.line)).toEqual([3, 4, 5]);
  });

  it('reports a bad line once: the lines indented below it are skipped', () => {
    const text = wrap('A: x', '  B::1', '    C::2', 'D::ok', 'D::again');
    expect(validateOctave(text).map((e) => e.line)).toEqual([2, 6]);
  });

  it('formats an error as "line N: message"', () => {
    expect(formatOctaveError({ line: 5, message: 'expected x' })).toBe('line 5: expected x');
  });

  it('tryParseOctave returns the errors instead of throwing, and never throws on junk', () => {
    expect(tryParseOctave('junk')).toEqual({ ok: false, errors: validateOctave('junk') });
    expect(() => tryParseOctave(`===X===\nA::${'['.repeat(100_000)}\n===END===`)).not.toThrow();
  });
});

describe('parseOctave errors', () => {
  const text = wrap('A::1', 'A::2', 'foo');

  it('throws a usage HestaiError naming the file and the first line', () => {
    let caught: unknown;
    try {
      parseOctave(text, { file: '.hestai/state/focus.oct.md' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HestaiError);
    const error = caught as HestaiError;
    expect(error.exitCode).toBe(2);
    expect(error.code).toBe('OCTAVE_INVALID');
    expect(error.file).toBe('.hestai/state/focus.oct.md');
    expect(error.message).toBe(
      'invalid OCTAVE in .hestai/state/focus.oct.md: line 3: duplicate key "A" (first defined on line 2) (and 1 more problem)',
    );
    expect(error.details).toEqual([
      '.hestai/state/focus.oct.md:3: duplicate key "A" (first defined on line 2)',
      '.hestai/state/focus.oct.md:4: expected "KEY::value" or "KEY:" with two-space indentation, got "foo"',
    ]);
    expect(error.remedy).toBeTruthy();
  });

  it('names the text when no file is given', () => {
    expect(() => parseOctave('nope')).toThrow(/^invalid OCTAVE in <text>: line 1: expected an opening envelope/);
  });
});
