// Turning samples into the printed tables and the results JSON.
import { budgetVerdict, pairedRatios, summarize } from './stats.mjs';

const fmt = (x, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));
const pad = (s, n) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s, n) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const budgetText = (b) => (b ? `${b.op === '<' ? '<' : '≤'}${b.limit}` : '');

/** Summaries of one member's samples: wall ms, and peak RSS in MB when measured. */
export function summarizeMember(samples) {
  const rss =
    samples.rssKb.every((x) => typeof x === 'number') && samples.rssKb.length
      ? samples.rssKb.map((kb) => kb / 1024)
      : null;
  return { wall: summarize(samples.wallMs), rss: rss ? summarize(rss) : null };
}

/** Paired ratios of one comparison (per-iteration case/baseline), summarized, with the budget verdict. */
export function ratioOf(group, spec, samplesById) {
  const c = samplesById[spec.case];
  const b = samplesById[spec.baseline];
  const key = spec.metric === 'rss' ? 'rssKb' : 'wallMs';
  if (!c || !b || c[key].some((x) => x === null) || b[key].some((x) => x === null)) {
    return { ...spec, group, summary: null, verdict: spec.budget ? 'SKIP' : '' };
  }
  const summary = summarize(pairedRatios(c[key], b[key]));
  return { ...spec, group, summary, verdict: spec.budget ? budgetVerdict(summary.median, spec.budget) : '' };
}

/** An absolute budget (e.g. a median under 5 ms). */
export function absoluteOf(group, spec, summaries) {
  const s = summaries[spec.case]?.[spec.metric];
  return { ...spec, group, summary: s ?? null, verdict: spec.budget ? budgetVerdict(s?.median, spec.budget) : '' };
}

/** The per-member table: wall median (p25–p75) and peak RSS median. */
export function memberTable(rows) {
  const lines = [
    `${pad('group / member', 64)} ${lpad('wall ms median', 14)} ${lpad('(p25–p75)', 17)} ${lpad('RSS MB', 7)} ${lpad('(p25–p75)', 13)}  n`,
  ];
  for (const r of rows) {
    if (r.skipped) {
      lines.push(`${pad(`${r.group} / ${r.label}`, 64)} SKIPPED: ${r.skipped}`);
      continue;
    }
    const w = r.wall;
    lines.push(
      `${pad(`${r.group} / ${r.label}`, 64)} ${lpad(fmt(w.median, w.median < 10 ? 2 : 1), 14)} ${lpad(
        `(${fmt(w.p25, w.median < 10 ? 2 : 1)}–${fmt(w.p75, w.median < 10 ? 2 : 1)})`,
        17,
      )} ${lpad(fmt(r.rss?.median), 7)} ${lpad(r.rss ? `(${fmt(r.rss.p25)}–${fmt(r.rss.p75)})` : '', 13)}  ${w.n}`,
    );
  }
  return lines.join('\n');
}

/** The budget table: ratio (median of per-pair ratios, p25–p75) or absolute median, budget and verdict. */
export function budgetTable(ratios, absolutes, labels) {
  const lines = [
    `${pad('comparison', 78)} ${lpad('median', 8)} ${lpad('(p25–p75)', 15)} ${lpad('budget', 7)}  verdict`,
  ];
  for (const r of ratios) {
    if (!r.summary && !r.budget) continue;
    const name = `${labels[r.case] ?? r.case} / ${labels[r.baseline] ?? r.baseline}${r.metric === 'rss' ? ' [RSS]' : ''}`;
    const s = r.summary;
    lines.push(
      `${pad(name, 78)} ${lpad(s ? `${fmt(s.median, 2)}×` : '—', 8)} ${lpad(s ? `(${fmt(s.p25, 2)}–${fmt(s.p75, 2)})` : '', 15)} ${lpad(
        budgetText(r.budget),
        7,
      )}  ${r.verdict}`,
    );
  }
  for (const a of absolutes) {
    if (!a.summary && !a.budget) continue;
    const s = a.summary;
    lines.push(
      `${pad(`${labels[a.case] ?? a.case} (absolute, ms)`, 78)} ${lpad(s ? fmt(s.median, 2) : '—', 8)} ${lpad(
        s ? `(${fmt(s.p25, 2)}–${fmt(s.p75, 2)})` : '',
        15,
      )} ${lpad(a.budget ? `${budgetText(a.budget)}ms` : '', 7)}  ${a.verdict}`,
    );
  }
  return lines.join('\n');
}

/** The deltas against the previous run, worst first. */
export function deltaTable(deltas) {
  if (deltas.length === 0) return 'no comparable previous run';
  const sorted = [...deltas].sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta));
  return sorted
    .map(
      (d) =>
        `${pad(`${d.id} ${d.metric}`, 50)} ${lpad(fmt(d.previous, 2), 10)} → ${lpad(fmt(d.current, 2), 10)}  ${d.delta >= 0 ? '+' : ''}${fmt(d.delta * 100)}%`,
    )
    .join('\n');
}
