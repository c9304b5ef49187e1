import { axisRange, gapLabel, scaleOf, type Scale } from './axis.js';
import { escapeHtml } from './escape.js';
import type { ReportCommit, ReportData, ReportSession, SessionEvent } from './model.js';

const WIDTH = 960;
const LEFT = 210;
const RIGHT = 16;
const LANE = 28;
const TOP = 40;
/** Above this many commits, a lane shows its commits in time buckets instead of one mark each. */
export const TIMELINE_MARK_LIMIT = 1500;
const BUCKETS = 160;
/** At most this many lanes are drawn; the rest share one lane. */
export const LANE_LIMIT = 40;

type Status = 'fail' | 'warn' | 'pass';

/** Pure: a commit's worst verdict status (skip counts as pass). */
export function worst(c: Pick<ReportCommit, 'verdicts'>): Status {
  let out: Status = 'pass';
  for (const v of c.verdicts) {
    if (v.status === 'fail') return 'fail';
    if (v.status === 'warn') out = 'warn';
  }
  return out;
}

const ms = (iso: string) => Date.parse(iso);
const short = (sha: string) => sha.slice(0, 7);

/** Pure: the SVG timeline: one lane per session (clock-in, anchors, acks, resets, refreshes, commits) on one time axis. */
export function timelineSvg(data: ReportData): string {
  const byId = new Map(data.commits.map((c) => [c.sha, c]));
  const times: number[] = [];
  for (const c of data.commits) if (!Number.isNaN(ms(c.committerDate))) times.push(ms(c.committerDate));
  for (const s of data.sessions) for (const e of s.events) if (!Number.isNaN(ms(e.at))) times.push(ms(e.at));
  const lanes = visibleLanes(data, byId);
  const commitTimes = data.commits.map((c) => ms(c.committerDate)).filter((t) => !Number.isNaN(t));
  let [t0, t1] = times.length > 0 ? axisRange(commitTimes.length > 0 ? commitTimes : times, times) : [0, 0];
  const outside = times.filter((t) => t < t0 || t > t1).length;
  const bottom = TOP + lanes.length * LANE + 6;
  const height = bottom + 6 + (outside > 0 ? 16 : 0);
  const open = `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="timeline: one lane per session">`;
  if (times.length === 0) return `${open}<text x="10" y="20">no dated commits in the range</text></svg>`;
  if (t1 - t0 < 60_000) {
    t0 -= 30_000;
    t1 += 30_000;
  }
  // Long empty gaps are cut out (a break); a date off the axis is clamped to its edge (its mark's title keeps the real date).
  const scale = scaleOf(times, t0, t1, LEFT, WIDTH - RIGHT);
  const x = (t: number) => scale.x(t).toFixed(1);
  const parts = [open, axisMarks(scale, t0, t1, bottom)];
  // The note goes in a row of its own under the lanes, clear of the axis labels.
  if (outside > 0)
    parts.push(
      `<text class="axis note" x="6" y="${height - 6}">${outside} date(s) outside the axis, drawn at its edge</text>`,
    );
  const marks = data.commits.length <= TIMELINE_MARK_LIMIT;
  lanes.forEach((s, i) => {
    const y = TOP + i * LANE + LANE / 2;
    const target = s.id === null ? '' : ` href="#s-${escapeHtml(s.id)}"`;
    parts.push('<g class="lane">');
    for (const st of scale.stretches)
      parts.push(
        `<line class="lane-line" x1="${st.left.toFixed(1)}" y1="${y}" x2="${st.right.toFixed(1)}" y2="${y}"/>`,
      );
    parts.push(
      `<a${target}><text class="lane-label" x="6" y="${y + 4}">${escapeHtml(truncate(s.label, 30))}</text></a>`,
    );
    for (const e of s.events) parts.push(eventMark(e, x, y));
    const commits = s.commits.map((sha) => byId.get(sha)!).filter((c) => !Number.isNaN(ms(c.committerDate)));
    if (marks && s.commits.length <= TIMELINE_MARK_LIMIT / 4)
      for (const c of commits) parts.push(commitMark(c, x(ms(c.committerDate)), y));
    else parts.push(...buckets(commits, scale.x, y));
    parts.push('</g>');
  });
  parts.push('</svg>');
  return parts.join('');
}

const stamp = (t: number) => new Date(t).toISOString().slice(5, 16).replace('T', ' ');

/**
 * The axis: the years and time zone in the label column, tick labels on each stretch (none overlapping the
 * one before), and each break as a shaded band that says how long the gap was.
 */
