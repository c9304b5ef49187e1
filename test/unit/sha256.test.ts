import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256HexBytes } from '../../src/util/sha256.js';
import { runs } from '../helpers/property.js';

const reference = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex (pure JS, for the hook path)', () => {
  it('matches the known vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches node:crypto at block boundaries and for non-ASCII text', () => {
    for (const n of [55, 56, 63, 64, 65, 119, 120, 1000])
      expect(sha256Hex('a'.repeat(n)), String(n)).toBe(reference('a'.repeat(n)));
    expect(sha256Hex('⇌→ ünïcode 🦊')).toBe(reference('⇌→ ünïcode 🦊'));
  });

  it('matches node:crypto for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => sha256Hex(text) === reference(text)),
      runs(100),
    );
  });
});

describe('sha256Hex on repeated texts (a hook hashes the same anchor several times)', () => {
  it('answers every text, repeated, interleaved or long since hashed, exactly as node:crypto does', () => {
    const pool = fc.constantFrom('', 'abc', 'abd', 'a'.repeat(64), 'a'.repeat(65), '\uD800', '\uFFFD', 'é', 'e\u0301');
    fc.assert(
      fc.property(fc.array(fc.oneof(pool, fc.string({ unit: 'binary', maxLength: 80 })), { maxLength: 40 }), (texts) =>
        texts.every((text) => sha256Hex(text) === reference(text)),
      ),
      runs(100),
    );
    const big = 'x'.repeat(200_000);
    expect(sha256Hex(big)).toBe(reference(big));
    expect(sha256Hex(`${big}y`)).toBe(reference(`${big}y`));
    expect(sha256Hex(big)).toBe(reference(big));
  });
});

describe("sha256HexBytes (a file's bytes, for the protocol's content_hash gates)", () => {
  it('matches node:crypto for any bytes, including ones that are not UTF-8', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        (bytes) => sha256HexBytes(bytes) === createHash('sha256').update(bytes).digest('hex'),
      ),
      runs(100),
    );
    const invalid = Uint8Array.from([0xff, 0xfe, 0x00, 0xc3, 0x28]);
    expect(sha256HexBytes(invalid)).toBe(createHash('sha256').update(invalid).digest('hex'));
  });
});
