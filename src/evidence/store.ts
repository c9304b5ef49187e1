/**
 * The one reader of `hestai/anchors` (issue 39; docs/SECURITY.md): verify, report and the hooks ask it for
 * proof records, events, protocol runs and change records, and none of them reads that branch by itself.
 *   - history: every file any commit of the fetched anchors branches published counts (src/evidence/history.ts);
 *     a later commit deleting or changing a read path is a warning naming it. Events, runs and change records
 *     come from one walk of their directories; a proof record is looked for at the tips first, and the
 *     history of its own path (records/ is one flat tree, so a walk of all of it costs the square of its
 *     size) is walked only when one is missing there or does not hash to its name;
 *   - bounded: every blob is size-checked (`git cat-file` info) before it is read; one over {@link BLOB_CAP}
 *     is skipped with a warning naming its path and size;
 *   - validated: every file is checked against its schema (src/evidence/schemas.ts) before a field is used;
 *     one that does not match is skipped with a warning naming it.
 * At most two `git log` walks per run, and one `git cat-file --batch-command` for every lookup.
 */
import { createHash } from 'node:crypto';
import { anchorStoreRefs, catFileSession, listAnchorStore, type BatchObject } from '../git/anchors.js';
import { runGit } from '../git/exec.js';
import type { ChangeRecord } from '../git/change-records.js';
import type { ProofEvent, ProofRecord } from '../records/proof-record.js';
import type { ProtocolRunRecord } from '../records/protocol-record.js';
import {
  emptyHistory,
  readAnchorsHistory,
  readSessionCommits,
  type AnchorsHistory,
  type Publication,
  type Tampering,
} from './history.js';
import {
  parseChange,
  parseCoverage,
  parseEvent,
  parseRecord,
  parseRun,
  type CoverageRecord,
  type Parsed,
} from './schemas.js';
import { signatureChecker, signatureProblem, type Signature, type SignatureChecker } from './signatures.js';

/** The largest file read from the anchors branch: a record is a few KB; a blob over this is skipped unread. */
export const BLOB_CAP = 1024 * 1024;

/** The most proof-record paths named to one records/ walk; more, and records/ is walked whole (git tests each name per entry). */
const NAMED_WALK_CAP = 64;

/** Something about the anchors branch a reader of it should know; never an error for the branch under test. */
export interface EvidenceWarning {
  path: string;
  message: string;
  /** The anchors commit it is about, when there is one. */
  commit?: string;
}

/**
 * Who published a file (issue 39): the allowed key whose signature is on the anchors commit that added it
 * (a commit none of whose parents holds that blob there), or why no key is. Two allowed keys adding the same
 * file is no owner: the record is contested.
 */
export type Ownership = { owner: Signature; commit: string } | { owner: null; commit: string | null; problem: string };

/** A file read from the anchors branch with who published it. */
export interface Owned<T> {
  value: T;
  path: string;
  ownership: Ownership;
}

export type RecordLookup =
  | {
      record: ProofRecord;
      blob: string;
      commit: string;
      /** Only when the store was opened with `signers`. */
      ownership?: Ownership;
    }
  | { problem: string };

