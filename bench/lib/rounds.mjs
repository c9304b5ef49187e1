// How many warm-ups and measured iterations a group runs: --warmups / --iterations when given (always
// win), else the group's own counts (mcp-calls needs hundreds for the JIT; verify caps its slow runs),
// which see the defaults in `opts`, else the defaults (--quick: a smoke test).

/**
 * @param {{ warmups?: (opts: object) => number, iterations?: (opts: object) => number }} group
 * @param {{ quick: boolean, warmups: number | null, iterations: number | null }} opts
 * @returns {{ warmups: number, iterations: number }}
 */
export function roundsOf(group, opts) {
  const defaults = { ...opts, warmups: opts.quick ? 1 : 2, iterations: opts.quick ? 3 : 15 };
  return {
    warmups: opts.warmups ?? group.warmups?.(defaults) ?? defaults.warmups,
    iterations: opts.iterations ?? group.iterations?.(defaults) ?? defaults.iterations,
  };
}
