import type { CommitMeta } from '../git/commit-meta.js';
import type { ProofEvent } from '../records/proof-record.js';
import { attributionOf } from '../records/attribution.js';
import { lastTrailer, parseTrailers } from '../tdd/trailers.js';
import type { Verdict } from '../tdd/verdict.js';
import type { AnchorEvidence } from '../verify/anchor-rule.js';
import type { VerifyReport } from '../verify/verify.js';
import type {
  GateRun,
  ProtocolRun,
  ReportAnchor,
  ReportCommit,
  ReportData,
  ReportSession,
  SessionEvent,
  TensionLine,
} from './model.js';
import { summarize } from './summary.js';

const DIGEST = /^sha256:([0-9a-f]{64})$/;
const TENSION = /^(L\d+)::\[(.*?)\]⇌CTX:([^[\s]*)\[(.*?)\]→TRIGGER\[(.*)\]\s*$/;
const CITED = /^(.*?):(\d+)(?:-(\d+))?$/;

export interface ReportInput {
  verify: VerifyReport;
  meta: ReadonlyMap<string, CommitMeta>;
  /** The anchor evidence verify judged with (null: verify.anchors is off and none was read). */
  evidence: AnchorEvidence | null;
  protocol: ProtocolRun[] | null;
  blobBase: string | null;
}

/** Pure: verify's report and the git facts of its commits, shaped for the renderers. */
export function buildReport(input: ReportInput): ReportData {
  const { verify, meta, evidence } = input;
  const shas = verify.commits.map((c) => c.sha);
  const commits: ReportCommit[] = verify.commits.map((c, i) => {
    const m = meta.get(c.sha);
    const trailers = parseTrailers((m?.message ?? '').replace(/\n+$/, ''));
    const parents = m?.parents ?? [];
    const digest = DIGEST.exec(lastTrailer(trailers, 'HestAI-Anchor') ?? '')?.[1] ?? null;
    const squashOf = c.verdicts.find((v) => v.rule === 'test-first')?.squash_of ?? null;
    return {
      sha: c.sha,
      header: c.header,
      author: m?.author ?? '',
      authorDate: m?.authorDate ?? '',
      committerDate: m?.committerDate ?? '',
      parents,
      shape: parents.length > 1 ? 'merge' : squashOf !== null || /\(#\d+\)$/.test(c.header) ? 'squash' : 'commit',
      session: lastTrailer(trailers, 'HestAI-Session'),
      anchor: digest,
      exempt: lastTrailer(trailers, 'TDD-Exempt'),
      bypass: lastTrailer(trailers, 'HestAI-Bypass'),
      paired: pairedWith(c.verdicts, shas.slice(0, i)),
      squashOf,
      files: c.files,
      gate: gateOf(digest, lastTrailer(trailers, 'HestAI-Session'), evidence, input.protocol),
      verdicts: c.verdicts,
    };
  });
  return {
    ok: verify.ok,
    range: verify.range,
    errors: verify.errors,
    warnings: verify.warnings,
    policy_changes: verify.policy_changes,
    commits,
    sessions: sessionsOf(commits, evidence),
    protocol: input.protocol,
    blobBase: input.blobBase,
    summary: summarize(commits, verify, input.protocol),
  };
}

/**
 * The test commits of a feat's test-first verdict: its `paired_with` field when verify gives one, else the
 * short shas its "paired with test commit ..." message names, resolved among the commits before it.
 */
function pairedWith(verdicts: readonly Verdict[], earlier: readonly string[]): ReportCommit['paired'] {
  const v = verdicts.find((x) => x.rule === 'test-first');
  if (!v || v.status !== 'pass') return [];
  const field: unknown = v.paired_with;
  // verify's `paired_with` is [{sha, header, relation}] (docs/enforcement.md); plain shas are read too.
  if (Array.isArray(field)) {
    const out: ReportCommit['paired'] = [];
    for (const p of field as unknown[]) {
      if (typeof p === 'string') out.push({ sha: p, relation: null });
      else if (typeof p === 'object' && p !== null && 'sha' in p && typeof p.sha === 'string')
        out.push({ sha: p.sha, relation: 'relation' in p && typeof p.relation === 'string' ? p.relation : null });
    }
    return out;
  }
  if (!v.message.startsWith('paired with test commit')) return [];
  const out: ReportCommit['paired'] = [];
  for (const m of v.message.matchAll(/\b([0-9a-f]{7}) "/g)) {
    const full = earlier.find((s) => s.startsWith(m[1]!));
    if (full) out.push({ sha: full, relation: null });
  }
  return out;
}

/** Pure: the TENSION lines, ARTIFACT and GATE of a canonical anchor. */
export function anchorParts(canonical: string): {
  tension: TensionLine[];
  artifact: string | null;
  gate: string | null;
} {
  const tension: TensionLine[] = [];
  for (const line of canonical.split('\n')) {
    const m = TENSION.exec(line);
    if (!m) continue;
    const cited = CITED.exec(m[3]!);
    tension.push({
      label: m[1]!,
      constraint: m[2]!,
      path: cited ? cited[1]! : m[3]!,
      lines: cited ? { from: Number(cited[2]), to: Number(cited[3] ?? cited[2]) } : null,
      state: m[4]!,
      trigger: m[5]!,
    });
  }
  const value = (key: string) => new RegExp(`^${key}::(.*)$`, 'm').exec(canonical)?.[1] ?? null;
  return { tension, artifact: value('ARTIFACT'), gate: value('GATE') };
}

/** A command as written in a GATE or a protocol gate: no backticks, no `$ ` prompt, single spaces. */
const normalCommand = (command: string) =>
  command
    .trim()
    .replace(/^`(.*)`$/, '$1')
    .replace(/^\$\s+/, '')
    .replace(/\s+/g, ' ');

/** Pure: a GATE and whether `runs` (the session's protocol runs) ran its command, and how it ended. */
export function gateRun(gate: string, runs: readonly ProtocolRun[]): GateRun {
  const command = normalCommand(gate);
  if (command.startsWith('check:')) return { command, ran: 'named check', by: null };
  const recorded = runs.flatMap((r) => r.commands ?? []);
  if (!runs.some((r) => r.commands !== null)) return { command, ran: 'no protocol run', by: null };
  const found = recorded.filter((c) => normalCommand(c.run) === command);
  const best = found.find((c) => c.result === 'passed') ?? found.find((c) => c.result === 'failed') ?? found[0];
  return best ? { command, ran: best.result, by: best.gate } : { command, ran: 'not run', by: null };
}

function gateOf(
  digest: string | null,
  session: string | null,
  evidence: AnchorEvidence | null,
  protocol: readonly ProtocolRun[] | null,
): GateRun | null {
  const record = digest === null ? null : (evidence?.records.get(digest)?.record ?? null);
  const gate = record === null ? null : anchorParts(record.canonical_anchor).gate;
  if (gate === null) return null;
  return gateRun(
    gate,
    (protocol ?? []).filter((r) => r.session_id === session),
  );
}

function anchorOf(digest: string, evidence: AnchorEvidence | null): ReportAnchor {
  const e = evidence?.records.get(digest);
  const r = e?.record ?? null;
  const parts = r ? anchorParts(r.canonical_anchor) : { tension: [], artifact: null, gate: null };
  return {
    digest,
    problem: r ? null : (e?.problem ?? 'no proof record read (verify.anchors is off, or none published)'),
    head: r?.head ?? null,
    anchoredAt: r?.anchored_at ?? null,
    contextGeneratedAt: r?.context_generated_at ?? null,
    tier: r?.tier ?? null,
    ...parts,
  };
}

/** Pure: one lane per session (its anchors and events) and one per author of the commits without one. */
function sessionsOf(commits: readonly ReportCommit[], evidence: AnchorEvidence | null): ReportSession[] {
  const lanes = new Map<string, ReportSession>();
  for (const c of commits) {
    const key = c.session !== null ? `s:${c.session}` : `a:${c.author}`;
    let lane = lanes.get(key);
    if (!lane) {
      lane = {
        id: c.session,
        label: c.session !== null ? c.session : `${c.author || 'unknown author'} (no session)`,
        role: null,
        anchors: [],
        events: [],
        commits: [],
      };
      lanes.set(key, lane);
    }
    lane.commits.push(c.sha);
    if (c.anchor !== null && !lane.anchors.some((a) => a.digest === c.anchor))
      lane.anchors.push(anchorOf(c.anchor, evidence));
  }
  for (const lane of lanes.values()) {
    if (lane.id === null) continue;
    const records = lane.anchors.map((a) => evidence?.records.get(a.digest)?.record ?? null).filter((r) => r !== null);
    lane.role = records.find((r) => r.session_id === lane.id)?.role ?? null;
    // The agent runtime and model that made the session (issue 42), where its proof record names them.
    const agent = records.find((r) => r.session_id === lane.id && r.agent)?.agent;
    lane.label = `${lane.role ?? 'session'} ${lane.id.slice(0, 8)}${agent ? ` (${attributionOf(agent)})` : ''}`;
    const events: SessionEvent[] = [];
    const clockIn = records.map((r) => r.context_generated_at).sort()[0];
    if (clockIn) events.push({ kind: 'clock-in', at: clockIn, reason: null });
    for (const r of records) {
      events.push({ kind: 'anchor', at: r.anchored_at, reason: null });
      for (const a of r.acknowledgments) events.push({ kind: 'ack', at: a.at, reason: a.reason });
      for (const x of r.resets) events.push({ kind: 'reset', at: x.at, reason: x.reason });
    }
    for (const ev of evidence?.events.get(lane.id) ?? ([] as ProofEvent[]))
      events.push({ kind: ev.event, at: ev.at, reason: ev.reason });
    const seen = new Set<string>();
    lane.events = events
      .filter((e) => {
        const k = `${e.kind} ${e.at}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      })
      .sort((a, b) => a.at.localeCompare(b.at));
  }
  return [...lanes.values()];
}