export interface EvidenceStore {
  /** The anchors branches this clone knows: local, then each remote's. */
  refs(): { ref: string; oid: string }[];
  /** The proof record named by each digest, or why there is none. */
  proofRecords(digests: ReadonlySet<string>): Promise<Map<string, RecordLookup>>;
  /** The events of each session (only those whose path and `session_id` both name it). */
  events(sessions: ReadonlySet<string>): Promise<Map<string, ProofEvent[]>>;
  /** The protocol runs of each session (those whose bytes hash to their name), oldest end first. */
  protocolRuns(sessions: ReadonlySet<string>): Promise<Map<string, ProtocolRunRecord[]>>;
  /** Every change record ever published. */
  changeRecords(): Promise<ChangeRecord[]>;
  /** The protocol runs of each session with who published each (signatures checked only with `signers`). */
  ownedRuns(sessions: ReadonlySet<string>): Promise<Map<string, Owned<ProtocolRunRecord>[]>>;
  /** The coverage records of each session (the commits a push says it made) with who published each. */
  coverage(sessions: ReadonlySet<string>): Promise<Map<string, Owned<CoverageRecord>[]>>;
  /** git's verdict on each commit's signature against the base's allowed signers (`signers`; else all unsigned). */
  signatures(commits: readonly string[]): Promise<Map<string, Signature>>;
  /** Objects outside the store (a record's HEAD and its files), through the same `git cat-file`. */
  cat(specs: readonly string[], options: { content: boolean }): Promise<Map<string, BatchObject>>;
  /** What the reads so far found to warn about, each once. */
  warnings(): EvidenceWarning[];
  close(): void;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const short = (oid: string) => oid.slice(0, 7);

interface Read {
  blob: string;
  commit: string;
  content: Buffer;
  /** The commits the walk saw adding it (none for a file read at a tip). */
  adders: readonly string[];
}

export interface EvidenceOptions {
  /** Revisions whose history is not the store's (the range's base). */
  exclude?: readonly string[];
  /** Check who published what: the text of the base's `.hestai/allowed_signers` (null: the base has none). */
  signers?: { allowed: string | null };
  /** Anchors tips no ref names yet (a server's receive hook: the pushed `hestai/anchors`, still in quarantine). */
  tips?: readonly { ref: string; oid: string }[];
}

/** The store of `root`. */
export function openEvidence(root: string, options: EvidenceOptions = {}): EvidenceStore {
  const store = new Store(root, options.exclude ?? [], options.signers ?? null, options.tips ?? []);
  return {
    refs: () => store.refs(),
    cat: (specs, o) => store.session.ask(specs, o),
    warnings: () => [...store.warned.values()],
    close: () => {
      store.session.close();
      store.checker?.close();
    },
    ownedRuns: (sessions) => store.ownedRuns(sessions),
    coverage: (sessions) => store.coverage(sessions),
    signatures: (commits) => store.signatures(commits),
    proofRecords: (digests) => store.proofRecords(digests),
    events: (sessions) => store.events(sessions),
    protocolRuns: (sessions) => store.protocolRuns(sessions),
    changeRecords: () => store.changeRecords(),
  };
}

/** The state of one reader: the walks done, the warnings found, the signers asked. */
class Store {
  readonly session;
  readonly warned = new Map<string, EvidenceWarning>();
  private readonly signers = new Map<string, string | null>();
  private knownRefs: { ref: string; oid: string }[] | null = null;
  private walked: Promise<AnchorsHistory> | null = null;
  private atTips: Map<string, Publication[]> | null = null;
  private recordHistory: Promise<AnchorsHistory> = Promise.resolve(emptyHistory());
  private readonly recordPathsWalked = new Set<string>();
  private recordsWalkedWhole = false;
  private sessionCommits: ReturnType<typeof readSessionCommits> | null = null;
  readonly checker: SignatureChecker | null;

  constructor(
    private readonly root: string,
    private readonly exclude: readonly string[],
    signers: { allowed: string | null } | null,
    private readonly pushed: readonly { ref: string; oid: string }[],
  ) {
    this.session = catFileSession(root);
    this.checker = signers === null ? null : signatureChecker(root, signers.allowed);
  }

  async signatures(commits: readonly string[]): Promise<Map<string, Signature>> {
    if (this.checker !== null) return this.checker.check(commits);
    return new Map(commits.map((c) => [c, { commit: c, status: 'N', key: null, signer: null, allowed: false }]));
  }

  /**
   * Of `candidates`, the commits that added `blob` at `path`: the commit holds it there and none of its parents
   * does (one `cat-file` round for all).
   */
  private async verifiedAdders(
    path: string,
    blob: string,
    candidates: readonly { commit: string; parents: readonly string[] }[],
  ) {
    const specs = candidates.flatMap((c) => [`${c.commit}:${path}`, ...c.parents.map((p) => `${p}:${path}`)]);
    const found = await this.session.ask(specs, { content: false });
    const holds = (rev: string) => {
      const o = found.get(`${rev}:${path}`);
      return o?.found === true && o.oid === blob;
    };
    return candidates.filter((c) => holds(c.commit) && !c.parents.some(holds)).map((c) => c.commit);
  }

