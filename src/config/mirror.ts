/**
 * The pieces zod-free mirrors of zod schemas are made of (src/config/fast.ts for the workspace config,
 * src/protocol/fast.ts for the session protocol): each check answers the value zod would answer, or NO where
 * zod would report a problem. Never a message: the caller asks zod for those.
 */
/** "Not valid here": the sentinel every check returns instead of throwing or collecting messages. */
export const NO: unique symbol = Symbol('invalid');
export type Check = (value: unknown) => unknown;

export const bool: Check = (v) => (typeof v === 'boolean' ? v : NO);

interface NumberRule {
  int?: boolean;
  /** Exclusive lower bound (zod's positive: > 0). */
  gt?: number;
  /** Inclusive bounds (zod's min and max). */
  min?: number;
  max?: number;
}
export const num =
  (rule: NumberRule = {}): Check =>
  (v) =>
    typeof v === 'number' &&
    Number.isFinite(v) &&
    (!rule.int || Number.isSafeInteger(v)) &&
    (rule.gt === undefined || v > rule.gt) &&
    (rule.min === undefined || v >= rule.min) &&
    (rule.max === undefined || v <= rule.max)
      ? v
      : NO;

interface StringRule {
  min?: number;
  max?: number;
  pattern?: RegExp;
  refine?: ReadonlyArray<(s: string) => boolean>;
}
export const str =
  (rule: StringRule = {}): Check =>
  (v) =>
    typeof v === 'string' &&
    (rule.min === undefined || v.length >= rule.min) &&
    (rule.max === undefined || v.length <= rule.max) &&
    (rule.pattern === undefined || rule.pattern.test(v)) &&
    (rule.refine ?? []).every((f) => f(v))
      ? v
      : NO;

/** zod's `z.url()`: the trimmed text parses as a URL; the value is that text without ASCII tabs and newlines. */
export const url: Check = (v) => {
  if (typeof v !== 'string') return NO;
  const trimmed = v.trim();
  return URL.canParse(trimmed) ? trimmed.replace(/[\t\n\r]/g, '') : NO;
};

export const oneOf =
  (options: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && options.includes(v) ? v : NO;

export const list =
  (element: Check, min = 0): Check =>
  (v) => {
    if (!Array.isArray(v) || v.length < min) return NO;
    const out: unknown[] = [];
    for (const item of v) {
      const checked = element(item);
      if (checked === NO) return NO;
      out.push(checked);
    }
    return out;
  };

/** `.default(d)`: a missing value is the default (a fresh copy each time); anything else is checked. */
export const orDefault =
  (check: Check, fallback: () => unknown): Check =>
  (v) =>
    v === undefined ? fallback() : check(v);
/** `.optional()`: a missing value stays missing. */
export const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined ? undefined : check(v);
/** `.nullable()`. */
export const nullable =
  (check: Check): Check =>
  (v) =>
    v === null ? null : check(v);

/** zod's `z.strictObject`: a mapping with no key outside `shape`; an optional key stays out where it was out. */
export const strict =
  (shape: Record<string, Check>): Check =>
  (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return NO;
    const input = v as Record<string, unknown>;
    for (const key of Object.keys(input)) if (!Object.hasOwn(shape, key)) return NO;
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      const given = Object.hasOwn(input, key);
      const checked = check(given ? input[key] : undefined);
      if (checked === NO) return NO;
      if (checked !== undefined || given) out[key] = checked;
    }
    return out;
  };

/** `z.literal(value)`. */
export const literal =
  (value: unknown): Check =>
  (v) =>
    v === value ? v : NO;

/** zod's `z.discriminatedUnion(key, options)` over strict objects: the option named by the value of `key`. */
export const byKey =
  (key: string, options: Record<string, Check>): Check =>
  (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return NO;
    const tag = (v as Record<string, unknown>)[key];
    return typeof tag === 'string' && Object.hasOwn(options, tag) ? options[tag]!(v) : NO;
  };

/** A check followed by more conditions on its value and a change of it (zod's superRefine and transform). */
export const refined =
  (check: Check, next: (value: unknown) => unknown): Check =>
  (v) => {
    const checked = check(v);
    return checked === NO ? NO : next(checked);
  };
