import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// The one validation style for configs and records: zod/mini (small enough for the hooks' bundles). It sets no
// language of its own: classic zod's English messages.
z.config(en());

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A full ISO-8601 timestamp as `Date#toISOString` writes it (offsets allowed): one line, nothing around it. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
export const isoDate = z
  .string()
  .check(
    z.refine(
      (s) => ISO_TIMESTAMP.test(s) && !Number.isNaN(Date.parse(s)),
      'expected an ISO-8601 timestamp like 2026-01-31T12:00:00.000Z',
    ),
  );

/**
 * The checker of a stored record: its value itself (never a copy: a record's integrity hash is over what was
 * read) when `schema` accepts it, else each problem as `key.path: message`.
 */
export function recordChecker<T>(
  schema: z.ZodMiniType,
): (value: unknown) => { ok: true; value: T } | { ok: false; errors: string[] } {
  return (value) => {
    const result = schema.safeParse(value);
    if (result.success) return { ok: true, value: value as T };
    return {
      ok: false,
      // A custom issue of the whole record names its own key in its message.
      errors: result.error.issues.map((issue) =>
        issue.path.length === 0 && issue.code === 'custom'
          ? issue.message
          : `${issue.path.join('.') || '(root)'}: ${issue.message}`,
      ),
    };
  };
}

/** RFC 4122 version-4 UUID, lower case (the session id and handshake token). */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Pure: the JSON object a config file holds, for tools that merge their entry into a file the user owns
 * (`.mcp.json`, `.claude/settings.json`). An absent or blank file is `{}`. Anything else (invalid JSON, an
 * array, a scalar) is refused through `refuse(problem)`, which words the error for its file; the caller never
 * overwrites what it could not read.
 */
export function parseJsonObject(text: string | null, refuse: (problem: string) => Error): Record<string, unknown> {
  if (text === null || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw refuse(`not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(parsed)) throw refuse('not a JSON object');
  return parsed;
}
