/**
 * Tiny hand-written validators for state files read on the hook path, where loading zod would cost more
 * than the whole hook (measured: +45 ms, +15 MB). Each returns the problems found, as `key: expected ...`.
 */
export type Problems = string[];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectString(
  obj: Record<string, unknown>,
  key: string,
  problems: Problems,
  options: { nullable?: boolean; pattern?: RegExp } = {},
): void {
  const value = obj[key];
  if (value === null && options.nullable) return;
  if (typeof value !== 'string') {
    problems.push(`${key}: expected a string${options.nullable ? ' or null' : ''}`);
    return;
  }
  if (options.pattern && !options.pattern.test(value)) problems.push(`${key}: does not match ${options.pattern}`);
}

/** A full ISO-8601 timestamp as `Date#toISOString` writes it (offsets allowed): one line, nothing around it. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export function expectIsoDate(
  obj: Record<string, unknown>,
  key: string,
  problems: Problems,
  options: { nullable?: boolean } = {},
): void {
  const value = obj[key];
  if (value === null && options.nullable) return;
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value) || Number.isNaN(Date.parse(value))) {
    problems.push(`${key}: expected an ISO-8601 timestamp like 2026-01-31T12:00:00.000Z`);
  }
}

export function expectOneOf(
  obj: Record<string, unknown>,
  key: string,
  allowed: readonly string[],
  problems: Problems,
): void {
  if (!allowed.includes(obj[key] as string)) problems.push(`${key}: expected one of ${allowed.join(', ')}`);
}

export function expectArray(obj: Record<string, unknown>, key: string, problems: Problems): unknown[] {
  const value = obj[key];
  if (!Array.isArray(value)) {
    problems.push(`${key}: expected a list`);
    return [];
  }
  return value;
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
