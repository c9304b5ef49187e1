import type { CommitFacts } from '../tdd/commit.js';
import { lastTrailer } from '../tdd/trailers.js';
import type { Verdict } from '../tdd/verdict.js';
import { UUID_V4 } from '../util/validate.js';
import { ASSISTED_BY, attributionOf, namesAgent, type AgentIdentity } from '../records/attribution.js';

const ANCHOR_DIGEST = /^sha256:[0-9a-f]{64}$/;

/** Pure: are `HestAI-Session` and `HestAI-Anchor` present and well-formed? `policy` maps a problem to warn or fail. */
export function checkTrailers(commit: CommitFacts, policy: 'warn' | 'error'): Verdict {
  const clause = 'docs/design.md §7 (verify.trailers)';
  if (commit.kind === 'merge')
    return { rule: 'trailers', status: 'skip', message: 'merge commit: trailers not required', clause };
  const problems: string[] = [];
  const session = lastTrailer(commit.trailers, 'HestAI-Session');
  const anchor = lastTrailer(commit.trailers, 'HestAI-Anchor');
  if (session === null) problems.push('no HestAI-Session trailer');
  else if (!UUID_V4.test(session)) problems.push(`HestAI-Session "${session}" is not a session id (UUID v4)`);
  if (anchor === null) problems.push('no HestAI-Anchor trailer');
  else if (!ANCHOR_DIGEST.test(anchor)) problems.push(`HestAI-Anchor "${anchor}" is not sha256:<64 hex>`);
  if (problems.length === 0)
    return { rule: 'trailers', status: 'pass', message: `session ${session}, anchor ${anchor}`, clause };
  return {
    rule: 'trailers',
    status: policy === 'error' ? 'fail' : 'warn',
    clause,
    message: `${problems.join('; ')}: the commit was not made through the hestai hooks by an anchored session (verify.trailers: ${policy})`,
  };
}

/** Pure: a `HestAI-Bypass` trailer is listed, as a warning or an error per `verify.bypass`; null when absent. */
export function checkBypass(commit: CommitFacts, policy: 'warn' | 'error', message?: string): Verdict | null {
  const reason = lastTrailer(commit.trailers, 'HestAI-Bypass') ?? (message === undefined ? null : bypassLine(message));
  if (reason === null) return null;
  return {
    rule: 'bypass',
    status: policy === 'error' ? 'fail' : 'warn',
    clause: 'docs/design.md §7 (verify.bypass)',
    message: `the hooks were bypassed: "${reason}" (verify.bypass: ${policy})`,
  };
}

/**
 * A `HestAI-Bypass:` line anywhere in a stored message, for messages whose trailer block git's parser would
 * not see where we look (e.g. `--cleanup=verbatim` left comment paragraphs or other text after it).
 */
export function bypassLine(message: string): string | null {
  const m = /^HestAI-Bypass:[ \t]*(.*)$/im.exec(message);
  return m ? m[1]!.trim() || '(no reason)' : null;
}

/**
 * Pure: a `HestAI-Clock` trailer (the hooks ran with `HESTAI_NOW` pinning their clock) is listed as a
 * warning: the local freshness and anchor checks ran at that instant, not the real one. The anchor verdict
 * re-checks freshness against the commit date whatever the trailer says. Null when absent.
 */
export function checkClock(commit: CommitFacts): Verdict | null {
  const pinned = lastTrailer(commit.trailers, 'HestAI-Clock');
  if (pinned === null) return null;
  return {
    rule: 'clock',
    status: 'warn',
    clause: 'docs/configuration.md (HESTAI_NOW)',
    message: `the hooks judged this commit with the clock pinned to ${pinned} (HESTAI_NOW), not the real time; the anchor verdict re-checks freshness at the commit date`,
  };
}

/**
 * Pure (issue 42, `commit.attribution`): a commit whose anchor's proof record says an agent runtime started the
 * session should carry `Assisted-by` naming it; missing or naming another runtime or model, it fails under
 * `required` and warns under `warn`. A `Signed-off-by` on such a commit is a warning: by the Linux kernel's
 * rule an AI agent must not add one.
 * Null when the policy is off or the record names no agent runtime (a person's session, an older hestai).
 */
export function checkAttribution(
  commit: CommitFacts,
  agent: AgentIdentity | undefined,
  policy: 'off' | 'warn' | 'required',
): Verdict | null {
  if (policy === 'off' || agent === undefined || commit.kind === 'merge') return null;
  const clause = 'docs/configuration.md (commit.attribution)';
  const made = `session made by the agent runtime ${attributionOf(agent)}`;
  const assisted = lastTrailer(commit.trailers, ASSISTED_BY);
  const signed =
    lastTrailer(commit.trailers, 'Signed-off-by') === null
      ? ''
      : "; it has Signed-off-by, but by the Linux kernel's rule an AI agent must not add Signed-off-by (only a person certifies the DCO)";
  if (assisted === null)
    return {
      rule: 'attribution',
      status: policy === 'required' ? 'fail' : 'warn',
      clause,
      message: `no Assisted-by trailer on a commit of a ${made} (commit.attribution: ${policy}; the commit-msg hook adds it)${signed}`,
    };
  const values = commit.trailers.filter((t) => t.key.toLowerCase() === ASSISTED_BY.toLowerCase());
  if (!values.some((t) => namesAgent(t.value, agent)))
    return {
      rule: 'attribution',
      status: policy === 'required' ? 'fail' : 'warn',
      clause,
      message: `Assisted-by: ${assisted} does not name the ${made} (commit.attribution: ${policy})${signed}`,
    };
  if (signed !== '')
    return { rule: 'attribution', status: 'warn', clause, message: `Assisted-by: ${assisted}${signed}` };
  return { rule: 'attribution', status: 'pass', message: `Assisted-by: ${assisted}`, clause };
}
