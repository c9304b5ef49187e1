/** The most characters of an untrusted input an error message quotes. */
export const MAX_QUOTED_INPUT = 80;

/**
 * Quotes an untrusted input for a message: JSON-escaped (control characters visible), and cut to
 * `max` characters with the full length named, so a multi-megabyte argument never comes back whole.
 */
export function quoteInput(value: unknown, max = MAX_QUOTED_INPUT): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max))}… (${text.length} characters)`;
}

/** Cuts any text (a message, a detail line) to `max` characters, saying how much was left out. */
export function truncateText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** POSIX single quotes: everything inside is literal (`'` becomes `'\\''`), so `$`, backticks and spaces are inert. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
