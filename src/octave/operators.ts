/**
 * OCTAVE operators and their ASCII aliases. The parser keeps values as written; callers normalize only
 * where an operator is meant, because `+` and `->` also occur in ordinary text.
 */

/** The operators: synthesis `⊕`, tension `⇌` and flow `→`. */
export const OPERATORS = { synthesis: '⊕', tension: '⇌', flow: '→' } as const;

/** Converts the ASCII aliases `<->` to `⇌` and `->` to `→` (`+` is left alone; see below). */
export function normalizeOperators(text: string): string {
  return text.replaceAll('<->', OPERATORS.tension).replaceAll('->', OPERATORS.flow);
}
