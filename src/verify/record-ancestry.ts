/**
 * Does a proof record's HEAD lie in a commit's history (issue 24 item 4)? A record proves the tree the
 * session anchored at; it covers only commits that descend from that tree's commit. Answered from the
 * commits verify already read (sha and parents, in any order): one pass per 32 HEADs, from the lowest
 * of them to the highest commit asked about, each commit carrying a bit per HEAD it descends from. A HEAD
 * outside them (in an earlier batch, anchored before the branch's base, or made up) is asked of git where
 * that history ends (`outside`: one `git rev-list` per parent outside them, for all such HEADs at once).
 */

/** One commit as verify read it. */
export interface GraphCommit {
  sha: string;
  parents: readonly string[];
}

/** A question: is `head` a strict ancestor of `sha`? (never `sha` itself: a record anchored at the commit was made after it) */
export interface AncestryQuery {
  sha: string;
  head: string;
}

/** The key of a query in the answer set. */
export const queryKey = (q: AncestryQuery) => `${q.sha} ${q.head}`;

/** Parents before children: by generation (1 + the highest generation among the parents read). */
function parentsFirst(commits: readonly GraphCommit[], parents: ReadonlyMap<string, readonly string[]>): string[] {
  const generation = new Map<string, number>();
  for (const c of commits) {
    const stack = [c.sha];
    while (stack.length > 0) {
      const x = stack[stack.length - 1]!;
      if (generation.has(x)) {
        stack.pop();
        continue;
      }
      let g = 0;
      let pending = false;
      for (const p of parents.get(x)!) {
        if (!parents.has(p)) continue;
        const pg = generation.get(p);
        if (pg === undefined) {
          stack.push(p);
          pending = true;
        } else g = Math.max(g, pg);
      }
      if (!pending) {
        generation.set(x, g + 1);
        stack.pop();
      }
    }
  }
  return [...generation.keys()].sort((a, b) => generation.get(a)! - generation.get(b)!);
}

/**
 * The commits read so far, parents before children, with what each pass needs: a position per sha, each
 * commit's parents as positions (-1 outside), and the commits with a parent outside them. Grown batch by
 * batch ({@link growGraph}) instead of built again from every commit read for each batch.
 */
export interface AncestryGraph {
  order: string[];
  index: Map<string, number>;
  parentIndexes: number[][];
  /** Commits (by position) with parents outside the graph, and those parents. */
  boundary: { i: number; outer: readonly string[] }[];
}

export const ancestryGraph = (): AncestryGraph => ({ order: [], index: new Map(), parentIndexes: [], boundary: [] });

/** Adds commits that come parents first (after every commit already in the graph). */
export function growGraph(graph: AncestryGraph, commits: readonly GraphCommit[]): void {
  for (const c of commits) {
    if (graph.index.has(c.sha)) continue;
    const i = graph.order.length;
    graph.order.push(c.sha);
    graph.index.set(c.sha, i);
    graph.parentIndexes.push(c.parents.map((p) => graph.index.get(p) ?? -1));
    const outer = c.parents.filter((p) => !graph.index.has(p));
    if (outer.length > 0) graph.boundary.push({ i, outer });
  }
}

/**
 * The queries whose HEAD is a strict ancestor of their commit, as `queryKey`s (`commits` in any order, or
 * parents before children with `ordered`, or an {@link AncestryGraph} grown parents first). `outside(heads, descendant)`
 * gives those of `heads` that are ancestors of (or equal to) a commit outside `commits`; it is asked once
 * per such parent, only about HEADs outside them.
 */
export function coveredQueries(
  commits: readonly GraphCommit[] | AncestryGraph,
  queries: readonly AncestryQuery[],
  outside: (heads: readonly string[], descendant: string) => ReadonlySet<string>,
  options: { ordered?: boolean } = {},
): Set<string> {
  const covered = new Set<string>();
  if (queries.length === 0) return covered;
  let graph: AncestryGraph;
  if (Array.isArray(commits)) {
    const list = commits as readonly GraphCommit[];
    // `ordered`: `commits` already come parents first (verify reads them in that order), no need to sort them.
    let ordered = list;
    if (options.ordered !== true) {
      const bySha = new Map(list.map((c) => [c.sha, c]));
      const parents = new Map(list.map((c) => [c.sha, c.parents]));
      ordered = parentsFirst(list, parents).map((sha) => bySha.get(sha)!);
    }
    graph = ancestryGraph();
    growGraph(graph, ordered);
  } else graph = commits as AncestryGraph;
  const { order, index, parentIndexes, boundary } = graph;
  // Per parent outside the graph, which of the HEADs outside it are its ancestors: one question each.
  const outsideHeads = [...new Set(queries.map((q) => q.head).filter((h) => !index.has(h)))];
  const reach = new Map<string, ReadonlySet<string>>();
  const ask = (head: string, parent: string) => {
    if (head === parent) return true;
    let r = reach.get(parent);
    if (r === undefined) reach.set(parent, (r = outside(outsideHeads, parent)));
    return r.has(head);
  };
  const inGraph: AncestryQuery[] = [];
  for (const q of queries) {
    if (q.sha === q.head) continue;
    if (index.has(q.sha)) inGraph.push(q);
    else if (outside([q.head], q.sha).has(q.head)) covered.add(queryKey(q));
  }
  if (inGraph.length === 0) return covered;
  // HEADs in history order (those outside first), 32 to a pass: a pass walks only from its lowest HEAD
  // to its highest commit asked about, so HEADs near their commits cost little however long the history.
  const position = (head: string) => index.get(head) ?? -1;
  const heads = [...new Set(inGraph.map((q) => q.head))].sort((x, y) => position(x) - position(y));
  const slot = new Map(heads.map((h, k) => [h, k]));
  const passes: { lo: number; hi: number; queries: { i: number; bit: number; key: string }[] }[] = [];
  for (let k = 0; k < heads.length; k += 32) passes.push({ lo: Math.max(0, position(heads[k]!)), hi: 0, queries: [] });
  for (const q of inGraph) {
    const k = slot.get(q.head)!;
    const pass = passes[k >> 5]!;
    const i = index.get(q.sha)!;
    pass.hi = Math.max(pass.hi, i);
    pass.queries.push({ i, bit: 1 << (k & 31), key: queryKey(q) });
  }
  // A HEAD read here cannot be an ancestor of a parent outside them (that parent is reachable from the
  // base, the HEAD is not): git is asked only about HEADs outside.
  const masks = new Int32Array(order.length);
  const own = new Int32Array(order.length);
  passes.forEach((pass, n) => {
    const chunk = heads.slice(n * 32, n * 32 + 32);
    masks.fill(0);
    own.fill(0);
    chunk.forEach((h, b) => {
      const i = index.get(h);
      if (i !== undefined) own[i]! |= 1 << b;
    });
    for (const { i, outer } of boundary)
      chunk.forEach((h, b) => {
        if (!index.has(h) && outer.some((p) => ask(h, p))) masks[i]! |= 1 << b;
      });
    // A commit descends from a HEAD when a parent is it or descends from it.
    for (let i = pass.lo; i <= pass.hi; i++) {
      let m = masks[i]!;
      for (const p of parentIndexes[i]!) if (p >= 0) m |= masks[p]! | own[p]!;
      masks[i] = m;
    }
    for (const q of pass.queries) if ((masks[q.i]! & q.bit) !== 0) covered.add(q.key);
  });
  return covered;
}
