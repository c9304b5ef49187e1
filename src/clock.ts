import { usageError } from './errors.js';
import { quoteInput } from './util/quote.js';

/**
 * The clock is injected (STYLE.md §8) so that the 24 h, 72 h and 30-day rules are tested and demonstrated
 * without sleeping and without mocking the world.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/**
 * The clock the CLI, hooks and MCP server use. `HESTAI_NOW` (an ISO-8601 instant) pins the time, for the
 * demo and tests; it is documented in the README as a testing aid. It grants nothing a local user could
 * not already do by editing `.hestai/` (see the threat model): `hestai verify` in CI is the backstop.
 */
/** An ISO-8601 instant with a time and a zone (Date.parse alone accepts "1" or "Tuesday"). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const pinned = env['HESTAI_NOW'];
  if (pinned === undefined || pinned === '') return systemClock;
  const ms = ISO_INSTANT.test(pinned) ? Date.parse(pinned) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw usageError(`HESTAI_NOW is not an ISO-8601 instant: ${quoteInput(pinned)}`, {
      remedy: 'Unset HESTAI_NOW, or set it like HESTAI_NOW=2026-01-31T12:00:00Z.',
      code: 'ENV_INVALID',
    });
  }
  return () => new Date(ms);
}

/**
 * The `HESTAI_NOW` value when it pins the clock, else null. The git hooks honour it only loudly (a warning,
 * and a `HestAI-Clock` trailer that `hestai verify` lists); the agent-runtime hooks ignore it.
 */
export function pinnedClock(env: NodeJS.ProcessEnv = process.env): string | null {
  const pinned = env['HESTAI_NOW'];
  return pinned === undefined || pinned === '' ? null : pinned;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
