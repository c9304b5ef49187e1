/**
 * Reads, from git objects alone, what `hestai verify` needs to re-validate anchors: the published
 * anchors branches (`hestai/anchors`, local and every remote's), the proof records the commits name, the
 * events of their sessions (all read through src/evidence/store.ts), and the cited files at each record's
 * HEAD. A fixed number of git questions per batch of commits, through one git cat-file per run.
 */
import type { AnchorEvidence, RecordEvidence } from '../verify/anchor-rule.js';
import { declaredCognition } from './constitution.js';
import { recordPath } from '../records/proof-record.js';
import { citedPath } from '../paths.js';
import { countLines } from './ctx-probe.js';
import { commitProbePaths } from './rules/commit.js';
import type { CtxProbe, CtxTarget } from './rules/types.js';
import { validateVector } from './validate.js';
import { openEvidence, type EvidenceStore } from '../evidence/store.js';
import type { EvidenceDeps } from '../verify/run.js';
import type { ProtocolRuns } from '../verify/protocol-run-rule.js';

const CTX = /CTX:([^[\]\s]*)\[/g;
const RANGE = /^(.*?):(\d+)(?:-(\d+))?$/;

/**
 * Every path the rules look up for a canonical anchor: its CTX citations (with whether a line range was
 * given) and the paths the COMMIT rule asks about (the ARTIFACT, its directory, a GATE script).
 */
function citations(canonical: string): { path: string; ranged: boolean }[] {
  const out: { path: string; ranged: boolean }[] = [];
  // Each keyed as the rules look it up (paths.ts citedPath: `src//a.ts` is `src/a.ts`, as in git's tree).
  const key = (p: string) => {
    const cited = citedPath(p);
    return 'rel' in cited ? cited.rel : p;
  };
  for (const m of canonical.matchAll(CTX)) {
    const r = RANGE.exec(m[1]!);
    out.push(r ? { path: key(r[1]!), ranged: true } : { path: key(m[1]!), ranged: false });
  }
  const artifact = ARTIFACT_LINE.exec(canonical)?.[1] ?? '';
  const gate = GATE_LINE.exec(canonical)?.[1] ?? '';
  for (const p of commitProbePaths(artifact, gate)) out.push({ path: p, ranged: false });
  return out;
}
const ARTIFACT_LINE = /^ARTIFACT::(.*)$/m;
const GATE_LINE = /^GATE::(.*)$/m;

export const constitutionPath = (role: string) => `.hestai-sys/agents/${role}.oct.md`;

/**
 * The readers `hestai verify` takes (its deps: verify sits below anchor/, whose rules it re-runs here) for one
 * run, sharing one evidence store per repository (src/evidence/store.ts: one walk of hestai/anchors, one git
 * cat-file).
 */
export function verifyEvidenceReaders(options: { tips?: readonly { ref: string; oid: string }[] } = {}): {
  anchorEvidence: (
    root: string,
    digests: ReadonlySet<string>,
    sessions: ReadonlySet<string>,
  ) => Promise<AnchorEvidence>;
  protocolRuns: (root: string, sessions: ReadonlySet<string>) => Promise<ProtocolRuns>;
  /** The change records and warnings of the same stores, and the range's base they leave out (src/verify/run.ts). */
  evidence: EvidenceDeps;
  /** Ends the run's git cat-file (call it when verify is done). */
  close(): void;
} {
  const stores = new Map<string, EvidenceStore>();
  let exclude: readonly string[] = [];
  let signers: { allowed: string | null } | null = null;
  const store = (root: string) => {
    let view = stores.get(root);
    if (view === undefined)
      stores.set(root, (view = openEvidence(root, { exclude, ...options, ...(signers === null ? {} : { signers }) })));
    return view;
  };
  const signed = () => signers !== null;
  return {
    anchorEvidence: (root, digests, sessions) =>
      gatherAnchorEvidence(root, digests, sessions, store(root), { signed: signed() }),
    protocolRuns: (root, sessions) => gatherProtocolRuns(root, sessions, store(root), { signed: signed() }),
    evidence: {
      exclude: (revisions) => (exclude = [...revisions]),
      signers: (allowed) => (signers = { allowed }),
      changeRecords: (root) => store(root).changeRecords(),
      warnings: () => [...stores.values()].flatMap((s) => s.warnings()),
    },
    close: () => {
      for (const view of stores.values()) view.close();
    },
  };
}

/**
 * Gathers the evidence for `digests` (hex) and the events of `sessions`. `hestai verify` receives this
 * through its deps (verify sits below anchor/, whose rules it re-runs here).
 */
export async function gatherAnchorEvidence(
  _root: string,
  digests: ReadonlySet<string>,
  sessions: ReadonlySet<string>,
  store: EvidenceStore,
  options: { signed?: boolean } = {},
): Promise<AnchorEvidence> {
  const refs = store.refs();
  const records = new Map<string, RecordEvidence>();
  if (refs.length === 0 || digests.size === 0) return { refs: refs.map((r) => r.ref), records, events: new Map() };

  // 1. The records and the sessions' events (and coverage, under verify.signatures), from every version
  // hestai/anchors ever published (src/evidence).
  const [found, events, coverage] = await Promise.all([
    store.proofRecords(digests),
    store.events(sessions),
    options.signed ? store.coverage(sessions) : undefined,
  ]);
  const good: RecordEvidence[] = [];
  for (const digest of digests) {
    const evidence: RecordEvidence = { digest, problem: null, record: null, headMissing: false, ruleErrors: [] };
    records.set(digest, evidence);
    const lookup = found.get(digest);
    if (!lookup || 'problem' in lookup) {
      evidence.problem = lookup?.problem ?? `no proof record ${recordPath(digest)}`;
      continue;
    }
    evidence.record = lookup.record;
    if (lookup.ownership) evidence.ownership = lookup.ownership;
    good.push(evidence);
  }

  // 3. What each record's HEAD holds: the cited paths and the role's constitution (one cat-file --batch-check).
  const specs: string[] = [];
  const cited = new Map<RecordEvidence, { path: string; ranged: boolean }[]>();
  for (const e of good) {
    const { head, role, canonical_anchor } = e.record!;
    if (head === null) continue;
    cited.set(e, citations(canonical_anchor));
    specs.push(`${head}:${constitutionPath(role)}`);
    for (const c of cited.get(e)!) specs.push(`${head}:${c.path}`);
  }
  const checked = await store.cat(specs, { content: false });
  // Whether a HEAD is in this clone at all is asked only where none of its paths were found.
  const unresolved = new Set<string>();
  for (const e of good) {
    const { head, role } = e.record!;
    if (head === null) continue;
    const paths = [constitutionPath(role), ...cited.get(e)!.map((c) => c.path)];
    if (paths.some((p) => checked.get(`${head}:${p}`)?.found))
      checked.set(`${head}^{commit}`, { found: true, oid: head, type: 'commit', size: 0 });
    else unresolved.add(`${head}^{commit}`);
  }
  for (const [spec, answer] of await store.cat([...unresolved], { content: false })) checked.set(spec, answer);
  // 4. The bytes of ranged citations and constitutions, each blob once (one cat-file --batch).
  const wanted = new Set<string>();
  for (const e of good) {
    const { head, role } = e.record!;
    if (head === null) continue;
    const constitution = checked.get(`${head}:${constitutionPath(role)}`);
    if (constitution?.found && constitution.type === 'blob') wanted.add(constitution.oid);
    for (const c of cited.get(e)!) {
      const obj = checked.get(`${head}:${c.path}`);
      if (c.ranged && obj?.found && obj.type === 'blob') wanted.add(obj.oid);
    }
  }
  const contents = await store.cat([...wanted], { content: true });
  const lineCounts = new Map<string, number>();

  // 5. The RAPH v4.0 rules, re-run against the recorded HEAD's tree.
  for (const e of good) {
    const { head, role, tier, canonical_anchor } = e.record!;
    if (head === null) {
      e.ruleErrors.push('the record has no HEAD (anchored before the first commit): its citations cannot be checked');
      continue;
    }
    if (!checked.get(`${head}^{commit}`)?.found) {
      e.headMissing = true;
      continue;
    }
    const probe: CtxProbe = (relative): CtxTarget => {
      const obj = checked.get(`${head}:${relative}`);
      if (!obj?.found) return { kind: 'missing' };
      if (obj.type === 'tree') return { kind: 'dir' };
      if (obj.type !== 'blob') return { kind: 'missing' };
      let lines = lineCounts.get(obj.oid);
      if (lines === undefined) {
        const content = contents.get(obj.oid);
        lines = content?.found && content.content ? countLines(content.content) : 0;
        lineCounts.set(obj.oid, lines);
      }
      return { kind: 'file', lines };
    };
    const constitution = checked.get(`${head}:${constitutionPath(role)}`);
    if (!constitution?.found || constitution.type !== 'blob') {
      e.ruleErrors.push(
        `ROLE_CONSTITUTION_MISSING: ${constitutionPath(role)} does not exist at the recorded HEAD ${head.slice(0, 7)}`,
      );
      continue;
    }
    const text = contents.get(constitution.oid);
    const cognition = text?.found && text.content ? declaredCognition(text.content.toString('utf8')) : null;
    const v = validateVector(canonical_anchor, { part: 'vector', role, strictness: tier, probe, cognition });
    e.ruleErrors.push(...v.errors);
  }
  return { refs: refs.map((r) => r.ref), records, events, ...(coverage ? { coverage } : {}) };
}

/**
 * The protocol run records (`protocol/<session>/<sha256>.json`) of `sessions` ever published on the anchors
 * branches this clone knows, per session id (a record whose bytes do not hash to its name is left out).
 */
export async function gatherProtocolRuns(
  _root: string,
  sessions: ReadonlySet<string>,
  store: EvidenceStore,
  options: { signed?: boolean } = {},
): Promise<ProtocolRuns> {
  const refs = store.refs();
  if (refs.length === 0 || sessions.size === 0) return { refs: refs.map((r) => r.ref), runs: new Map() };
  if (!options.signed) return { refs: refs.map((r) => r.ref), runs: await store.protocolRuns(sessions) };
  const owned = await store.ownedRuns(sessions);
  const runs = new Map([...owned].map(([s, list]) => [s, list.map((r) => r.value)]));
  return { refs: refs.map((r) => r.ref), runs, owned };
}
