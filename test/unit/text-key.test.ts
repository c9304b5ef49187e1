import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textKey } from '../../src/util/text-key.js';

// textKey names the cache files that hold their exact text (the config and protocol caches): it must be a
// safe file name, the same for the same text, and in practice different for different texts (a clash only
// costs a cache miss: the reader compares the whole text).
describe('textKey (a cache file name for a text)', () => {
  it('is 28 hex digits, the same for the same text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const key = textKey(text);
        return /^[0-9a-f]{28}$/.test(key) && key === textKey(`${text}`);
      }),
    );
  });

  it('differs for texts one character apart, and across many distinct texts', () => {
    const base = 'anchor:\n  required: true\n'.repeat(40);
    const variants = [
      base,
      `${base} `,
      base.replace('true', 'True'),
      `x${base.slice(1)}`,
      base.slice(0, -1),
      '',
      '\u0000',
    ];
    expect(new Set(variants.map(textKey)).size).toBe(variants.length);
    const many = new Set<string>();
    for (let i = 0; i < 20_000; i++) many.add(textKey(`phase ${i}\n`));
    expect(many.size).toBe(20_000);
  });
});
