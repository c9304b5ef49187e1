import type { Verdict } from '../tdd/verdict.js';
import { encodePath, escapeHtml as h } from './escape.js';
import type { GateRun, ReportAnchor, ReportCommit, ReportData, ReportSession } from './model.js';
import { percent } from './summary.js';
import { page } from './template.js';
import { timelineSvg, worst } from './timeline.js';

/** Up to this many commits are shown in full; beyond it, only commits with findings (up to the limit) are. */
export const FULL_COMMIT_LIMIT = 400;
const MARK = { fail: '✗', warn: '!', pass: '✓' } as const;
const short = (sha: string | null) => (sha === null ? 'root' : sha.slice(0, 7));

/** Pure: the report page, one self-contained HTML document (no script, no network). Everything from git is escaped. */
export function renderHtml(data: ReportData): string {
  const title = `hestai report ${short(data.range.from)}..${short(data.range.to)}`;
  const body = [
    `<header><h1>hestai report</h1><p>range <code>${short(data.range.from)}..${short(data.range.to)}</code> · <span class="verdict ${data.ok ? 'ok' : 'failed'}">${data.ok ? 'verify passes' : 'verify FAILS'}</span> · every verdict below is <code>hestai verify</code>'s own</p></header>`,
    summarySection(data),
    `<section id="timeline"><h2>Timeline</h2><div class="timeline-box">${timelineSvg(data)}</div>${legend()}</section>`,
    sessionsSection(data),
    exceptionsSection(data),
    commitsSection(data),
    policySection(data),
  ].join('\n');
  return page(h(title), body);
}

function metric(name: string, label: string, value: string, tone = ''): string {
  return `<div data-metric="${name}"${tone ? ` class="${tone}"` : ''}><dt>${label}</dt><dd>${h(value)}</dd></div>`;
}

function summarySection(data: ReportData): string {
  const s = data.summary;
  const protocol =
    s.protocol === null
      ? 'none published'
      : `${s.protocol.runs}${
          Object.keys(s.protocol.outcomes).length
            ? ` (${Object.entries(s.protocol.outcomes)
                .map(([k, n]) => `${k} ${n}`)
                .join(', ')})`
            : ''
        }`;
  const rules = Object.entries(s.byRule)
    .map(
      ([rule, n]) =>
        `<tr><td>${h(rule)}</td><td class="st pass">${n.pass}</td><td class="st fail">${n.fail}</td><td class="st warn">${n.warn}</td><td class="st skip">${n.skip}</td></tr>`,
    )
    .join('');
  return `<section id="summary"><h2>Summary</h2><dl class="summary">${[
    metric('commits', 'commits', String(s.commits)),
    metric('test-first', 'feats test-first', percent(s.testFirst)),
    metric(
      'anchored',
      'commits anchored',
      s.anchored === null ? 'not checked (verify.anchors: off)' : percent(s.anchored),
    ),
    metric('sessions', 'sessions', String(s.sessions)),
    metric('errors', 'errors', String(s.errors), s.errors > 0 ? 'bad' : ''),
    metric('warnings', 'warnings', String(s.warnings), s.warnings > 0 ? 'warnish' : ''),
    metric('bypasses', 'bypasses', String(s.bypasses), s.bypasses > 0 ? 'warnish' : ''),
    metric('exemptions', 'exemptions', String(s.exemptions)),
    metric('protocol', 'protocol runs', protocol),
  ].join('')}</dl>
<details><summary>verdicts by rule</summary><table class="by-rule"><tr><th>rule</th><th>pass</th><th>fail</th><th>warn</th><th>skip</th></tr>${rules}</table></details></section>`;
}

function legend(): string {
  return `<p class="legend muted"><span>● commit (green pass, amber warning, red error)</span><span>◆ merge</span><span>■ squash</span><span>▼ clock-in</span><span>⚑ anchor</span><span>▮ ack / reset / refresh</span><span>░ break: a gap with no activity, its length above</span></p>`;
}