  /** Who published `blob` at `path`, from the commits that added it (oldest last). */
  private async ownership(path: string, adders: readonly string[]): Promise<Ownership> {
    if (adders.length === 0)
      return { owner: null, commit: null, problem: `no commit of hestai/anchors adding ${path} was found` };
    const sigs = await this.signatures(adders);
    const allowed = adders.map((c) => sigs.get(c)!).filter((s) => s.allowed);
    const keys = [...new Set(allowed.map((s) => s.key))];
    if (keys.length === 1) return { owner: allowed[allowed.length - 1]!, commit: allowed[allowed.length - 1]!.commit };
    const first = adders[adders.length - 1]!;
    if (keys.length > 1)
      return {
        owner: null,
        commit: first,
        problem: `${path} was added by commits signed by ${keys.length} different allowed keys (${allowed.map((s) => `${short(s.commit)} by ${s.signer ?? s.key}`).join(', ')}): no one owns it`,
      };
    return {
      owner: null,
      commit: first,
      problem: `the hestai/anchors commit ${short(first)} that first added ${path}: ${signatureProblem(sigs.get(first))}`,
    };
  }

  /** The adders the walk saw of a read file, checked against their parents. */
  private async walkOwnership(path: string, r: Read, h: AnchorsHistory) {
    const candidates = r.adders.map((commit) => ({ commit, parents: h.parents.get(commit) ?? [] }));
    return this.ownership(path, await this.verifiedAdders(path, r.blob, candidates));
  }

  /**
   * Who published a proof record: the commits whose subject names its session (one linear walk without
   * diffs) are checked against the trees; only when none added it is the history of records/ walked.
   */
  private async recordOwnership(path: string, r: Read, session: string): Promise<Ownership> {
    this.sessionCommits ??= readSessionCommits(this.root, this.tips(), this.exclude);
    const named = (await this.sessionCommits).get(session) ?? [];
    let adders = await this.verifiedAdders(path, r.blob, named);
    if (adders.length === 0) {
      const h = await this.recordsInHistory([path]);
      const version = h.files.get(path)?.find((p) => p.blob === r.blob);
      const candidates = (version?.adders ?? []).map((commit) => ({ commit, parents: h.parents.get(commit) ?? [] }));
      adders = await this.verifiedAdders(path, r.blob, candidates);
    }
    return this.ownership(path, adders);
  }

  refs() {
    return (this.knownRefs ??= [...anchorStoreRefs(this.root), ...this.pushed]);
  }

  private tips() {
    return this.refs().map((r) => r.oid);
  }

  /** Events, runs and change records: one walk of their directories. */
  history() {
    return (this.walked ??= readAnchorsHistory(this.root, this.tips(), {
      paths: ['events', 'protocol', 'changes', 'coverage'],
      exclude: this.exclude,
    }));
  }

  /** Proof records at the tips: one ls-tree of records/ per anchors branch. */
  private recordsAtTips() {
    if (this.atTips !== null) return this.atTips;
    const atTips = new Map<string, Publication[]>();
    for (const { oid } of this.refs())
      for (const [path, blob] of listAnchorStore(this.root, oid, ['records'])) {
        const list = atTips.get(path) ?? [];
        if (!list.some((p) => p.blob === blob)) list.push({ blob, commit: oid });
        atTips.set(path, list);
      }
    return (this.atTips = atTips);
  }

  /**
   * The history of the proof records at `paths`, walked only when one is missing at the tips: git's pathspec
   * names each file, so git skips the rest of the flat records/ tree instead of diffing it, and nothing is
   * parsed but those files. Each path is walked at most once per store; past {@link NAMED_WALK_CAP} paths,
   * records/ is walked whole, once.
   */
  private recordsInHistory(paths: readonly string[]) {
    if (this.recordsWalkedWhole) return this.recordHistory;
    const fresh = paths.filter((p) => !this.recordPathsWalked.has(p));
    if (fresh.length === 0) return this.recordHistory;
    const whole = this.recordPathsWalked.size + fresh.length > NAMED_WALK_CAP;
    for (const p of fresh) this.recordPathsWalked.add(p);
    this.recordsWalkedWhole = whole;
    const walk = (into: AnchorsHistory) =>
      readAnchorsHistory(
        this.root,
        this.tips(),
        { paths: whole ? ['records'] : fresh, exclude: this.exclude },
        whole ? emptyHistory() : into,
      );
    return (this.recordHistory = this.recordHistory.then(walk));
  }

  warn(w: EvidenceWarning) {
    const key = `${w.path}\0${w.message}`;
    if (!this.warned.has(key)) this.warned.set(key, w);
  }

