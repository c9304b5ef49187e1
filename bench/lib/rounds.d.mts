/** Type declarations for rounds.mjs, so tests type-check. */
export function roundsOf(
  group: {
    warmups?: (opts: { quick: boolean; warmups: number; iterations: number }) => number;
    iterations?: (opts: { quick: boolean; warmups: number; iterations: number }) => number;
  },
  opts: { quick: boolean; warmups: number | null; iterations: number | null },
): { warmups: number; iterations: number };
