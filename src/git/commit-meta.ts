import { runGit } from './exec.js';
import { FIELD_SEP, logNonce, RECORD_SEP } from './parse.js';

/** What `hestai report` shows of a commit beyond verify's verdicts: who, when, its parents and message. */
export interface CommitMeta {
  sha: string;
  parents: string[];
  author: string;
  /** ISO strict author and committer dates. */
  authorDate: string;
  committerDate: string;
  message: string;
}

/** The `--format` of {@link commitMeta}: fields split by FIELD_SEP, each record opened by RECORD_SEP + nonce. */
export function commitMetaFormat(nonce: string): string {
  return `${RECORD_SEP}${nonce}%H${FIELD_SEP}%P${FIELD_SEP}%an${FIELD_SEP}%aI${FIELD_SEP}%cI${FIELD_SEP}%B${FIELD_SEP}${nonce}${FIELD_SEP}`;
}

/** Pure: parses the output of `git log --format=commitMetaFormat(nonce)`. */
export function parseCommitMeta(output: string, nonce: string): CommitMeta[] {
  const out: CommitMeta[] = [];
  const end = `${FIELD_SEP}${nonce}${FIELD_SEP}`;
  for (const record of output.split(`${RECORD_SEP}${nonce}`)) {
    const stop = record.lastIndexOf(end);
    if (stop === -1) continue;
    const fields = record.slice(0, stop).split(FIELD_SEP);
    if (fields.length < 6) continue;
    const [sha = '', parents = '', author = '', authorDate = '', committerDate = ''] = fields;
    out.push({
      sha,
      parents: parents === '' ? [] : parents.split(' '),
      author,
      authorDate,
      committerDate,
      message: fields.slice(5).join(FIELD_SEP),
    });
  }
  return out;
}

/** The facts of the given commits, in ONE `git log --no-walk=unsorted --stdin` process. */
export function commitMeta(cwd: string, shas: readonly string[]): Map<string, CommitMeta> {
  const map = new Map<string, CommitMeta>();
  if (shas.length === 0) return map;
  const nonce = logNonce();
  const result = runGit(['log', '--no-walk=unsorted', '--stdin', `--format=${commitMetaFormat(nonce)}`, '--no-color'], {
    cwd,
    input: `${shas.join('\n')}\n`,
  });
  for (const c of parseCommitMeta(result.stdout, nonce)) map.set(c.sha, c);
  return map;
}

/**
 * Pure: the web address of a file at a commit on the remote's host (`https://host/owner/repo/blob/<sha>/<path>`),
 * from a remote URL (https, ssh or scp-like); null for a local path, a file:// URL or anything unexpected.
 * Credentials in the URL are dropped.
 */
export function blobBase(remoteUrl: string | null): string | null {
  if (remoteUrl === null) return null;
  const url = remoteUrl.trim();
  let host: string | undefined;
  let repoPath: string | undefined;
  const web = /^(?:https?|ssh|git):\/\/(?:[^@/]*@)?([A-Za-z0-9.-]+)(?::\d+)?\/(.+)$/.exec(url);
  const scp = /^(?:[^@/]+@)?([A-Za-z0-9.-]+):(?!\/)(.+)$/.exec(url);
  if (web) [, host, repoPath] = web;
  else if (scp) [, host, repoPath] = scp;
  if (!host || !repoPath || !host.includes('.')) return null;
  const clean = repoPath.replace(/\.git\/?$/, '').replace(/\/+$/, '');
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)+$/.test(clean)) return null;
  return `https://${host}/${clean}/blob/`;
}
