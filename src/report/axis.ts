/**
 * The timeline's time axis (pure): its extent, and where it breaks. A gap with nothing in it that takes a
 * large share of the axis (a +25 h acknowledgment before half an hour of work) is cut out and drawn as a
 * narrow break, so what happened on either side of it keeps its width.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** A gap is cut when it lasts at least BREAK_MIN and at least BREAK_SHARE of the axis; at most MAX_BREAKS. */
const BREAK_MIN = 2 * HOUR;
const BREAK_SHARE = 0.1;
const MAX_BREAKS = 6;
/** Pixels: a break's width, the padding on either side of one, the least width of a stretch. */
const BREAK_W = 24;
const PAD = 8;
const MIN_STRETCH = 80;

/** A stretch of the axis with no break in it: its times and the pixels it covers. */
export interface Span {
  from: number;
  to: number;
  left: number;
  right: number;
}

export interface Scale {
  /** The pixel of a time; a time off the axis is drawn at its edge. */
  x: (t: number) => number;
  stretches: Span[];
  /** The gaps cut out, between two stretches. */
  breaks: Span[];
}

/**
 * Pure: the axis [t0, t1]. Its extent comes from the range's commits, not from every date: a committer date
 * or an event in year 9999 would otherwise squeeze the rest onto one point. A commit date counts when it lies
 * within the interquartile fence of the commit dates (3 IQR, at least a year); events inside that fence widen
 * the axis; anything outside it is an outlier, clamped to the edge and counted in a note.
 */
export function axisRange(commitTimes: readonly number[], all: readonly number[]): [number, number] {
  const sorted = [...commitTimes].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))]!;
  const reach = Math.max(3 * (q(0.75) - q(0.25)), 366 * DAY);
  const lo = q(0.25) - reach;
  const hi = q(0.75) + reach;
  const kept = all.filter((t) => t >= lo && t <= hi);
  return kept.length > 0 ? [Math.min(...kept), Math.max(...kept)] : [sorted[0]!, sorted[sorted.length - 1]!];
}

/** Pure: the gaps to cut among `times` on [t0, t1]: the longest that qualify, in time order. */
function gapsToCut(times: readonly number[], t0: number, t1: number): [number, number][] {
  const inside = [...new Set([t0, t1, ...times.filter((t) => t >= t0 && t <= t1)])].sort((a, b) => a - b);
  const gaps: [number, number][] = [];
  for (let i = 1; i < inside.length; i++) {
    const gap = inside[i]! - inside[i - 1]!;
    if (gap >= BREAK_MIN && gap >= BREAK_SHARE * (t1 - t0)) gaps.push([inside[i - 1]!, inside[i]!]);
  }
  return gaps
    .sort((a, b) => b[1] - b[0] - (a[1] - a[0]))
    .slice(0, MAX_BREAKS)
    .sort((a, b) => a[0] - b[0]);
}

/**
 * Pure: the scale of the pixels [left, right] for [t0, t1] and the dates drawn on it. With no gap to cut it
 * is linear edge to edge. Otherwise each stretch gets MIN_STRETCH pixels plus a share of the rest by its
 * duration, a point in time sits at its stretch's centre, and a time inside a cut gap falls inside its break.
 */
export function scaleOf(times: readonly number[], t0: number, t1: number, left: number, right: number): Scale {
  const cuts = gapsToCut(times, t0, t1);
  const bounds = [t0, ...cuts.flat(), t1];
  const spans: [number, number][] = [];
  for (let i = 0; i < bounds.length; i += 2) spans.push([bounds[i]!, bounds[i + 1]!]);
  const total = spans.reduce((n, [a, b]) => n + (b - a), 0);
  const spare = right - left - cuts.length * BREAK_W - spans.length * MIN_STRETCH;
  const stretches: Span[] = [];
  const knots: [number, number][] = [];
  let px = left;
  spans.forEach(([from, to], i) => {
    const width = MIN_STRETCH + (total > 0 ? (spare * (to - from)) / total : spare / spans.length);
    const span = { from, to, left: px, right: cuts.length === 0 ? right : px + width };
    stretches.push(span);
    if (from === to) knots.push([from, (span.left + span.right) / 2]);
    else knots.push([from, span.left + (i > 0 ? PAD : 0)], [to, span.right - (i < spans.length - 1 ? PAD : 0)]);
    px = span.right + BREAK_W;
  });
  const breaks = cuts.map(([from, to], i) => ({ from, to, left: stretches[i]!.right, right: stretches[i + 1]!.left }));
  const x = (t: number) => {
    const c = Math.min(t1, Math.max(t0, t));
    let k = 0;
    while (k < knots.length - 2 && c > knots[k + 1]![0]) k++;
    const [ta, xa] = knots[k]!;
    const [tb, xb] = knots[k + 1] ?? knots[k]!;
    return tb === ta ? xa : xa + ((c - ta) / (tb - ta)) * (xb - xa);
  };
  return { x, stretches, breaks };
}

/** Pure: a gap's length as a reader says it (`45 min`, `25 h`, `12 d`). */
export function gapLabel(ms: number): string {
  if (ms < HOUR) return `${Math.round(ms / 60_000)} min`;
  if (ms < 2 * DAY) return `${Math.round(ms / HOUR)} h`;
  return `${Math.round(ms / DAY)} d`;
}
