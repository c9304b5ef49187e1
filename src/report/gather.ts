import { verifyEvidenceReaders } from '../anchor/reverify.js';
import { systemClock } from '../clock.js';
import { blobBase, commitMeta } from '../git/commit-meta.js';
import { configGet } from '../git/repo.js';
import { lastTrailer, parseTrailers } from '../tdd/trailers.js';
import type { AnchorEvidence } from '../verify/anchor-rule.js';
import type { ProtocolRuns } from '../verify/protocol-run-rule.js';
import { verifyRange } from '../verify/verify.js';
import { resolveWorkspace } from '../workspace.js';
import { buildReport } from './build.js';
import type { ProtocolRun, ReportData } from './model.js';

export interface ReportOptions {
  working_dir: string;
  from?: string;
  to?: string;
  /** verify's `--policy`: the commit whose config judges the range instead of the base's. */
  policy?: string;
  /** The environment: in GitHub Actions the event names the base, as for verify (src/verify/range.ts). */
  env?: NodeJS.ProcessEnv;
}

/**
 * `hestai report`'s data, from git alone: `verifyRange` decides every verdict (the same call as
 * `verify --format json`), and the anchor evidence it judged with is kept for the page. Then ONE
 * `git log --no-walk` for the commits' authors, dates and trailers. When verify.anchors is off, the
 * records are read for display only (they decide nothing there).
 */
export async function gatherReport(options: ReportOptions): Promise<ReportData> {
  const root = resolveWorkspace(options.working_dir).root;
  // One reader of hestai/anchors for the whole page: what verify read, and what the page reads besides.
  const readers = verifyEvidenceReaders();
  try {
    return await gatherWith(options, root, readers);
  } finally {
    readers.close();
  }
}

async function gatherWith(
  options: ReportOptions,
  root: string,
  readers: ReturnType<typeof verifyEvidenceReaders>,
): Promise<ReportData> {
  let evidence: AnchorEvidence | null = null;
  let runs: ProtocolRuns | null = null;
  const verify = await verifyRange(
    {
      working_dir: options.working_dir,
      ...(options.from === undefined ? {} : { from: options.from }),
      ...(options.to === undefined ? {} : { to: options.to }),
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      ...(options.env === undefined ? {} : { env: options.env }),
    },
    {
      clock: systemClock,
      anchorEvidence: async (r, digests, sessions) => (evidence = await readers.anchorEvidence(r, digests, sessions)),
      protocolRuns: async (r, sessions) => (runs = await readers.protocolRuns(r, sessions)),
      evidence: readers.evidence,
    },
  );
  const meta = commitMeta(
    root,
    verify.commits.map((c) => c.sha),
  );
  if (evidence === null || runs === null) {
    const digests = new Set<string>();
    const sessions = new Set<string>();
    for (const m of meta.values()) {
      const trailers = parseTrailers(m.message.replace(/\n+$/, ''));
      const d = /^sha256:([0-9a-f]{64})$/.exec(lastTrailer(trailers, 'HestAI-Anchor') ?? '')?.[1];
      const s = lastTrailer(trailers, 'HestAI-Session');
      if (d) digests.add(d);
      if (s) sessions.add(s);
    }
    if (evidence === null && digests.size > 0) evidence = await readers.anchorEvidence(root, digests, sessions);
    // protocol.verify off: the runs are read for display only (they decide nothing there).
    if (runs === null && sessions.size > 0) runs = await readers.protocolRuns(root, sessions);
  }
  return buildReport({
    verify,
    meta,
    evidence,
    protocol: protocolRuns(runs),
    blobBase: blobBase(configGet(root, 'remote.origin.url')),
  });
}

/** The runs verify read, one entry per published run (null: none published for the range's sessions). */
function protocolRuns(runs: ProtocolRuns | null): ProtocolRun[] | null {
  const list = [...(runs?.runs.values() ?? [])].flat();
  if (list.length === 0) return null;
  return list.map((r) => ({
    session_id: r.session_id,
    outcome: r.outcome,
    violations: r.violations.length,
    forced: r.forced.length,
    commits: r.commits,
    commands: r.commands ?? null,
  }));
}
