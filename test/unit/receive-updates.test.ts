import { describe, expect, it } from 'vitest';
import { classifyUpdate, parsePreReceive, parseUpdateArgs } from '../../src/receive/updates.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

describe('the ref updates git gives a receive hook', () => {
  it('pre-receive: one `<old> <new> <ref>` line per ref; blank lines ignored; a malformed line is an error naming it', () => {
    expect(parsePreReceive(`${A} ${B} refs/heads/main\n\n${Z} ${A} refs/heads/feat/x\n`)).toEqual([
      { ref: 'refs/heads/main', old: A, new: B },
      { ref: 'refs/heads/feat/x', old: Z, new: A },
    ]);
    expect(() => parsePreReceive('nonsense\n')).toThrow(/line 1.*"nonsense"/);
  });

  it('update: `<ref> <old> <new>` arguments', () => {
    expect(parseUpdateArgs(['refs/heads/main', A, B])).toEqual([{ ref: 'refs/heads/main', old: A, new: B }]);
    expect(() => parseUpdateArgs(['refs/heads/main', A])).toThrow(/three arguments/);
  });

  it('what each update asks of the hook', () => {
    const options = { tags: 'pass' as const, deletions: 'pass' as const };
    expect(classifyUpdate({ ref: 'refs/heads/main', old: A, new: Z }, options)).toBe('pass-deletion');
    expect(classifyUpdate({ ref: 'refs/tags/v1', old: Z, new: A }, options)).toBe('pass-tag');
    expect(classifyUpdate({ ref: 'refs/tags/v1', old: Z, new: A }, { ...options, tags: 'judge' })).toBe('branch');
    expect(classifyUpdate({ ref: 'refs/hestai/receipts', old: Z, new: A }, options)).toBe('refuse-receipts');
    expect(classifyUpdate({ ref: 'refs/hestai/receipts/x', old: A, new: Z }, options)).toBe('refuse-receipts');
    expect(classifyUpdate({ ref: 'refs/heads/hestai/anchors', old: A, new: Z }, options)).toBe('anchors');
    expect(classifyUpdate({ ref: 'refs/heads/hestai/anchors', old: A, new: B }, options)).toBe('anchors');
    expect(classifyUpdate({ ref: 'refs/heads/feat/x', old: A, new: Z }, { ...options, deletions: 'refuse' })).toBe(
      'refuse-deletion',
    );
    expect(classifyUpdate({ ref: 'refs/heads/feat/x', old: Z, new: A }, options)).toBe('branch');
  });
});