function link(
  base: string | null,
  head: string | null,
  text: string,
  path = '',
  lines: ReportAnchor['tension'][number]['lines'] = null,
) {
  if (base === null || head === null) return text;
  const url =
    path === ''
      ? `${base.replace(/blob\/$/, 'commit/')}${head}`
      : `${base}${head}/${encodePath(path)}${lines ? `#L${lines.from}-L${lines.to}` : ''}`;
  return `<a href="${h(url)}">${text}</a>`;
}

function anchorBlock(a: ReportAnchor, base: string | null): string {
  if (a.problem !== null)
    return `<p>anchor <code>sha256:${a.digest.slice(0, 16)}…</code>: <span class="st warn">${h(a.problem)}</span></p>`;
  const rows = a.tension
    .map((t) => {
      const cited = `${h(t.path)}${t.lines ? `:${t.lines.from}-${t.lines.to}` : ''}`;
      return `<tr><td>${h(t.label)}</td><td>${h(t.constraint)}</td><td class="mono">${link(base, a.head, cited, t.path, t.lines)}</td><td>${h(t.state)}</td><td>${h(t.trigger)}</td></tr>`;
    })
    .join('');
  return `<p>anchor <code>sha256:${a.digest.slice(0, 16)}…</code> · ${h(a.tier ?? '')} · anchored ${h(a.anchoredAt ?? '')} at HEAD <code>${link(base, a.head, short(a.head))}</code> · context generated ${h(a.contextGeneratedAt ?? '')}</p>
<table class="tension"><tr><th>TENSION</th><th>constraint</th><th>cited file</th><th>state</th><th>trigger</th></tr>${rows}</table>
<p class="facts">ARTIFACT <code>${h(a.artifact ?? '')}</code> · GATE <code>${h(a.gate ?? '')}</code></p>`;
}

/** Up to this many sessions are shown in full (those with findings first); the others one line each. */
export const FULL_SESSION_LIMIT = 60;

function sessionLine(s: ReportSession): string {
  const id = s.id === null ? '' : ` id="s-${h(s.id)}"`;
  const anchors = s.anchors.map((a) => `${a.digest.slice(0, 12)}…${a.problem ? ' (no record)' : ''}`).join(', ');
  return `<tr${id}><td>${h(s.label)}</td><td>${s.commits.length}</td><td>${anchors}</td></tr>`;
}

function sessionBlock(s: ReportSession, base: string | null): string {
  const id = s.id === null ? '' : ` id="s-${h(s.id)}"`;
  const events = s.events.map((e) => `<li>${h(e.kind)} ${h(e.at)}${e.reason ? `: ${h(e.reason)}` : ''}</li>`).join('');
  return `<details${id}><summary><strong>${h(s.label)}</strong> <span class="meta">${s.commits.length} commit(s)${s.id ? ` · session ${h(s.id)}` : ''}</span></summary>
${s.anchors.map((a) => anchorBlock(a, base)).join('\n')}${events ? `<ul class="events">${events}</ul>` : ''}</details>`;
}

