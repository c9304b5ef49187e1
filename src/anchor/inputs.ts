/** Validation of the untrusted inputs of the anchor entry points (usage errors, exit 2). */
import { hasControl } from '../util/text.js';
import { usageError } from '../errors.js';
import { UUID_V4 } from '../util/validate.js';
import { STRICTNESS, type Strictness } from '../records/anchor.js';
import { MODES, STAGES, type AnchorMode, type AnchorStage } from './results.js';
import { quoteInput } from '../util/quote.js';

/** Largest payload or vector accepted (a vector is a few hundred bytes). */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], flag: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw usageError(`${name} ${quoteInput(value)} is not one of ${allowed.join(', ')}`, {
      code: `${name.toUpperCase()}_INVALID`,
      remedy: `Pass ${flag} ${allowed.join('|')}.`,
    });
  }
  return value as T;
}

export const parseStage = (v: unknown): AnchorStage => oneOf('stage', v, STAGES, '--stage');
export const parseMode = (v: unknown): AnchorMode => oneOf('mode', v, MODES, '--mode');
export const parseStrictness = (v: unknown, flag = '--strictness'): Strictness =>
  oneOf('strictness', v, STRICTNESS, flag);

export function parseToken(v: unknown, what = 'token'): string {
  if (v === undefined || v === null || v === '')
    throw usageError(`the ${what} is missing: this stage continues the handshake of one session`, {
      code: 'TOKEN_MISSING',
      remedy: `Pass --token <session_id> (MCP: session_id), the ${what} clock-in or the identity stage returned.`,
    });
  if (typeof v !== 'string' || !UUID_V4.test(v)) {
    throw usageError(`${what} ${quoteInput(v)} is not a session token (a lower-case UUID v4)`, {
      code: 'TOKEN_INVALID',
      remedy: `Pass the ${what} returned by clock-in or the identity stage.`,
    });
  }
  return v;
}

export function parseTopic(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > 200 || hasControl(v)) {
    throw usageError('topic must be one line of at most 200 characters', {
      code: 'TOPIC_INVALID',
      remedy: 'Pass a short topic, e.g. --topic "clock-in command".',
    });
  }
  return v.trim();
}

export function parsePayload(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.trim() === '') {
    throw usageError(`${what} is empty`, {
      code: 'PAYLOAD_MISSING',
      remedy: 'Pass the OCTAVE sections (--payload-file FILE, or - for stdin).',
    });
  }
  if (Buffer.byteLength(v) > MAX_PAYLOAD_BYTES) {
    throw usageError(`${what} is larger than ${MAX_PAYLOAD_BYTES} bytes`, {
      code: 'PAYLOAD_TOO_LARGE',
      remedy: 'Submit only the sections the stage asks for.',
    });
  }
  return v;
}
