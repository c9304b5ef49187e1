/**
 * Reads, from git objects alone, what `hestai verify` needs to re-validate anchors: the published
 * anchors branches (`hestai/anchors`, local and every remote's), the proof records the commits name, the
 * events of their sessions, and the cited files at each record's HEAD. A fixed number of git processes
 * per batch of commits: three cat-file batches; the for-each-ref and one ls-tree per anchors branch once per
 * run ({@link anchorStoreSnapshot}).
 */
import { createHash } from 'node:crypto';
import type { AnchorEvidence, RecordEvidence } from '../verify/anchor-rule.js';
import { declaredCognition } from './constitution.js';
import { parseProofEvent, parseProofRecord, recordPath, type ProofEvent } from '../records/proof-record.js';
import { citedPath } from '../paths.js';
import { countLines } from './ctx-probe.js';
import { commitProbePaths } from './rules/commit.js';
import type { CtxProbe, CtxTarget } from './rules/types.js';
import { validateVector } from './validate.js';
import {
  anchorStoreRefs,
  catFileBatchAsync,
  catFileSession,
  listAnchorStore,
  type BatchObject,
} from '../git/anchors.js';
import { parseProtocolRun, type ProtocolRunRecord } from '../records/protocol-record.js';
import type { ProtocolRuns } from '../verify/protocol-run-rule.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
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

/** The anchors branches a run judges against and the files of each (src/git/anchors.ts). */
export interface AnchorStoreView {
  refs(): { ref: string; oid: string }[];
  files(oid: string): Map<string, string>;
  /** Objects looked up by `git cat-file` (src/git/anchors.ts). */
  cat(specs: readonly string[], options: { content: boolean }): Promise<Map<string, BatchObject>>;
}

/** Asks git every time: the tips with one for-each-ref, each tree with one ls-tree, each lookup with one cat-file. */
const fromGit = (root: string): AnchorStoreView => ({
  refs: () => anchorStoreRefs(root),
  files: (oid) => listAnchorStore(root, oid),
  cat: (specs, options) => catFileBatchAsync(root, specs, options),
});

/**
 * The anchors store as one `hestai verify` run sees it: the tips read once, at the first batch that cites a
 * record or a session (the store the whole range is judged against), and each tip's files listed once (a
 * listing is of one commit, so it never changes). Without it every batch asked git for both again.
 */
export function anchorStoreSnapshot(root: string): AnchorStoreView & { close(): void } {
  let refs: { ref: string; oid: string }[] | null = null;
  const listings = new Map<string, Map<string, string>>();
  // Every lookup of the run through one git cat-file (its process ends with close()).
  const session = catFileSession(root);
  return {
    cat: (specs, options) => session.ask(specs, options),
    close: () => session.close(),
    refs: () => (refs ??= anchorStoreRefs(root)),
    files: (oid) => {
      let files = listings.get(oid);
      if (files === undefined) listings.set(oid, (files = listAnchorStore(root, oid)));
      return files;
    },
  };
}

/**
 * The readers `hestai verify` takes (its deps: verify sits below anchor/, whose rules it re-runs here) for one
 * run, sharing one {@link anchorStoreSnapshot}.
 */
