import { describe, expect, it } from 'vitest';
import { HestaiError } from '../../../src/errors.js';
import {
  normalizeFocus,
  normalizeSummary,
  validateOnConflict,
  validateCarry,
  validateModel,
  validateRole,
} from '../../../src/session/rules/input.js';

function codeOf(fn: () => unknown): { code: string; exit: number } {
  try {
    fn();
  } catch (error) {
    if (error instanceof HestaiError) return { code: error.code, exit: error.exitCode };
    throw error;
  }
  throw new Error('expected a HestaiError');
}

describe('validateRole', () => {
  it.each(['implementation-lead', 'a', 'holistic-orchestrator', 'role-2', '9lives', 'a'.repeat(64)])(
    'accepts %s',
    (role) => {
      expect(validateRole(role)).toBe(role);
    },
  );

  it.each(['', '-lead', 'Implementation', 'impl_lead', 'impl lead', '../etc', 'a/b', 'x\n', 'a'.repeat(65), 'rôle'])(
    'rejects %j with exit 2',
    (role) => {
      expect(codeOf(() => validateRole(role))).toEqual({ code: 'ROLE_INVALID', exit: 2 });
    },
  );

  it('rejects a non-string', () => {
    expect(codeOf(() => validateRole(42 as unknown as string)).exit).toBe(2);
  });
});

describe('normalizeFocus', () => {
  it('trims and treats whitespace-only as absent', () => {
    expect(normalizeFocus('  x  ')).toBe('x');
    expect(normalizeFocus(' \t ')).toBeUndefined();
    expect(normalizeFocus(undefined)).toBeUndefined();
  });

  it('rejects control characters and overly long text', () => {
    expect(codeOf(() => normalizeFocus('a\nFOCUS::evil')).code).toBe('FOCUS_INVALID');
    expect(codeOf(() => normalizeFocus('a\u0000b')).exit).toBe(2);
    expect(codeOf(() => normalizeFocus('x'.repeat(501))).exit).toBe(2);
  });
});

describe('normalizeSummary', () => {
  it('folds line breaks into spaces, refuses other control characters', () => {
    expect(normalizeSummary('did a\nthing\r\n  and more ')).toBe('did a thing and more');
    expect(normalizeSummary(undefined)).toBe('');
    expect(codeOf(() => normalizeSummary('bad\u0007bell')).code).toBe('SUMMARY_INVALID');
  });
});

describe('validateOnConflict and validateModel', () => {
  it('accepts the three resolutions and defaults to continue', () => {
    expect(validateOnConflict(undefined)).toBe('continue');
    for (const v of ['continue', 'abort', 'takeover'] as const) expect(validateOnConflict(v)).toBe(v);
    expect(codeOf(() => validateOnConflict('later')).code).toBe('USAGE');
  });

  it('accepts a plain model name and refuses control characters', () => {
    expect(validateModel('anthropic/claude-3.5-sonnet')).toBe('anthropic/claude-3.5-sonnet');
    expect(validateModel(undefined)).toBeUndefined();
    expect(validateModel('  ')).toBeUndefined();
    expect(codeOf(() => validateModel('m\n')).exit).toBe(2);
  });
});

/** The user-facing error a call throws: its code, message and hint. */
function errorOf(fn: () => unknown): { code: string; message: string; remedy: string | undefined } {
  try {
    fn();
  } catch (error) {
    if (error instanceof HestaiError) return { code: error.code, message: error.message, remedy: error.remedy };
    throw error;
  }
  throw new Error('expected a HestaiError');
}