function axisMarks(scale: Scale, t0: number, t1: number, bottom: number): string {
  const years = [...new Set([t0, t1].map((t) => new Date(t).toISOString().slice(0, 4)))].join('-');
  const out = [`<text class="axis" x="6" y="12">UTC, ${years}</text>`];
  let end = -Infinity;
  for (const [i, st] of scale.stretches.entries()) {
    const first = i === 0 ? st.left : st.left + 8;
    const last = i === scale.stretches.length - 1 ? st.right : st.right - 8;
    const n = st.to === st.from ? 0 : Math.max(1, Math.floor((last - first) / 170));
    for (let k = 0; k <= n; k++) {
      const t = n === 0 ? st.from : st.from + ((st.to - st.from) * k) / n;
      const px = scale.x(t);
      const label = stamp(t);
      const anchor = n === 0 ? 'middle' : k === 0 ? 'start' : k === n ? 'end' : 'middle';
      const w = label.length * 6.2;
      const from = anchor === 'start' ? px : anchor === 'end' ? px - w : px - w / 2;
      out.push(`<line class="tick" x1="${px.toFixed(1)}" y1="${TOP - 8}" x2="${px.toFixed(1)}" y2="${bottom}"/>`);
      if (from <= end + 6) continue;
      end = from + w;
      out.push(`<text class="axis" x="${px.toFixed(1)}" y="12" text-anchor="${anchor}">${label}</text>`);
    }
  }
  for (const b of scale.breaks) {
    const title = `no activity for ${gapLabel(b.to - b.from)}: ${stamp(b.from)} to ${stamp(b.to)} UTC`;
    out.push(
      `<g class="break"><title>${title}</title><rect class="gap" x="${b.left.toFixed(1)}" y="${TOP - 22}" width="${(b.right - b.left).toFixed(1)}" height="${bottom - TOP + 22}"/><text class="axis" x="${((b.left + b.right) / 2).toFixed(1)}" y="${TOP - 10}" text-anchor="middle">${gapLabel(b.to - b.from)}</text></g>`,
    );
  }
  return out.join('');
}

/**
 * The lanes drawn: all of them up to LANE_LIMIT; beyond it, the lanes with errors, then warnings, then the
 * most commits, in their order, and one last lane holding the commits of all the others (no events).
 */
function visibleLanes(data: ReportData, byId: ReadonlyMap<string, ReportCommit>): ReportSession[] {
  if (data.sessions.length <= LANE_LIMIT) return data.sessions;
  const weight = (s: ReportSession) => {
    let w = s.commits.length;
    for (const sha of s.commits) {
      const status = worst(byId.get(sha)!);
      if (status === 'fail') w += 1e9;
      else if (status === 'warn') w += 1e6;
    }
    return w;
  };
  const ranked = data.sessions.map((s, i) => ({ s, i, w: weight(s) })).sort((a, b) => b.w - a.w || a.i - b.i);
  const kept = new Set(ranked.slice(0, LANE_LIMIT - 1).map((r) => r.i));
  const shown = data.sessions.filter((_, i) => kept.has(i));
  const others = data.sessions.filter((_, i) => !kept.has(i));
  shown.push({
    id: null,
    label: `${others.length} more lanes`,
    role: null,
    anchors: [],
    events: [],
    commits: others.flatMap((s) => s.commits),
  });
  return shown;
}

function commitMark(c: ReportCommit, cx: string, y: number): string {
  const title = `<title>${escapeHtml(`${short(c.sha)} ${c.header} (${c.committerDate}; ${worst(c)})`)}</title>`;
  const cls = `c-${worst(c)}`;
  const shape =
    c.shape === 'merge'
      ? `<g class="merge"><path class="${cls}" d="M${cx},${y - 7}l7,7l-7,7l-7,-7z"/></g>`
      : c.shape === 'squash'
        ? `<g class="squash"><rect class="${cls}" x="${Number(cx) - 6}" y="${y - 6}" width="12" height="12"/></g>`
        : `<circle class="commit ${cls}" cx="${cx}" cy="${y}" r="5"/>`;
  return `<a href="#c-${c.sha}">${title}${shape}</a>`;
}

function eventMark(e: SessionEvent, x: (t: number) => string, y: number): string {
  if (Number.isNaN(ms(e.at))) return '';
  const cx = Number(x(ms(e.at)));
  const title = `<title>${escapeHtml(`${e.kind} ${e.at}${e.reason ? `: ${e.reason}` : ''}`)}</title>`;
  if (e.kind === 'clock-in') return `<path class="ev clock-in" d="M${cx - 6},${y - 9}l12,0l-6,8z">${title}</path>`;
  if (e.kind === 'anchor')
    return `<g class="ev anchor">${title}<line x1="${cx}" y1="${y - 11}" x2="${cx}" y2="${y + 11}"/><path d="M${cx},${y - 11}l8,3l-8,3z"/></g>`;
  return `<rect class="ev ${e.kind}" x="${cx - 2}" y="${y + 6}" width="4" height="7">${title}</rect>`;
}

/** Commits of a lane in buckets of the axis's pixels: one bar per bucket, shaded by its worst verdict. */
function buckets(commits: readonly ReportCommit[], x: (t: number) => number, y: number) {
  const plot = WIDTH - LEFT - RIGHT;
  const bins = new Map<number, { n: number; fail: number; warn: number; first: string }>();
  for (const c of commits) {
    const b = Math.min(BUCKETS - 1, Math.floor(((x(ms(c.committerDate)) - LEFT) / plot) * BUCKETS));
    const bin = bins.get(b) ?? { n: 0, fail: 0, warn: 0, first: c.sha };
    bin.n++;
    const w = worst(c);
    if (w === 'fail') bin.fail++;
    else if (w === 'warn') bin.warn++;
    bins.set(b, bin);
  }
  const width = (plot / BUCKETS).toFixed(1);
  const out: string[] = [];
  for (const [b, bin] of [...bins].sort((p, q) => p[0] - q[0])) {
    const cls = bin.fail > 0 ? 'c-fail' : bin.warn > 0 ? 'c-warn' : 'c-pass';
    out.push(
      `<a href="#c-${bin.first}"><rect class="bucket ${cls}" x="${(LEFT + (plot * b) / BUCKETS).toFixed(1)}" y="${y - 7}" width="${width}" height="14"><title>${bin.n} commits: ${bin.fail} failing, ${bin.warn} with warnings</title></rect></a>`,
    );
  }
  return out;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