  /** Who signed each commit (`git log --no-walk`, only for those not asked yet). */
  private signerOf(commits: readonly string[]) {
    const asked = commits.filter((c) => !this.signers.has(c));
    if (asked.length === 0) return;
    const out = runGit(['log', '--no-walk=unsorted', '--format=%H %G? %GS', ...asked], {
      cwd: this.root,
      okCodes: [128],
    });
    for (const line of out.stdout.split('\n')) {
      const [sha = '', status = 'N', ...name] = line.split(' ');
      if (sha !== '')
        this.signers.set(sha, status === 'N' ? null : `${name.join(' ') || 'an unknown key'} (%G? ${status})`);
    }
    for (const c of asked) if (!this.signers.has(c)) this.signers.set(c, null);
  }

  private tampered(list: readonly Tampering[], published: string) {
    this.signerOf(list.map((t) => t.commit));
    for (const t of list) {
      const signer = this.signers.get(t.commit);
      this.warn({
        path: t.path,
        commit: t.commit,
        message: `hestai/anchors commit ${short(t.commit)} by ${t.author}${signer ? `, signed by ${signer}` : ''} ${t.action} ${t.path}, published in ${short(published)}: the published version still counts (the anchors branch is append-only)`,
      });
    }
  }

  /** A published file absent from every tip with no commit deleting it: a merge left it out. */
  private dropped(path: string, published: string, where: string) {
    this.warn({
      path,
      commit: published,
      message: `${path}, published in hestai/anchors commit ${short(published)}, is absent from ${where} though no commit deletes it (a merge that leaves out its parents' files): the published version still counts (the anchors branch is append-only)`,
    });
  }

  /** Every version published at `paths` (in `where`) that fits the cap, read in two `cat-file` rounds (sizes, then bytes). */
  async read(paths: Iterable<string>, where: AnchorsHistory['files'], h: AnchorsHistory | null) {
    const wanted: { path: string; blob: string; commit: string; adders?: string[] }[] = [];
    for (const path of paths) {
      const published = where.get(path) ?? [];
      for (const p of published) wanted.push({ path, ...p });
      const tampering = h?.tampering.get(path);
      if (tampering && published.length > 0) this.tampered(tampering, published[published.length - 1]!.commit);
    }
    const out = new Map<string, Read[]>();
    if (wanted.length === 0) return out;
    const sizes = await this.session.ask(
      wanted.map((w) => w.blob),
      { content: false },
    );
    const fits = wanted.filter((w) => {
      const info = sizes.get(w.blob);
      if (!info?.found) return false;
      if (info.size <= BLOB_CAP) return true;
      this.warn({
        path: w.path,
        commit: w.commit,
        message: `${w.path} (blob ${short(w.blob)}, in hestai/anchors commit ${short(w.commit)}) is ${info.size} bytes, over the 1 MiB cap (${BLOB_CAP} bytes): skipped unread`,
      });
      return false;
    });
    const blobs = await this.session.ask(
      fits.map((w) => w.blob),
      { content: true },
    );
    for (const w of fits) {
      const obj = blobs.get(w.blob);
      if (!obj?.found || !obj.content) continue;
      const list = out.get(w.path) ?? [];
      list.push({ blob: w.blob, commit: w.commit, content: obj.content, adders: w.adders ?? [] });
      out.set(w.path, list);
    }
    return out;
  }

  /** `parse` of a read file, or null with a warning naming it. */
  valid<T>(path: string, r: Read, parse: (text: string) => Parsed<T>, what: string): T | null {
    const parsed = parse(r.content.toString('utf8'));
    if (parsed.ok) return parsed.value;
    this.warn({
      path,
      commit: r.commit,
      message: `${path} (blob ${short(r.blob)}, in hestai/anchors commit ${short(r.commit)}) is not a valid ${what}: ${parsed.problem}; skipped`,
    });
    return null;
  }

  async proofRecords(digests: ReadonlySet<string>): Promise<Map<string, RecordLookup>> {
    const found = new Map<string, RecordLookup>();
    const path = (d: string) => `records/${d}.json`;
    const hashing = (files: Map<string, Read[]>, d: string) =>
      (files.get(path(d)) ?? []).find((v) => sha256(v.content) === d);
    const tipFiles = await this.read([...digests].map(path), this.recordsAtTips(), null);
    const lost = [...digests].filter((d) => !hashing(tipFiles, d));
    const h = lost.length > 0 ? await this.recordsInHistory(lost.map(path)) : null;
    const pastFiles = h ? await this.read(lost.map(path), h.files, h) : new Map<string, Read[]>();
    const where = this.refs()
      .map((r) => r.ref)
      .join(', ');
    for (const d of digests) {
      const past = hashing(tipFiles, d) ? undefined : hashing(pastFiles, d);
      if (past && !h?.tampering.has(path(d))) this.dropped(path(d), past.commit, where);
      const version = hashing(tipFiles, d) ?? past;
      const record = version ? this.valid(path(d), version, parseRecord, 'proof record') : null;
      if (version && record)
        found.set(d, {
          record,
          blob: version.blob,
          commit: version.commit,
          ...(this.checker ? { ownership: await this.recordOwnership(path(d), version, record.session_id) } : {}),
        });
      else if (version) found.set(d, { problem: `the stored record ${path(d)} is not a valid proof record` });
      else if (!this.recordsAtTips().has(path(d)) && !h?.files.has(path(d)))
        found.set(d, { problem: `no proof record ${path(d)} in ${where}` });
      else
        found.set(d, {
          problem: `the stored record ${path(d)} does not hash to its name (edited after it was written)`,
        });
    }
    return found;
  }

