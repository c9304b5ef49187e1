import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULTS } from '../../src/config/defaults.js';
import { fastConfig } from '../../src/config/fast.js';
import { configSchema } from '../../src/config/schema.js';
import { arbitrary, validArbitrary } from '../helpers/zod-arbitrary.js';

// The hooks check the workspace config with a zod-free mirror of the schema (src/config/fast.ts). zod stays the
// one schema: on every key of it, the mirror must accept exactly what zod accepts, with the same value, and
// reject (null: the loader then asks zod for the errors) exactly what zod rejects. The values are generated
// from the zod schema itself, so a key added to the schema is fuzzed here without touching this file, and
// fails here until the mirror knows it.

/** Every key path of the schema, with the schema of its value. */
function keyPaths(schema: z.ZodType, prefix: string[] = []): Array<{ path: string[]; schema: z.ZodType }> {
  let inner = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
    inner = inner.unwrap() as z.ZodType;
  const out = prefix.length > 0 ? [{ path: prefix, schema }] : [];
  if (inner instanceof z.ZodObject)
    for (const [key, value] of Object.entries(inner.shape as Record<string, z.ZodType>))
      out.push(...keyPaths(value, [...prefix, key]));
  if (inner instanceof z.ZodArray) out.push(...keyPaths(inner.element as z.ZodType, [...prefix, '0']).slice(1));
  return out;
}

/** A document holding `value` at `path` (an array index stands for a one-element list). */
function at(path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return head === '0' ? [at(rest, value)] : { [head!]: at(rest, value) };
}

function sameAsZod(raw: unknown): void {
  const expected = configSchema.safeParse(raw);
  const actual = fastConfig(raw);
  if (expected.success) expect(actual).toStrictEqual(expected.data);
  else expect(actual).toBeNull();
}

describe('fastConfig (the hooks check the workspace config without zod)', () => {
  it('answers the defaults for an empty document, as zod does', () => {
    expect(fastConfig({})).toStrictEqual(DEFAULTS);
    expect(fastConfig({})).toStrictEqual(configSchema.parse({}));
  });

  it('rejects what is not a mapping, as zod does', () => {
    for (const raw of [null, undefined, [], 'tdd', 1, true]) sameAsZod(raw);
  });

  const paths = keyPaths(configSchema);
  it('walks every key of the schema (the fuzzing below covers each one)', () => {
    const names = paths.map((p) => p.path.join('.'));
    for (const key of ['tdd.policy', 'tdd.inline_tests.0.start', 'ai.base_url', 'quality_gates.0.timeout_ms'])
      expect(names).toContain(key);
    expect(names.length).toBeGreaterThan(50);
  });

  for (const { path, schema } of paths) {
    it(`accepts and rejects ${path.join('.')} as zod does, with the same value`, () => {
      fc.assert(
        fc.property(arbitrary(schema), (value) => sameAsZod(at(path, value))),
        { numRuns: 150 },
      );
    });
  }

  it('accepts and rejects whole documents as zod does, with the same value', () => {
    fc.assert(
      fc.property(arbitrary(configSchema), (raw) => sameAsZod(raw)),
      { numRuns: 1500 },
    );
    // Mostly valid documents too (a whole document of random keys is rarely valid).
    let accepted = 0;
    fc.assert(
      fc.property(validArbitrary(configSchema), (raw) => {
        sameAsZod(raw);
        if (fastConfig(raw) !== null) accepted++;
      }),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(600);
  });

  it('returns a fresh value: changing it changes neither DEFAULTS nor the next answer', () => {
    const first = fastConfig({})!;
    first.tdd.types.push('fix');
    first.context_paths.exclude.length = 0;
    expect(fastConfig({})).toStrictEqual(DEFAULTS);
    expect(DEFAULTS.tdd.types).toEqual(['feat']);
  });
});