describe('input errors say what is wrong and what to do', () => {
  it('an invalid role is quoted, with the expected form and an example', () => {
    expect(errorOf(() => validateRole('Bad Role'))).toEqual({
      code: 'ROLE_INVALID',
      message: 'invalid role "Bad Role": expected lower-case letters, digits and hyphens (e.g. implementation-lead)',
      remedy: 'Pass --role like "implementation-lead": 1-64 characters of a-z, 0-9 and "-", not starting with "-".',
    });
  });

  it('a focus: its type, control characters (shown escaped) and its length', () => {
    expect(errorOf(() => normalizeFocus(7))).toMatchObject({
      code: 'FOCUS_INVALID',
      message: 'focus must be a string',
    });
    expect(errorOf(() => normalizeFocus(' a\u001bb '))).toEqual({
      code: 'FOCUS_INVALID',
      message: 'focus "a\\u001bb" contains control characters or line breaks',
      remedy: 'Pass the focus as one line of plain text.',
    });
    expect(errorOf(() => normalizeFocus('x'.repeat(501)))).toEqual({
      code: 'FOCUS_INVALID',
      message: 'focus is 501 characters long (at most 500)',
      remedy: 'Summarise the focus in one sentence.',
    });
    expect(normalizeFocus(` ${'x'.repeat(500)} `)).toBe('x'.repeat(500));
    expect(normalizeFocus(null)).toBeUndefined();
  });

  it('a summary: its type, control characters and its length after folding', () => {
    expect(errorOf(() => normalizeSummary(['x']))).toMatchObject({
      code: 'SUMMARY_INVALID',
      message: 'summary must be a string',
    });
    expect(errorOf(() => normalizeSummary('a\u0000b'))).toEqual({
      code: 'SUMMARY_INVALID',
      message: 'summary contains control characters',
      remedy: 'Pass plain text.',
    });
    expect(errorOf(() => normalizeSummary('y'.repeat(4001)))).toMatchObject({
      code: 'SUMMARY_INVALID',
      message: 'summary is 4001 characters long (at most 4000)',
    });
    expect(normalizeSummary(`${'y'.repeat(2000)}\n\n\n${'y'.repeat(1999)}`)).toHaveLength(4000);
    expect(normalizeSummary(null)).toBe('');
    expect(normalizeSummary('a\t\tb   c')).toBe('a b c');
  });

  it('a conflict resolution: the value is quoted and the three choices named', () => {
    expect(errorOf(() => validateOnConflict('later'))).toEqual({
      code: 'USAGE',
      message: 'invalid conflict resolution "later"',
      remedy: 'Use --on-conflict continue, abort or takeover.',
    });
    expect(validateOnConflict(null)).toBe('continue');
  });

  it('a model name: trimmed, at most 200 characters, one line', () => {
    expect(validateModel('  gpt-4o-mini ')).toBe('gpt-4o-mini');
    expect(validateModel(null)).toBeUndefined();
    expect(validateModel('m'.repeat(200))).toBe('m'.repeat(200));
    expect(errorOf(() => validateModel('m'.repeat(201)))).toMatchObject({
      code: 'MODEL_INVALID',
      remedy: 'Pass a model name like gpt-4o-mini.',
    });
    expect(errorOf(() => validateModel(' \n '))).toMatchObject({ code: 'MODEL_INVALID' });
    expect(errorOf(() => validateModel('a\u0007'))).toMatchObject({
      code: 'MODEL_INVALID',
      message: 'invalid model name "a\\u0007"',
    });
    expect(errorOf(() => validateModel(3))).toMatchObject({ code: 'MODEL_INVALID', message: 'model must be a string' });
  });
});

describe('validateCarry (clock-out checklist choice)', () => {
  it('nothing named: everything is DONE; named items are trimmed; --carry-all carries all', () => {
    expect(validateCarry(undefined, undefined)).toEqual([]);
    expect(validateCarry(null, false)).toEqual([]);
    expect(validateCarry(['  write the test ', 'docs'], undefined)).toEqual(['write the test', 'docs']);
    expect(validateCarry(undefined, true)).toBe('all');
    expect(validateCarry([], true)).toBe('all');
    expect(validateCarry(['x'], 'yes')).toEqual(['x']);
  });

  it.each([
    ['a string', 'write the test'],
    ['a number in the list', ['a', 3]],
    ['an empty item', ['a', '   ']],
    ['an item with a line break', ['a\nb']],
  ])('refuses %s with what to write instead', (_, carry) => {
    expect(errorOf(() => validateCarry(carry, undefined))).toEqual({
      code: 'CARRY_INVALID',
      message: 'carry must be a list of checklist item texts (one line each, not empty)',
      remedy: 'Name each item exactly as it appears in PENDING of .hestai/context/state/checklist.oct.md.',
    });
  });

  it('refuses --carry-all together with named items', () => {
    expect(errorOf(() => validateCarry(['x'], true))).toEqual({
      code: 'CARRY_INVALID',
      message: '--carry-all and --carry ITEM cannot be combined',
      remedy: 'Use --carry-all to carry every item of the session forward, or --carry ITEM for named ones.',
    });
  });
});
