import { splitNul, type StatusEntry } from './parse.js';

/** What one `git status --porcelain=v2 --branch -z` says: HEAD, branch, upstream, ahead/behind, entries. */
export interface BranchStatus {
  /** HEAD's commit, or null on an unborn branch. */
  head: string | null;
  /** The branch name, or null on a detached HEAD. */
  branch: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  /** Entries with v1-style two-letter codes (`??` untracked, `!!` ignored). */
  entries: StatusEntry[];
}

/** Pure: parses `git status --porcelain=v2 --branch -z` (one process answers what four would). */
export function parseStatusV2(output: string): BranchStatus {
  const result: BranchStatus = { head: null, branch: null, upstream: null, ahead: null, behind: null, entries: [] };
  const fields = splitNul(output);
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.startsWith('# ')) {
      const [, key = '', ...rest] = field.split(' ');
      const value = rest.join(' ');
      if (key === 'branch.oid') result.head = value === '(initial)' ? null : value;
      else if (key === 'branch.head') result.branch = value === '(detached)' ? null : value;
      else if (key === 'branch.upstream') result.upstream = value;
      else if (key === 'branch.ab') {
        const match = /^\+(\d+) -(\d+)$/.exec(value);
        if (match) {
          result.ahead = Number(match[1]);
          result.behind = Number(match[2]);
        }
      }
      continue;
    }
    const kind = field[0];
    if (kind === '?' || kind === '!') {
      result.entries.push({ code: `${kind}${kind}`, path: field.slice(2) });
    } else if (kind === '1' || kind === '2' || kind === 'u') {
      const skip = kind === '1' ? 8 : kind === '2' ? 9 : 10;
      const parts = field.split(' ');
      const entry: StatusEntry = { code: parts[1] ?? '', path: parts.slice(skip).join(' ') };
      if (kind === '2') entry.from = fields[++i] ?? '';
      result.entries.push(entry);
    }
  }
  return result;
}