  /** The valid files under each session's directory (events/, protocol/, coverage/) whose `session_id` names it. */
  private async bySession<T extends { session_id: string }>(
    sessions: ReadonlySet<string>,
    kind: 'events' | 'runs' | 'coverage',
    accept: (path: string, r: Read) => T | null,
  ): Promise<Map<string, { value: T; path: string; read: Read }[]>> {
    const h = await this.history();
    const out = new Map<string, { value: T; path: string; read: Read }[]>();
    const files = await this.read(
      [...sessions].flatMap((s) => h[kind].get(s) ?? []),
      h.files,
      h,
    );
    for (const [path, versions] of files) {
      const owner = path.split('/')[1]!;
      for (const v of versions) {
        const value = accept(path, v);
        if (value === null || value.session_id !== owner) continue;
        const list = out.get(owner) ?? [];
        list.push({ value, path, read: v });
        out.set(owner, list);
      }
    }
    return out;
  }

  /** `bySession` with who published each file (without `signers`: no one, unchecked). */
  private async owned<T extends { session_id: string }>(
    found: Map<string, { value: T; path: string; read: Read }[]>,
  ): Promise<Map<string, Owned<T>[]>> {
    const h = await this.history();
    const out = new Map<string, Owned<T>[]>();
    for (const [session, list] of found)
      out.set(
        session,
        await Promise.all(
          list.map(async ({ value, path, read }) => ({
            value,
            path,
            ownership: this.checker
              ? await this.walkOwnership(path, read, h)
              : { owner: null, commit: read.commit, problem: 'signatures are not checked' },
          })),
        ),
      );
    return out;
  }

  private values<T>(found: Map<string, { value: T }[]>): Map<string, T[]> {
    return new Map([...found].map(([k, list]) => [k, list.map((e) => e.value)]));
  }

  async events(sessions: ReadonlySet<string>) {
    return this.values(
      await this.bySession(sessions, 'events', (path, v) => this.valid(path, v, parseEvent, 'anchor event')),
    );
  }

  private runsOf(sessions: ReadonlySet<string>) {
    return this.bySession(sessions, 'runs', (path, v) =>
      `${sha256(v.content)}.json` === path.split('/')[2] ? this.valid(path, v, parseRun, 'protocol run') : null,
    );
  }

  async protocolRuns(sessions: ReadonlySet<string>) {
    const runs = this.values(await this.runsOf(sessions));
    for (const list of runs.values()) list.sort((a, b) => a.ended_at.localeCompare(b.ended_at));
    return runs;
  }

  async ownedRuns(sessions: ReadonlySet<string>) {
    const runs = await this.owned(await this.runsOf(sessions));
    for (const list of runs.values()) list.sort((a, b) => a.value.ended_at.localeCompare(b.value.ended_at));
    return runs;
  }

  async coverage(sessions: ReadonlySet<string>) {
    return this.owned(
      await this.bySession(sessions, 'coverage', (path, v) =>
        `${sha256(v.content)}.json` === path.split('/')[2]
          ? this.valid(path, v, parseCoverage, 'coverage record')
          : null,
      ),
    );
  }

  async changeRecords() {
    const h = await this.history();
    const files = await this.read(
      [...h.files.keys()].filter((p) => p.startsWith('changes/')),
      h.files,
      h,
    );
    const records: ChangeRecord[] = [];
    for (const [path, versions] of files)
      for (const v of versions) {
        const record = this.valid(path, v, parseChange, 'change record');
        if (record !== null && path === `changes/${record.tip}.json`) records.push(record);
      }
    return records;
  }
}
