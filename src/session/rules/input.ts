import { CONTROL } from '../../util/text.js';
import { usageError } from '../../errors.js';
import { ROLE_PATTERN } from '../../records/session.js';
import { upperCaseRole } from '../../records/roles.js';
import { quoteInput } from '../../util/quote.js';

export { ROLE_PATTERN };
export const MAX_FOCUS_LENGTH = 500;
export const MAX_SUMMARY_LENGTH = 4000;
export const CONFLICT_RESOLUTIONS = ['continue', 'abort', 'takeover'] as const;
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];

/** Validates an untrusted role (exit 2 with `ROLE_INVALID` otherwise). */
export function validateRole(role: unknown): string {
  const cased = typeof role === 'string' ? upperCaseRole(role) : null;
  if (cased !== null) {
    throw usageError(`invalid role ${quoteInput(role)}: ${cased.reason}`, {
      code: 'ROLE_INVALID',
      remedy: `Use "${cased.lower}": hestai clock-in --role ${cased.lower}`,
    });
  }
  if (typeof role !== 'string' || !ROLE_PATTERN.test(role)) {
    throw usageError(
      `invalid role ${quoteInput(role)}: expected lower-case letters, digits and hyphens (e.g. implementation-lead)`,
      {
        code: 'ROLE_INVALID',
        remedy: 'Pass --role like "implementation-lead": 1-64 characters of a-z, 0-9 and "-", not starting with "-".',
      },
    );
  }
  return role;
}

/** Trims an optional focus; whitespace-only is absent. Control characters and >500 chars: exit 2. */
export function normalizeFocus(focus: unknown): string | undefined {
  if (focus === undefined || focus === null) return undefined;
  if (typeof focus !== 'string') throw usageError('focus must be a string', { code: 'FOCUS_INVALID' });
  const trimmed = focus.trim();
  if (trimmed === '') return undefined;
  if (CONTROL.test(trimmed)) {
    throw usageError(`focus ${quoteInput(trimmed)} contains control characters or line breaks`, {
      code: 'FOCUS_INVALID',
      remedy: 'Pass the focus as one line of plain text.',
    });
  }
  if (trimmed.length > MAX_FOCUS_LENGTH) {
    throw usageError(`focus is ${trimmed.length} characters long (at most ${MAX_FOCUS_LENGTH})`, {
      code: 'FOCUS_INVALID',
      remedy: 'Summarise the focus in one sentence.',
    });
  }
  return trimmed;
}

/** A clock-out summary as one line: line breaks fold into spaces, other control characters: exit 2. */
export function normalizeSummary(summary: unknown): string {
  if (summary === undefined || summary === null) return '';
  if (typeof summary !== 'string') throw usageError('summary must be a string', { code: 'SUMMARY_INVALID' });
  const folded = summary
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  if (CONTROL.test(folded)) {
    throw usageError('summary contains control characters', { code: 'SUMMARY_INVALID', remedy: 'Pass plain text.' });
  }
  if (folded.length > MAX_SUMMARY_LENGTH) {
    throw usageError(`summary is ${folded.length} characters long (at most ${MAX_SUMMARY_LENGTH})`, {
      code: 'SUMMARY_INVALID',
    });
  }
  return folded;
}

/** The conflict resolution (CI-I5); defaults to `continue`. */
export function validateOnConflict(value: unknown): ConflictResolution {
  if (value === undefined || value === null) return 'continue';
  if (!CONFLICT_RESOLUTIONS.includes(value as ConflictResolution)) {
    throw usageError(`invalid conflict resolution ${quoteInput(value)}`, {
      remedy: 'Use --on-conflict continue, abort or takeover.',
    });
  }
  return value as ConflictResolution;
}

/** What a clock-in does with stale neighbours (seed 000 §7): archive them, or leave them as they are. */
export type StaleDecision = 'cleanup' | 'continue';

/** The caller's answer to the stale-session offer; undefined when the caller has not chosen. */
export function validateOnStale(value: unknown): StaleDecision | undefined {
  if (value === undefined || value === null) return undefined;
  if (value !== 'cleanup' && value !== 'continue') {
    throw usageError(`invalid stale-session decision ${quoteInput(value)}`, {
      code: 'USAGE',
      remedy: 'Use --on-stale cleanup or continue.',
    });
  }
  return value;
}

/** An optional model name: trimmed, whitespace-only is absent, one line of at most 200 characters. */
export function validateModel(model: unknown): string | undefined {
  if (model === undefined || model === null) return undefined;
  if (typeof model !== 'string') throw usageError('model must be a string', { code: 'MODEL_INVALID' });
  const trimmed = model.trim();
  if (trimmed === '' && !CONTROL.test(model.replace(/[ \t]/g, ''))) return undefined;
  if (CONTROL.test(model) || trimmed.length > 200) {
    throw usageError(`invalid model name ${quoteInput(trimmed)}`, {
      code: 'MODEL_INVALID',
      remedy: 'Pass a model name like gpt-4o-mini.',
    });
  }
  return trimmed;
}

/** Pure: clock-out's checklist choice — `'all'`, the named items (exact texts), or none (everything DONE). */
export function validateCarry(carry: unknown, carryAll: unknown): 'all' | string[] {
  const list = carry === undefined || carry === null ? [] : carry;
  if (!Array.isArray(list) || !list.every((c) => typeof c === 'string' && c.trim() !== '' && !CONTROL.test(c)))
    throw usageError('carry must be a list of checklist item texts (one line each, not empty)', {
      code: 'CARRY_INVALID',
      remedy: 'Name each item exactly as it appears in PENDING of .hestai/context/state/checklist.oct.md.',
    });
  if (carryAll === true && list.length > 0)
    throw usageError('--carry-all and --carry ITEM cannot be combined', {
      code: 'CARRY_INVALID',
      remedy: 'Use --carry-all to carry every item of the session forward, or --carry ITEM for named ones.',
    });
  return carryAll === true ? 'all' : list.map((c: string) => c.trim());
}