function sessionsSection(data: ReportData): string {
  const status = new Map(data.commits.map((c) => [c.sha, worst(c)]));
  const rank = (s: ReportSession) =>
    s.commits.some((sha) => status.get(sha) === 'fail')
      ? 0
      : s.commits.some((sha) => status.get(sha) === 'warn')
        ? 1
        : 2;
  const full = new Set(
    data.sessions
      .map((s, i) => ({ i, r: rank(s) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .slice(0, FULL_SESSION_LIMIT)
      .map((x) => x.i),
  );
  const blocks = data.sessions.filter((_, i) => full.has(i)).map((s) => sessionBlock(s, data.blobBase));
  const rest = data.sessions.filter((_, i) => !full.has(i));
  const lines = rest.length
    ? `<details><summary>${rest.length} more session(s), one line each</summary><table class="session-list mono"><tr><th>session</th><th>commits</th><th>anchors</th></tr>${rest.map(sessionLine).join('')}</table></details>`
    : '';
  return `<section id="sessions"><h2>Sessions</h2>${blocks.join('\n') || '<p class="muted">no commits in the range</p>'}${lines}</section>`;
}

function exceptionsSection(data: ReportData): string {
  const rows: string[] = [];
  for (const c of data.commits) {
    const v = (rule: string) => c.verdicts.find((x) => x.rule === rule);
    const bypass = v('bypass');
    if (c.bypass !== null || bypass)
      rows.push(
        `<tr><td>bypass</td><td><a href="#c-${c.sha}"><code>${short(c.sha)}</code></a> ${h(c.header)}</td><td>${h(c.bypass ?? bypass?.message ?? '')}</td><td class="st ${bypass?.status ?? 'skip'}">${bypass?.status ?? ''}</td></tr>`,
      );
    if (c.exempt !== null) {
      const tf = v('test-first');
      rows.push(
        `<tr><td>TDD-Exempt</td><td><a href="#c-${c.sha}"><code>${short(c.sha)}</code></a> ${h(c.header)}</td><td>${h(c.exempt)}</td><td class="st ${tf?.status ?? 'skip'}">${tf?.status ?? ''}</td></tr>`,
      );
    }
  }
  return `<section id="exceptions"><h2>Bypasses and exemptions</h2>${
    rows.length
      ? `<table><tr><th>kind</th><th>commit</th><th>reason</th><th>verdict</th></tr>${rows.join('')}</table>`
      : '<p class="muted">none</p>'
  }</section>`;
}

function verdictRow(v: Verdict): string {
  return `<tr data-rule="${h(v.rule)}" data-status="${v.status}"><td>${h(v.rule)}</td><td class="st ${v.status}">${v.status}</td><td class="msg">${h(v.message)}</td><td class="clause">${h(v.clause ?? '')}</td></tr>`;
}

/** Up to this many changed files are named per commit; the rest are counted. */
const FILES_SHOWN = 20;

function commitSection(c: ReportCommit, data: ReportData, sessionLabel: Map<string, string>): string {
  const status = worst(c);
  const facts: string[] = [`${h(c.author)} · ${h(c.committerDate)}`];
  if (c.session !== null)
    facts.push(`session <a href="#s-${h(c.session)}">${h(sessionLabel.get(c.session) ?? c.session)}</a>`);
  if (c.anchor !== null) facts.push(`anchor <code>sha256:${c.anchor.slice(0, 16)}…</code>`);
  const anchorSkip = c.verdicts.find((v) => v.rule === 'anchor' && v.status === 'skip');
  if (anchorSkip) facts.push(`<span class="exempt">anchor exempt: ${h(anchorSkip.message)}</span>`);
  if (c.paired.length > 0)
    facts.push(
      `paired with test commit ${c.paired
        .map(
          (p) => `<a href="#c-${h(p.sha)}"><code>${short(p.sha)}</code></a>${p.relation ? ` (${h(p.relation)})` : ''}`,
        )
        .join(', ')}`,
    );
  if (c.squashOf !== null)
    facts.push(
      `squash of ${h(c.squashOf.branch.replace(/^refs\/heads\//, ''))} (tip ${short(c.squashOf.tip)}, ${c.squashOf.commits} commit(s), matched by ${h(c.squashOf.matched_by)})`,
    );
  if (c.shape !== 'commit')
    facts.push(`<strong>${c.shape}</strong>${c.shape === 'merge' ? ` of ${c.parents.length} parents` : ''}`);
  if (c.files.length > 0) {
    const shown = c.files.slice(0, FILES_SHOWN).map((f) => `<code>${h(f)}</code>`);
    const more = c.files.length > FILES_SHOWN ? ` and ${c.files.length - FILES_SHOWN} more` : '';
    facts.push(`files: ${shown.join(' ')}${more}`);
  }
  if (c.gate !== null) facts.push(`GATE <code>${h(c.gate.command)}</code>: ${gateText(c.gate)}`);
  if (c.exempt !== null) facts.push(`TDD-Exempt: ${h(c.exempt)}`);
  if (c.bypass !== null) facts.push(`HestAI-Bypass: ${h(c.bypass)}`);
  return `<section class="commit" id="c-${c.sha}" data-sha="${c.sha}" data-status="${status}"><details${status === 'pass' ? '' : ' open'}><summary><span class="mark ${status}">${MARK[status]}</span> <code>${link(data.blobBase, c.sha, short(c.sha))}</code> ${h(c.header)}</summary>
<p class="facts">${facts.join(' · ')}</p>
<table class="verdicts"><tr><th>rule</th><th>status</th><th>message</th><th>clause</th></tr>${c.verdicts.map(verdictRow).join('')}</table></details></section>`;
}

const GATE_TEXT: Record<GateRun['ran'], string> = {
  passed: 'run by the protocol',
  failed: 'run by the protocol',
  'not run': 'not run by the protocol',
  'named check': 'a named check, not a command the protocol runs',
  'no protocol run': 'no protocol run published for the session (with its command gates)',
};

/** Whether the protocol ran a commit's anchor GATE, and which of its gates did. */
function gateText(g: GateRun): string {
  const by = g.by === null ? '' : g.ran === 'not run' ? ` (${h(g.by)}: not run)` : ` (${h(g.by)}, ${g.ran})`;
  return `${GATE_TEXT[g.ran]}${by}${g.ran === 'not run' && g.by === null ? ' (no command gate of its run is this command)' : ''}`;
}

function compactRow(c: ReportCommit): string {
  const findings = c.verdicts
    .filter((v) => v.status === 'fail' || v.status === 'warn')
    .map((v) => `${v.rule} ${v.status}`);
  return `<tr id="c-${c.sha}" data-status="${worst(c)}"><td>${short(c.sha)}</td><td>${h(c.header)}</td><td>${h(findings.join(', '))}</td></tr>`;
}

/** Which commits get a full section: all of them up to the limit; beyond it, only those with errors, then warnings, up to the limit. */
export function fullCommits(commits: readonly ReportCommit[], limit = FULL_COMMIT_LIMIT): Set<string> {
  if (commits.length <= limit) return new Set(commits.map((c) => c.sha));
  const chosen = new Set<string>();
  for (const want of ['fail', 'warn'] as const)
    for (const c of commits) if (chosen.size < limit && worst(c) === want) chosen.add(c.sha);
  return chosen;
}

function commitsSection(data: ReportData): string {
  const full = fullCommits(data.commits);
  const labels = new Map(data.sessions.filter((s) => s.id !== null).map((s) => [s.id!, s.label]));
  const sections = data.commits.filter((c) => full.has(c.sha)).map((c) => commitSection(c, data, labels));
  const rest = data.commits.filter((c) => !full.has(c.sha));
  const compact = rest.length
    ? `<details><summary>${rest.length} more commit(s), one line each (the ${full.size} above are shown in full: errors first, then warnings)</summary><table class="compact-list mono"><tr><th>commit</th><th>header</th><th>findings</th></tr>${rest.map(compactRow).join('')}</table></details>`
    : '';
  return `<section id="commits"><h2>Commits</h2><p class="filter"><label><input type="checkbox" id="only-findings"> only commits with errors or warnings</label></p>
${sections.join('\n')}${compact}</section>`;
}

function policySection(data: ReportData): string {
  if (data.policy_changes.length === 0) return '';
  return `<section id="policy"><h2>Policy changes on the branch (warnings)</h2><ul>${data.policy_changes.map((p) => `<li>${h(p.message)}</li>`).join('')}</ul></section>`;
}
