import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { nearest } from '../config/suggest.js';

/**
 * Input fields shared by the tools. Every field carries a description (what an agent reads in
 * `tools/list` to call the tool correctly) and every string a `maxLength`: the transport-level bound, so a
 * 5 MiB argument is refused before any library call and never echoed back. The library still applies its
 * own, finer limits (role 64, focus 500 after trimming, payload 64 KiB in bytes, ...).
 */
export const LIMITS = {
  path: 4096,
  id: 64,
  role: 64,
  text: 1000,
  model: 200,
  summary: 8000,
  evidence: 10_000,
  payload: 64 * 1024,
  vector: 128 * 1024,
} as const;

export const workingDir = z.string().max(LIMITS.path).describe('Absolute path in your repo.');

export const sessionId = z.string().max(LIMITS.id).describe('The session_id clock_in returned.');

export const optionalSessionId = sessionId.optional().describe('Default: yours.');

export const role = z.string().max(LIMITS.role);

/** Names an agent may know from the CLI or older versions, and the one name each concept has over MCP. */
const RENAMED: Record<string, string> = {
  token: 'session_id',
  sessionId: 'session_id',
  strictness: 'tier',
  topic: 'focus',
  workingDir: 'working_dir',
};

/**
 * A strict input object: an unknown key is an error naming it and the nearest known one (`sessionId` →
 * "did you mean session_id?"), instead of being dropped silently.
 */
export function strictInput<S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const keys = (issue as { keys: string[] }).keys.map((key) => {
        const renamed = RENAMED[key];
        const near = renamed !== undefined && known.includes(renamed) ? renamed : nearest(key, known);
        return `unknown argument "${key.slice(0, 64)}"${near ? ` (did you mean "${near}"?)` : ''}`;
      });
      return `${keys.join('; ')}; known arguments: ${known.join(', ')}`;
    },
  });
}

type Json = Record<string, unknown>;

/**
 * A zod schema as the SDK registers it, with the JSON Schema that `tools/list` shows chosen here, because an
 * agent reads the whole list and it stays within 10 KB (issue 14; test/e2e/mcp-wording.test.ts):
 *
 * - `input`: zod's JSON Schema (types, enums, `maxLength`, descriptions, `additionalProperties: false`)
 *   without the `$schema` key every tool would repeat;
 * - `output`: `{type: "object"}`. The fields of each result, their types and meanings are in docs/mcp.md
 *   ("Tools"); listing them here would cost more than the rest of the list (measured: 1.1 KB as bare
 *   `required` lists, 16 KB with their types and descriptions), and every result also says itself in text.
 *
 * Validation is zod's, unchanged: arguments are parsed by the full input schema, and every successful
 * result is checked by the SDK against the full output schema before it is sent. The advertised output
 * schema is never stricter than that zod schema, so whatever passes the server's check conforms to what
 * `tools/list` declared (what a validating client, such as the TypeScript SDK v1, checks). The input JSON is
 * built once, on the first `tools/list`; the output JSON is never converted from zod (see `build`).
 */
export function advertised<S extends z.ZodObject>(
  schema: S,
  io: 'input' | 'output',
): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  let json: Json | undefined;
  const build = (): Json => {
    // An output schema is advertised as what every zod object converts to at its top, without converting it:
    // the SDK asks for it on a tool's first call, where converting the whole schema cost ~5 ms (cold start).
    if (io === 'output') return { type: 'object' };
    const { $schema: _dialect, ...full } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Json;
    return full;
  };
  const standard = schema['~standard'];
  const emit = () => (json ??= build());
  return {
    '~standard': {
      version: 1,
      vendor: 'hestai',
      validate: (value: unknown) => standard.validate(value),
      jsonSchema: { input: emit, output: emit },
    },
  };
}
