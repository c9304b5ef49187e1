import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseYamlSubset } from '../../../src/config/yaml-subset.js';
import { fastProtocol } from '../../../src/protocol/fast.js';
import { protocolSchema } from '../../../src/protocol/schema.js';
import { validateProtocolText } from '../../../src/protocol/validate.js';
import { arbitrary, validArbitrary } from '../../helpers/zod-arbitrary.js';

// The hooks check .hestai/protocol.yaml with a zod-free mirror of its schema (src/protocol/fast.ts). zod stays the
// one schema: the mirror must accept exactly what zod accepts, with the same value (defaults and the derived
// blocking, pre_commit and title included), and reject exactly what zod rejects. Values are generated from the
// zod schema itself, so a key or check type added to it is fuzzed here and fails until the mirror knows it.

function sameAsZod(raw: unknown): boolean {
  const expected = protocolSchema.safeParse(raw);
  const actual = fastProtocol(raw);
  if (expected.success) expect(actual).toStrictEqual(expected.data);
  else expect(actual).toBeNull();
  return expected.success;
}

const TEMPLATES = path.resolve(import.meta.dirname, '../../../templates/protocol');

describe('fastProtocol (the hooks check the session protocol without zod)', () => {
  it('accepts and rejects protocols of any shape as zod does, with the same value', () => {
    fc.assert(
      fc.property(arbitrary(protocolSchema), (raw) => void sameAsZod(raw)),
      { numRuns: 3000 },
    );
  });

  it('accepts and rejects mostly valid protocols as zod does, with the same value', () => {
    let accepted = 0;
    fc.assert(
      fc.property(validArbitrary(protocolSchema), (raw) => {
        if (sameAsZod(raw)) accepted++;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  it('rejects what zod rejects past the keys: duplicate ids, COMPLETE, pre_commit on a post-commit check, content_hash without path', () => {
    const gate = (over: Record<string, unknown> = {}) => ({
      id: 'g',
      step: 's',
      level: 'MUST',
      check: { type: 'context_fresh' },
      ...over,
    });
    const phase = (over: Record<string, unknown> = {}) => ({ id: 'P', gates: [gate()], ...over });
    for (const raw of [
      { version: 1, phases: [phase(), phase()] },
      { version: 1, phases: [phase({ gates: [gate(), gate()] })] },
      { version: 1, phases: [phase({ id: 'COMPLETE' })] },
      { version: 1, phases: [phase({ gates: [gate({ pre_commit: true, check: { type: 'git_clean' } })] })] },
      { version: 1, phases: [phase({ gates: [gate({ check: { type: 'evidence', accepts: ['content_hash'] } })] })] },
      { version: 1, phases: [] },
      { version: 2, phases: [phase()] },
    ])
      expect(sameAsZod(raw), JSON.stringify(raw)).toBe(false);
    expect(
      sameAsZod({
        version: 1,
        phases: [phase({ gates: [gate({ pre_commit: false, check: { type: 'git_clean' } })] })],
      }),
    ).toBe(true);
  });

  it('reads the shipped protocols without yaml and zod, to what yaml and zod read', () => {
    const files = fs.readdirSync(TEMPLATES).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = fs.readFileSync(path.join(TEMPLATES, file), 'utf8');
      const parsed = parseYamlSubset(text);
      expect(parsed, file).not.toBeNull();
      const fast = fastProtocol(parsed!.value);
      expect(fast, file).not.toBeNull();
      expect(fast).toStrictEqual(validateProtocolText(text).protocol);
    }
  });
});
