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

/** Pure: unquotes a C-style quoted git path (`"a\tb\303\251"`). */
export function unquoteGitPath(quoted: string): string {
  const bytes: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < quoted.length; i++) {
    const ch = quoted[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = quoted[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(quoted.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Pure: the path of a `diff --git a/P b/P` header (renames are off, so both sides name the same path). */
function headerPath(rest: string): string {
  if (rest.startsWith('"')) {
    const end = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    return end ? unquoteGitPath(end[1]!).replace(/^a\//, '') : rest;
  }
  const body = rest.startsWith('a/') ? rest.slice(2) : rest;
  return body.slice(0, (body.length - 3) / 2);
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
      current = { path: headerPath(line.slice('diff --git '.length)), hunks: 0, added: 0, removed: 0, binary: false };
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
