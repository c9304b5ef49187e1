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
  payload: 64 * 1024,
  vector: 128 * 1024,
} as const;

export const workingDir = z.string().max(LIMITS.path).describe('Absolute path of the repository you work in.');

export const sessionId = z.string().max(LIMITS.id).describe('The session_id clock_in returned (a UUID v4).');

export const optionalSessionId = sessionId.optional().describe("Default: this connection's session.");

export const role = z.string().max(LIMITS.role);

/**
 * A strict input object: an unknown key is an error naming it and the nearest known one (`sessionId` →
 * "did you mean session_id?"), instead of being dropped silently.
 */
/** Names an agent may know from the CLI or older versions, and the one name each concept has over MCP. */
const RENAMED: Record<string, string> = {
  token: 'session_id',
  sessionId: 'session_id',
  strictness: 'tier',
  topic: 'focus',
  workingDir: 'working_dir',
};

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
