import { describe, expect, it } from 'vitest';
import { HestaiError } from '../../../src/errors.js';
import {
  normalizeFocus,
  normalizeSummary,
  validateOnConflict,
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
