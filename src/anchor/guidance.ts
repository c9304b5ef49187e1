/** Retry guidance in seed 002's format: `VALIDATION FAILED: [...]. RETRY: [...]`, plus corrected templates. Pure. */
import { MAX_RETRIES } from './constants.js';
import { errorLine, type Violation } from './rules/types.js';

export interface RetryState {
  /** Failed submissions of this stage so far, including this one. */
  failures: number;
  terminal: boolean;
}

/** One guidance text for a failed validation. */
export function formatGuidance(
  violations: readonly Violation[],
  templates: readonly { section: string; text: string }[],
  retry?: RetryState,
): string {
  const fixes = [...new Set(violations.map((v) => v.fix))];
  const parts = [`VALIDATION FAILED: [${violations.map(errorLine).join(', ')}]. RETRY: [${fixes.join(' ')}]`];
  if (retry !== undefined) parts.push(retryLine(retry));
  for (const t of templates) parts.push(`Corrected template for ${t.section}:\n${t.text}`);
  return parts.join('\n\n');
}

/** How many submissions remain, or that the handshake is terminal. */
export function retryLine(retry: RetryState): string {
  if (retry.terminal) {
    return `TERMINAL: ${retry.failures} failed submissions (the first and ${MAX_RETRIES} retries); the session stays locked until a human runs "hestai anchor reset --token <token>".`;
  }
  const left = MAX_RETRIES + 1 - retry.failures;
  return `Attempt ${retry.failures} of ${MAX_RETRIES + 1} failed; ${left} ${left === 1 ? 'retry' : 'retries'} left.`;
}
