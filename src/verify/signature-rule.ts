/**
 * The `signature` verdict of `hestai verify` (pure; issue 39), under the base's `verify.signatures`: the
 * commit's proof record has an owner (the allowed key that signed the anchors commit adding it, checked by
 * git against the base's `.hestai/allowed_signers`), a coverage record that owner signed lists the commit
 * (by id, by `git patch-id`, or as the squash of a pushed branch), and the session's protocol runs were
 * signed by that owner. `warn`: each problem is a warning; `required`: an error, and runs their owner did
 * not sign do not count (src/verify/commit-verdicts.ts).
 */
import type { CommitFacts } from '../tdd/commit.js';
import { lastTrailer } from '../tdd/trailers.js';
import type { Verdict } from '../tdd/verdict.js';
import type { Owned } from '../evidence/store.js';
import type { CoverageRecord } from '../evidence/schemas.js';
import { ownerName, type Signature } from '../evidence/signatures.js';
import type { ProtocolRunRecord } from '../records/protocol-record.js';
import { FULL_DIGEST, type AnchorEvidence } from './anchor-rule.js';

export type SignaturesLevel = 'warn' | 'required';

const HINT =
  'commit and push from an anchored session on the machine whose key the base .hestai/allowed_signers lists, with git signing (npx hestai doctor prints the command that sets it up)';

/** The key that owns the record the commit cites, or null (none, or signatures not checked). */
export function commitOwner(commit: CommitFacts, evidence: AnchorEvidence): Signature | null {
  const m = FULL_DIGEST.exec(lastTrailer(commit.trailers, 'HestAI-Anchor') ?? '');
  const ownership = m ? evidence.records.get(m[1]!)?.ownership : undefined;
  return ownership?.owner ?? null;
}

/** Pure: does a coverage record of `owner` list the commit (its id, its patch-id, or its branch's patch-id)? */
export function coveredBy(
  list: readonly Owned<CoverageRecord>[],
  owner: Signature,
  sha: string,
  patchId: string | null,
): Owned<CoverageRecord> | null {
  for (const c of list) {
    if (c.ownership.owner?.key !== owner.key) continue;
    const r = c.value;
    if (r.commits.some((x) => x.id === sha || (patchId !== null && x.patch_id === patchId))) return c;
    if (patchId !== null && r.patch_id === patchId) return c;
  }
  return null;
}

/** The session's protocol runs its owner did not sign. */
export function unownedRuns(
  runs: readonly Owned<ProtocolRunRecord>[],
  owner: Signature | null,
): Owned<ProtocolRunRecord>[] {
  return runs.filter((r) => owner === null || r.ownership.owner?.key !== owner.key);
}

export function checkSignature(
  commit: CommitFacts,
  found: {
    evidence: AnchorEvidence;
    runs: ReadonlyMap<string, readonly Owned<ProtocolRunRecord>[]> | null;
    patchIds: ReadonlyMap<string, string>;
  },
  level: SignaturesLevel,
): Verdict | null {
  if (commit.kind === 'merge' || lastTrailer(commit.trailers, 'HestAI-Bypass') !== null) return null;
  const trailer = lastTrailer(commit.trailers, 'HestAI-Anchor');
  const m = FULL_DIGEST.exec(trailer ?? '');
  const session = lastTrailer(commit.trailers, 'HestAI-Session');
  const e = m ? found.evidence.records.get(m[1]!) : undefined;
  if (!m || !e?.record || !e.ownership || session === null) return null; // the anchor verdict says why
  const problems: string[] = [];
  const notes: string[] = [];
  const owner = e.ownership.owner;
  const record = `records/${m[1]}.json`;
  if (owner === null) problems.push(`the proof record ${record} has no owner: ${e.ownership.problem}`);
  else {
    const coverage = found.evidence.coverage?.get(session) ?? [];
    if (coveredBy(coverage, owner, commit.sha, found.patchIds.get(commit.sha) ?? null) === null)
      problems.push(
        `no coverage record signed by the session's owner ${ownerName(owner)} lists this commit by id or git patch-id (trailers copied from another commit, or a push without the hooks)`,
      );
  }
  for (const run of unownedRuns(found.runs?.get(session) ?? [], owner))
    notes.push(
      `the protocol run ${run.path} is not signed by the session's owner (${run.ownership.owner ? `signed by ${ownerName(run.ownership.owner)}` : run.ownership.problem}): ${level === 'required' ? 'it does not count' : 'under verify.signatures: required it would not count'}`,
    );
  const ownerField = owner ? { owner: { signer: owner.signer, key: owner.key } } : {};
  if (problems.length === 0 && notes.length === 0)
    return {
      rule: 'signature',
      clause: 'verify.signatures',
      status: 'pass',
      message: `session ${session} is owned by ${ownerName(owner!)}, who signed its proof record ${record} and a coverage record listing this commit`,
      ...ownerField,
    };
  const status = problems.length > 0 ? (level === 'required' ? 'fail' : 'warn') : 'warn';
  return {
    rule: 'signature',
    clause: 'verify.signatures',
    status,
    message: `commit ${commit.sha.slice(0, 7)}, anchor ${trailer}: ${[...problems, ...notes].join('; ')} (verify.signatures: ${level}). hint: ${problems.length > 0 ? HINT : 'a run for this session was published by someone else; the owner can publish theirs with hestai session end'}`,
    ...ownerField,
  };
}
