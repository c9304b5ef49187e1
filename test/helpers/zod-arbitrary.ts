import fc from 'fast-check';
import { z } from 'zod';

// Values for a zod schema, generated from the schema itself (test/unit/config-fast.test.ts and
// test/unit/config-yaml-subset.test.ts): mostly of the schema's own kind, valid or at the edge of every check it
// carries, sometimes of any other kind. A kind of zod schema it does not know is an error, never a silent gap.

/** Any value of the wrong kind, as YAML can produce it. */
const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 4 }), { maxKeys: 3 }),
);

/** Strings near every check a zod string can carry: lengths, patterns, paths, regular expressions, URLs. */
const tricky = [
  '',
  ' ',
  'a',
  'feat',
  'Feat',
  'build-deps',
  '-x',
  'API_KEY',
  'api_key',
  '_X1',
  '1X',
  'abcd',
  'ABC',
  'deadbeef',
  'a'.repeat(64),
  'f'.repeat(65),
  'a'.repeat(500),
  'b'.repeat(501),
  'docs/',
  'node_modules/',
  '/abs/path',
  'C:\\x',
  'c:/x',
  'a/../b',
  '..',
  '..x/y',
  'a\\..\\b',
  '(',
  '[a-',
  '^\\s*#\\[test\\]',
  '^Release v\\d+',
  '**/*.test.*',
  'http://127.0.0.1:11434/v1',
  ' https://example.com/v1 ',
  'https://exa\tmple.com',
  'https://example.com/\n',
  'http:example.com',
  'not a url',
  'mailto:x@y',
  'main',
  'npm test',
  'mcp__github__get_issue',
  'mcp__github__get_*',
  'mcp__*',
  'Bash',
  'Edit',
  'mcp__hestai__anchor',
  'Read*',
];

function stringArbitrary(schema: z.ZodString | z.ZodURL): fc.Arbitrary<string> {
  const variants: fc.Arbitrary<string>[] = [fc.string({ maxLength: 12 }), fc.constantFrom(...tricky)];
  for (const check of schema._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string; format?: string; pattern?: RegExp };
    if (def.check === 'string_format' && def.format === 'regex' && def.pattern)
      // fast-check matches without flags: the case-insensitive sha pattern gets lower and upper case.
      variants.push(
        fc
          .stringMatching(new RegExp(def.pattern.source), { maxLength: 70 })
          .chain((s) => fc.constantFrom(s, def.pattern!.flags.includes('i') ? s.toUpperCase() : s)),
      );
  }
  const { minLength, maxLength } = schema as { minLength: number | null; maxLength: number | null };
  for (const n of [minLength, maxLength])
    if (n !== null) variants.push(fc.constantFrom('x'.repeat(Math.max(0, n - 1)), 'x'.repeat(n), 'x'.repeat(n + 1)));
  return fc.oneof(...variants);
}

function numberArbitrary(schema: z.ZodNumber): fc.Arbitrary<number> {
  const near = [0, -0, 1, -1, 0.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 1e308, Infinity, NaN];
  for (const bound of [schema.minValue, schema.maxValue])
    if (bound !== null && Number.isFinite(bound)) near.push(bound - 1, bound - 0.5, bound, bound + 0.5, bound + 1);
  return fc.oneof(fc.constantFrom(...near), fc.integer({ min: -5, max: 1_000_000 }), fc.double());
}

/** Values for `schema`: mostly of its own kind (valid or at the edge), sometimes of any other kind. */
export function arbitrary(schema: z.ZodType): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: ownKind(schema), weight: 5 }, { arbitrary: junk, weight: 1 });
}

