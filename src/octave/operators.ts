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

const ARCHETYPE = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Joins archetype names with `⊕`: `'ATHENA+HERMES'` → `'ATHENA⊕HERMES'` (spaces around `+`/`⊕` are
 * dropped). Text that is not a join of two or more names (letters first, then letters, digits or `_`),
 * such as `'C++'` or `'1+1'`, is returned unchanged.
 */
export function normalizeArchetypeJoin(text: string): string {
  const names = text.trim().split(/ *[+⊕] */);
  if (names.length < 2 || !names.every((name) => ARCHETYPE.test(name))) return text;
  return names.join(OPERATORS.synthesis);
}
