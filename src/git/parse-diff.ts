/** One file of a working-tree diff summary. */
export interface DiffFileSummary {
  path: string;
  hunks: number;
  added: number;
  removed: number;
  binary: boolean;
}

/** A bounded summary of `git diff HEAD` (seed 000 STEP_5): counts over every file read, the largest few listed. */
export interface DiffSummary {
  available: boolean;
  /** Why there is no summary (no commits yet, git failed); null when available. */
  reason: string | null;
  files: number;
  hunks: number;
  added: number;
  removed: number;
  binary: number;
  /** The output was longer than the bound: the counts cover what was read. */
  truncated: boolean;
  /** At most `top` files, most changed lines first. */
  top: DiffFileSummary[];
}

/** Pure: a path of a `diff --git a/<p> b/<p>` line (no renames: both sides are the same path), or null. */
export function diffHeaderPath(line: string): string | null {
  const rest = line.slice('diff --git '.length);
  if (rest.startsWith('"')) {
    const first = cUnquote(rest);
    if (first === null || !first.path.startsWith('a/')) return null;
    const second = cUnquote(rest.slice(first.length + 1));
    if (
      second === null ||
      second.path !== `b/${first.path.slice(2)}` ||
      first.length + 1 + second.length !== rest.length
    )
      return null;
    return first.path.slice(2);
  }
  const n = (rest.length - 5) / 2;
  if (!Number.isInteger(n) || n <= 0 || !rest.startsWith('a/')) return null;
  const path = rest.slice(2, 2 + n);
  return rest.slice(2 + n) === ` b/${path}` ? path : null;
}

/** Pure: git's C-style quoted string at the start of `text` (`"..."` with \\, \", \t, \n and octal bytes). */
export function cUnquote(text: string): { path: string; length: number } | null {
  if (!text.startsWith('"')) return null;
  const bytes: number[] = [];
  const escapes: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') return { path: Buffer.from(bytes).toString('utf8'), length: i + 1 };
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = text[++i];
    if (next === undefined) return null;
    if (/[0-7]/.test(next)) {
      const octal = text.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(octal)) return null;
      bytes.push(parseInt(octal, 8));
      i += 2;
    } else if (escapes[next] !== undefined) bytes.push(escapes[next]);
    else return null;
  }
  return null;
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Pure: summarises `git diff -U0 --no-renames` output. Lines are classified by their first characters
 * only: a header starts with `diff --git `, a hunk with `@@ ` (content lines start with `+`, `-`, ` ` or
 * `\`), so the counts come from the hunk headers and a changed line can never pass for a header.
 */
export function parseDiffSummary(text: string, options: { truncated: boolean; top: number }): DiffSummary {
  const files: DiffFileSummary[] = [];
  let current: DiffFileSummary | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      const path = diffHeaderPath(line) ?? line.slice('diff --git '.length);
      current = { path, hunks: 0, added: 0, removed: 0, binary: false };
      files.push(current);
    } else if (current === null) continue;
    else if (line.startsWith('@@ ')) {
      const m = HUNK.exec(line);
      if (!m) continue;
      current.hunks++;
      current.removed += m[1] === undefined ? 1 : Number(m[1]);
      current.added += m[2] === undefined ? 1 : Number(m[2]);
    } else if (current.hunks === 0 && /^Binary files .* differ$/.test(line)) current.binary = true;
  }
  const sum = (key: 'hunks' | 'added' | 'removed') => files.reduce((n, f) => n + f[key], 0);
  return {
    available: true,
    reason: null,
    files: files.length,
    hunks: sum('hunks'),
    added: sum('added'),
    removed: sum('removed'),
    binary: files.filter((f) => f.binary).length,
    truncated: options.truncated,
    top: [...files]
      .sort((a, b) => b.added + b.removed - (a.added + a.removed) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .slice(0, options.top),
  };
}