function ownKind(schema: z.ZodType): fc.Arbitrary<unknown> {
  if (schema instanceof z.ZodPipe) return ownKind(schema.in as z.ZodType); // a transform: its input
  if (schema instanceof z.ZodUnion) return fc.oneof(...(schema.options as z.ZodType[]).map((o) => arbitrary(o)));
  if (schema instanceof z.ZodLiteral) return fc.constantFrom(...(schema.values as Set<unknown>), 'other');
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional)
    return fc.oneof(fc.constant(undefined), arbitrary(schema.unwrap() as z.ZodType));
  if (schema instanceof z.ZodNullable) return fc.oneof(fc.constant(null), arbitrary(schema.unwrap() as z.ZodType));
  if (schema instanceof z.ZodObject) return objectArbitrary(schema);
  if (schema instanceof z.ZodArray) {
    const element = arbitrary(schema.element as z.ZodType);
    return fc.oneof(fc.constant([]), fc.array(element, { minLength: 1, maxLength: 3 }));
  }
  if (schema instanceof z.ZodEnum) {
    const options = schema.options as string[];
    return fc.oneof(
      fc.constantFrom(...options),
      fc.constantFrom(...options.map((o) => o.toUpperCase()), `${options[0]} `, ''),
    );
  }
  if (schema instanceof z.ZodBoolean) return fc.oneof(fc.boolean(), fc.constantFrom('true', 'yes', 0, 1));
  if (schema instanceof z.ZodNumber) return numberArbitrary(schema);
  if (schema instanceof z.ZodString || schema instanceof z.ZodURL) return stringArbitrary(schema);
  throw new Error(`config-fast.test.ts cannot generate values for a zod ${schema._zod.def.type}: teach it`);
}

/** An object with any subset of its keys, sometimes with a key it does not know. */
function objectArbitrary(schema: z.ZodObject): fc.Arbitrary<Record<string, unknown>> {
  const shape = schema.shape as Record<string, z.ZodType>;
  const record = fc.record(Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, arbitrary(value)])), {
    requiredKeys: [],
  });
  const unknownKey = fc.constantFrom('unknown', 'Policy', 'constructor', 'toString', '__proto__');
  return fc.oneof(
    { arbitrary: record, weight: 6 },
    {
      arbitrary: fc.tuple(record, unknownKey, junk).map(([r, key, value]) => {
        const out = { ...r };
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        return out;
      }),
      weight: 1,
    },
  );
}

/**
 * Values `schema` is meant to accept (what people write): every kind its own, strings matching its patterns,
 * numbers inside its bounds, lists as long as it asks. A refinement can still refuse one; most pass.
 */
export function validArbitrary(schema: z.ZodType): fc.Arbitrary<unknown> {
  if (schema instanceof z.ZodPipe) return validArbitrary(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) return fc.oneof(...(schema.options as z.ZodType[]).map((o) => validArbitrary(o)));
  if (schema instanceof z.ZodLiteral) return fc.constantFrom(...(schema.values as Set<unknown>));
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional)
    return fc.oneof(fc.constant(undefined), validArbitrary(schema.unwrap() as z.ZodType));
  if (schema instanceof z.ZodNullable) return fc.oneof(fc.constant(null), validArbitrary(schema.unwrap() as z.ZodType));
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    return fc.record(Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, validArbitrary(value)])), {
      requiredKeys: Object.keys(shape).filter(
        (key) => !(shape[key] instanceof z.ZodOptional || shape[key] instanceof z.ZodDefault),
      ),
    });
  }
  if (schema instanceof z.ZodArray) {
    const { minLength } = schema as unknown as { minLength: number | null };
    return fc.array(validArbitrary(schema.element as z.ZodType), { minLength: minLength ?? 0, maxLength: 3 });
  }
  if (schema instanceof z.ZodEnum) return fc.constantFrom(...(schema.options as string[]));
  if (schema instanceof z.ZodBoolean) return fc.boolean();
  if (schema instanceof z.ZodNumber) {
    const min = Math.max(schema.minValue ?? -1e6, -1e6);
    const max = Math.min(schema.maxValue ?? 1e6, 1e6);
    return schema.isInt
      ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
      : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  }
  if (schema instanceof z.ZodURL) return fc.webUrl();
  if (schema instanceof z.ZodString) {
    const pattern = (schema._zod.def.checks ?? [])
      .map((check) => check._zod.def as { check: string; format?: string; pattern?: RegExp })
      .find((def) => def.check === 'string_format' && def.format === 'regex')?.pattern;
    const { minLength, maxLength } = schema as { minLength: number | null; maxLength: number | null };
    return pattern
      ? fc.stringMatching(new RegExp(pattern.source), { maxLength: 70 })
      : fc.string({ minLength: minLength ?? 0, maxLength: Math.min(maxLength ?? 30, 30) });
  }
  throw new Error(`zod-arbitrary.ts cannot generate values for a zod ${schema._zod.def.type}: teach it`);
}
