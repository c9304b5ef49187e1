import { ancestorsAmong } from '../git/anchors.js';
import type { CommitFacts } from '../tdd/commit.js';
import { lastTrailer } from '../tdd/trailers.js';
import { FULL_DIGEST, type AnchorEvidence } from './anchor-rule.js';
import { coveredQueries, type AncestryGraph, type AncestryQuery, type GraphCommit } from './record-ancestry.js';

/**
 * Whether each cited record's HEAD is in the citing commit's history (as {@link queryKey}s): from the commits
 * read so far (`known`: the graph of the walk, or the batch), git asked only past them
 * (src/verify/record-ancestry.ts; parents come before children, so a HEAD in a later batch is never an ancestor).
 */
export function coveredHeads(
  root: string,
  known: AncestryGraph | readonly GraphCommit[],
  inRange: readonly { f: CommitFacts }[],
  evidence: AnchorEvidence,
): Set<string> {
  const queries: AncestryQuery[] = [];
  for (const { f } of inRange) {
    const m = FULL_DIGEST.exec(lastTrailer(f.trailers, 'HestAI-Anchor') ?? '');
    const head = m ? evidence.records.get(m[1]!)?.record?.head : null;
    if (head) queries.push({ sha: f.sha, head });
  }
  return coveredQueries(known, queries, (heads, tip) => ancestorsAmong(root, heads, tip), { ordered: true });
}
