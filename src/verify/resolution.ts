/**
 * Pure: is a conflicted file's recorded merge result git's own re-merge of it, with only the conflict hunks
 * resolved (issue 40)? The re-merge is read with diff3 markers, so each hunk shows ours, base and theirs.
 * Every line outside a hunk must stay, in order; each hunk's resolution must be made of that hunk's lines.
 */

/** A text's lines (a final newline ends the last line; it does not start another). */
export function textLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The old side of a `-U0` diff (git's re-merge), rebuilt from its new side (the recorded file) and its
 * hunks (`@@` lines onward). Null when the hunks do not fit the new side.
 */
export function oldSide(newLines: readonly string[], hunks: readonly string[]): string[] | null {
  const out: string[] = [];
  let cursor = 0;
  let i = 0;
  while (i < hunks.length) {
    const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(hunks[i++]!);
    if (!m) return null;
    const count = m[2] === undefined ? 1 : Number(m[2]);
    const before = count === 0 ? Number(m[1]) : Number(m[1]) - 1;
    if (before < cursor || before + count > newLines.length) return null;
    out.push(...newLines.slice(cursor, before));
    let added = 0;
    while (i < hunks.length && !hunks[i]!.startsWith('@@')) {
      const line = hunks[i++]!;
      if (line.startsWith('-')) out.push(line.slice(1));
      else if (line.startsWith('+')) added++;
    }
    if (added !== count) return null;
    cursor = before + count;
  }
  out.push(...newLines.slice(cursor));
  return out;
}

/** Lines outside conflicts, or one conflict hunk: the set of its ours, base and theirs lines. */
export type Piece = { plain: string[]; at: number } | { sides: Set<string> };

const OPEN = /^<{7}( |$)/;
const BASE = /^\|{7}( |$)/;
const SPLIT = /^={7}$/;
const CLOSE = /^>{7}( |$)/;

/** A re-merged text (diff3 markers) cut into pieces; null when a hunk is not closed. */
export function conflictPieces(lines: readonly string[]): Piece[] | null {
  const pieces: Piece[] = [];
  let plain: string[] = [];
  let at = 0;
  let sides: Set<string> | null = null;
  lines.forEach((line, n) => {
    if (sides === null) {
      if (!OPEN.test(line)) return void plain.push(line);
      pieces.push({ plain, at });
      plain = [];
      sides = new Set();
    } else if (CLOSE.test(line)) {
      pieces.push({ sides });
      sides = null;
      at = n + 1;
    } else if (!BASE.test(line) && !SPLIT.test(line)) sides.add(line);
  });
  if (sides !== null) return null;
  pieces.push({ plain, at });
  return pieces;
}

/** Pure: why a string is shown in a message (quoted, cut to 100 characters). */
const shown = (s: string | undefined): string =>
  s === undefined ? 'the end of the file' : `\`${s.length > 100 ? `${s.slice(0, 100)}…` : s}\``;

/**
 * The first line where `merged` stops being `pieces` with each hunk replaced by lines of its sides, as a
 * message part ("line N: git's re-merge has X, the merge has Y"); null when it is such a resolution.
 */
export function firstUnresolved(pieces: readonly Piece[], merged: readonly string[]): string | null {
  let reach = new Set([0]);
  let worst = { pos: -1, remerge: undefined as string | undefined };
  const miss = (pos: number, remerge: string | undefined) => {
    if (pos > worst.pos) worst = { pos, remerge };
  };
  for (const piece of pieces) {
    const next = new Set<number>();
    for (const p of reach) {
      if ('sides' in piece) {
        let q = p;
        next.add(q);
        while (q < merged.length && piece.sides.has(merged[q]!)) next.add(++q);
        continue;
      }
      const k = piece.plain.findIndex((line, j) => merged[p + j] !== line);
      if (k === -1) next.add(p + piece.plain.length);
      else miss(p + k, piece.plain[k]);
    }
    reach = next;
    if (reach.size === 0) break;
  }
  if (reach.has(merged.length)) return null;
  for (const p of reach) miss(p, undefined);
  return `line ${worst.pos + 1}: git's re-merge has ${shown(worst.remerge)}, the merge has ${shown(merged[worst.pos])}`;
}

/**
 * Why a conflicted file's recorded result is not a resolution of git's re-merge of it, or null. `remerged`
 * is null when git's re-merge could not be read (a binary file): then, as when the re-merge has no hunk (a
 * modify/delete conflict), the file must be removed or be one parent's version whole.
 */
export function unresolvedDifference(
  remerged: readonly string[] | null,
  merged: string | null,
  parents: readonly (string | null)[],
): string | null {
  const pieces = remerged === null ? null : conflictPieces(remerged);
  if (pieces === null || pieces.length === 1) {
    if (merged === null || parents.includes(merged)) return null;
    if (pieces === null) return "git's re-merge could not be read, and the file is none of its parents' versions";
  }
  return firstUnresolved(pieces!, merged === null ? [] : textLines(merged));
}