export function verifyEvidenceReaders(): {
  anchorEvidence: (
    root: string,
    digests: ReadonlySet<string>,
    sessions: ReadonlySet<string>,
  ) => Promise<AnchorEvidence>;
  protocolRuns: (root: string, sessions: ReadonlySet<string>) => Promise<ProtocolRuns>;
  /** Ends the run's git cat-file (call it when verify is done). */
  close(): void;
} {
  const stores = new Map<string, ReturnType<typeof anchorStoreSnapshot>>();
  const store = (root: string) => {
    let view = stores.get(root);
    if (view === undefined) stores.set(root, (view = anchorStoreSnapshot(root)));
    return view;
  };
  return {
    anchorEvidence: (root, digests, sessions) => gatherAnchorEvidence(root, digests, sessions, store(root)),
    protocolRuns: (root, sessions) => gatherProtocolRuns(root, sessions, store(root)),
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
  root: string,
  digests: ReadonlySet<string>,
  sessions: ReadonlySet<string>,
  store: AnchorStoreView = fromGit(root),
): Promise<AnchorEvidence> {
  const refs = store.refs();
  const records = new Map<string, RecordEvidence>();
  const events = new Map<string, ProofEvent[]>();
  if (refs.length === 0 || digests.size === 0) return { refs: refs.map((r) => r.ref), records, events };

  // 1. Which blobs hold the records and events we need (one ls-tree per anchors branch).
  const candidates = new Map<string, Set<string>>();
  const eventOids = new Set<string>();
  for (const { oid } of refs) {
    for (const [file, blob] of store.files(oid)) {
      const rec = /^records\/([0-9a-f]{64})\.json$/.exec(file);
      if (rec && digests.has(rec[1]!)) {
        const set = candidates.get(rec[1]!) ?? new Set<string>();
        set.add(blob);
        candidates.set(rec[1]!, set);
        continue;
      }
      const ev = /^events\/([0-9a-f-]{36})\/[0-9a-f]{64}\.json$/.exec(file);
      if (ev && sessions.has(ev[1]!)) eventOids.add(blob);
    }
  }
  // 2. Their contents (one cat-file --batch).
  const blobs = await store.cat([...new Set([...[...candidates.values()].flatMap((s) => [...s]), ...eventOids])], {
    content: true,
  });
  for (const oid of eventOids) {
    const obj = blobs.get(oid);
    const event = obj?.found && obj.content ? parseProofEvent(obj.content.toString('utf8')) : null;
    if (event && sessions.has(event.session_id))
      events.set(event.session_id, [...(events.get(event.session_id) ?? []), event]);
  }
  const good: RecordEvidence[] = [];
  for (const digest of digests) {
    const evidence: RecordEvidence = { digest, problem: null, record: null, headMissing: false, ruleErrors: [] };
    records.set(digest, evidence);
    const oids = candidates.get(digest);
    if (!oids) {
      evidence.problem = `no proof record ${recordPath(digest)} in ${refs.map((r) => r.ref).join(', ')}`;
      continue;
    }
    let text: string | null = null;
    for (const oid of oids) {
      const obj = blobs.get(oid);
      if (obj?.found && obj.content && sha256(obj.content) === digest) text = obj.content.toString('utf8');
    }
    if (text === null) {
      evidence.problem = `the stored record ${recordPath(digest)} does not hash to its name (edited after it was written)`;
      continue;
    }
    const parsed = parseProofRecord(text);
    if (!parsed.ok) {
      evidence.problem = parsed.problem;
      continue;
    }
    evidence.record = parsed.record;
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
  return { refs: refs.map((r) => r.ref), records, events };
}

/**
 * The protocol run records (`protocol/<session>/<sha256>.json`) of `sessions` on every anchors branch this
 * clone knows, per session id (a record whose bytes do not hash to its name is left out). One ls-tree per
 * anchors branch and one cat-file batch.
 */
export async function gatherProtocolRuns(
  root: string,
  sessions: ReadonlySet<string>,
  store: AnchorStoreView = fromGit(root),
): Promise<ProtocolRuns> {
  const runs = new Map<string, ProtocolRunRecord[]>();
  const refs = store.refs();
  if (refs.length === 0 || sessions.size === 0) return { refs: refs.map((r) => r.ref), runs };
  const wanted = new Map<string, string>();
  for (const { oid } of refs) {
    for (const [file, blob] of store.files(oid)) {
      const m = /^protocol\/([0-9a-f-]{36})\/([0-9a-f]{64})\.json$/.exec(file);
      if (m && sessions.has(m[1]!)) wanted.set(blob, m[2]!);
    }
  }
  const blobs = await store.cat([...wanted.keys()], { content: true });
  for (const [oid, digest] of wanted) {
    const obj = blobs.get(oid);
    if (!obj?.found || !obj.content || sha256(obj.content) !== digest) continue;
    const run = parseProtocolRun(obj.content.toString('utf8'));
    if (run && sessions.has(run.session_id)) runs.set(run.session_id, [...(runs.get(run.session_id) ?? []), run]);
  }
  for (const list of runs.values()) list.sort((a, b) => a.ended_at.localeCompare(b.ended_at));
  return { refs: refs.map((r) => r.ref), runs };
}
