/** Pure parsers for git's machine-readable output. No process is started here. */

/** Splits `-z` output into its NUL-terminated fields (a trailing empty field is dropped). */
export function splitNul(output: string): string[] {
  if (output === '') return [];
  const fields = output.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  return fields;
}

export interface StatusEntry {
  /** Two-letter XY code of `git status --porcelain`. */
  code: string;
  path: string;
  /** The source path of a rename or copy. */
  from?: string;
}

/** Parses `git status --porcelain=v1 -z`. Renames carry their source path in the next field. */
export function parseStatusZ(output: string): StatusEntry[] {
  const fields = splitNul(output);
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const code = field.slice(0, 2);
    const path = field.slice(3);
    if (code[0] === 'R' || code[0] === 'C') {
      entries.push({ code, path, from: fields[++i] ?? '' });
    } else {
      entries.push({ code, path });
    }
  }
  return entries;
}

/** Record and field separators used with `git log --format`. */
export const RECORD_SEP = '\x1e';
export const FIELD_SEP = '\x1f';

export interface LogCommit {
  sha: string;
  parents: string[];
  authorDate: string;
  /** Committer date (ISO strict): when the commit object was made (what freshness is judged by in CI). */
  committerDate: string;
  /** The full message (subject, body and trailers). */
  message: string;
  /** Paths changed relative to the first parent (the new path of a rename). */
  files: string[];
  /** The same paths with their status, when the log was read with `--name-status`. */
  changes?: FileChange[];
}

/** One entry of `git log --name-status`: status letter, path, and a rename's or copy's similarity. */
export interface FileChange {
  status: 'A' | 'M' | 'D' | 'T' | 'R' | 'C';
  path: string;
  /** The old path of a rename or copy. */
  from?: string;
  score?: number;
}

/** Parses the NUL-separated fields of `--name-status -z` (`R100\0old\0new\0` for renames and copies). */
export function parseNameStatus(fields: readonly string[]): FileChange[] {
  const changes: FileChange[] = [];
  for (let i = 0; i < fields.length;) {
    const code = fields[i]!;
    const letter = code[0] as FileChange['status'];
    if (letter === 'R' || letter === 'C') {
      changes.push({
        status: letter,
        path: fields[i + 2] ?? '',
        from: fields[i + 1] ?? '',
        score: Number(code.slice(1)) || 0,
      });
      i += 3;
    } else {
      changes.push({ status: 'AMDT'.includes(letter) ? letter : 'M', path: fields[i + 1] ?? '' });
      i += 2;
    }
  }
  return changes;
}

/**
 * The `--format` that `parseLog` reads: sha, parents, author and committer date (ISO strict, one space apart), raw body, each record
 * opened by RECORD_SEP + `nonce` and the body closed by FIELD_SEP + `nonce` + FIELD_SEP. A commit message
 * can contain the separator characters (git stores any byte but NUL), so the rules' reads pass a random
 * `nonce` nobody can put in a message in advance: no message can forge a record or a file list.
 */
export function logFormat(nonce = ''): string {
  return `${RECORD_SEP}${nonce}%H${FIELD_SEP}%P${FIELD_SEP}%aI %cI${FIELD_SEP}%B${FIELD_SEP}${nonce}${FIELD_SEP}`;
}

/** A fresh nonce for `logFormat` (letters and digits; unpredictable when the commits were written). */
export function logNonce(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

export const LOG_FORMAT = logFormat();

/**
 * Parses `git log [-z] --format=logFormat(nonce) [--name-only | --name-status]`. With `-z`, the file
 * names follow the format, NUL-separated.
 */
export function parseLog(output: string, nameStatus = false, nonce = ''): LogCommit[] {
  const commits: LogCommit[] = [];
  const end = `${FIELD_SEP}${nonce}${FIELD_SEP}`;
  for (const record of output.split(`${RECORD_SEP}${nonce}`)) {
    if (record === '') continue;
    const a = record.indexOf(FIELD_SEP);
    const b = record.indexOf(FIELD_SEP, a + 1);
    const c = record.indexOf(FIELD_SEP, b + 1);
    const stop = record.lastIndexOf(end);
    if (a === -1 || b === -1 || c === -1 || stop < c) continue;
    const sha = record.slice(0, a);
    const parents = record.slice(a + 1, b);
    const [authorDate = '', committerDate = authorDate] = record.slice(b + 1, c).split(' ');
    const message = record.slice(c + 1, stop);
    const tail = record.slice(stop + end.length);
    const fields = splitNul(tail.replace(/^\n/, ''))
      .map((f) => f.replace(/^\n/, ''))
      .filter((f) => f !== '');
    const changes = nameStatus ? parseNameStatus(fields) : undefined;
    commits.push({
      sha,
      parents: parents === '' ? [] : parents.split(' '),
      authorDate,
      committerDate,
      message: message.replace(/\n+$/, ''),
      files: changes ? changes.map((c) => c.path) : fields,
      ...(changes ? { changes } : {}),
    });
  }
  return commits;
}
