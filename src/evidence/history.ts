/**
 * `hestai/anchors` read as history (issue 39): every file any commit of the fetched anchors branches ever
 * added, not only what their tips hold, from ONE streamed `git log --raw` of those branches. A record once
 * published stays evidence whatever a later commit does to its path; a later commit that deletes or changes
 * a published path is kept as tampering, for a warning naming it (never an error for the branch under test).
 */
import { nulFields } from '../git/nul-stream.js';

/** The store's file names (src/git/anchors.ts): anything else on the branch is not evidence. */
export const STORE_PATH =
  /^(?:records\/[0-9a-f]{64}\.json|(?:events|protocol|coverage)\/[0-9a-f-]{36}\/[0-9a-f]{64}\.json|changes\/[0-9a-f]{40}(?:[0-9a-f]{24})?\.json)$/;

/** One blob published at a path: by the oldest commit that added it. */
export interface Publication {
  blob: string;
  commit: string;
  /** Every commit whose diff against its first parent adds this blob there (a merge may have it from another parent). */
  adders?: string[];
}

/** A commit that deleted or changed a path something had published. */
export interface Tampering {
  path: string;
  commit: string;
  /** `Name <email>` as the commit names its author. */
  author: string;
  action: 'deleted' | 'changed';
}

export interface AnchorsHistory {
  /** Path → every blob published there, each once. */
  files: Map<string, Publication[]>;
  /** Path → the commits that deleted or changed it. */
  tampering: Map<string, Tampering[]>;
  /** Session id → its paths under events/, protocol/ and coverage/. */
  events: Map<string, string[]>;
  runs: Map<string, string[]>;
  coverage: Map<string, string[]>;
  /** The parents of each commit that added something. */
  parents: Map<string, string[]>;
  /** How many commits the walk read. */
  commits: number;
}

const ZERO = /^0+$/;

export const emptyHistory = (): AnchorsHistory => ({
  files: new Map(),
  tampering: new Map(),
  events: new Map(),
  runs: new Map(),
  coverage: new Map(),
  parents: new Map(),
  commits: 0,
});

/**
 * The history of `tips` (the anchors branches) under `paths` (the store's directories or files), minus what
 * `exclude` reaches (commits known not to be the store's, such as the range's base: a change record's commit
 * has its branch's tip as second parent). `--full-history` and every parent: a merge whose first parent drops
 * the published line still has it behind its other parent. A merge is diffed against its first parent, so
 * what it drops or joins shows. git reads every version of each directory it diffs: `records/` is one flat
 * tree, so its history costs the square of its size; the store names the missing records' own paths instead.
 */
export async function readAnchorsHistory(
  root: string,
  tips: readonly string[],
  options: { paths: readonly string[]; exclude?: readonly string[] },
  into: AnchorsHistory = emptyHistory(),
): Promise<AnchorsHistory> {
  const history = into;
  if (tips.length === 0 || options.paths.length === 0) return history;
  const exclude = options.exclude ?? [];
  const args = [
    'log',
    '--topo-order',
    '--full-history',
    '--root',
    '--no-renames',
    '--diff-merges=first-parent',
    '--raw',
    '--no-abbrev',
    '-z',
    '--format=%x01%H %P%x00%an <%ae>',
    ...tips,
    ...(exclude.length > 0 ? ['--not', ...exclude] : []),
    '--',
    ...options.paths,
  ];
  let commit = '';
  let parents: string[] = [];
  let author = '';
  let expect: 'author' | 'meta' | 'path' = 'meta';
  let meta: string[] = [];
  for await (const raw of nulFields(root, args)) {
    const field = raw.startsWith('\n') ? raw.slice(1) : raw;
    if (expect === 'author') {
      author = field;
      expect = 'meta';
    } else if (field.startsWith('\x01')) {
      const ids = field.slice(1).split(' ');
      commit = ids[0]!;
      parents = ids.slice(1).filter((id) => id !== '');
      history.commits++;
      expect = 'author';
    } else if (expect === 'meta' && field.startsWith(':')) {
      meta = field.slice(1).split(' ');
      expect = 'path';
    } else if (expect === 'path') {
      expect = 'meta';
      if (STORE_PATH.test(field)) see(history, field, meta, { commit, parents, author });
    }
  }
  return history;
}

/** One `--raw` line: `<old mode> <new mode> <old blob> <new blob> <status>` for `path` in `commit` (walked newest first). */
function see(
  history: AnchorsHistory,
  path: string,
  meta: readonly string[],
  { commit, parents, author }: { commit: string; parents: string[]; author: string },
): void {
  const [, , before = '', after = '', status = ''] = meta;
  if (!ZERO.test(after)) {
    let published = history.files.get(path);
    if (published === undefined) {
      history.files.set(path, (published = []));
      const [dir, session] = path.split('/');
      const index =
        dir === 'events'
          ? history.events
          : dir === 'protocol'
            ? history.runs
            : dir === 'coverage'
              ? history.coverage
              : null;
      if (index !== null) {
        const paths = index.get(session!);
        if (paths) paths.push(path);
        else index.set(session!, [path]);
      }
    }
    let known = published.find((p) => p.blob === after);
    if (known)
      known.commit = commit; // an older commit adding the same blob: the first publication
    else published.push((known = { blob: after, commit, adders: [] }));
    (known.adders ??= []).push(commit);
    history.parents.set(commit, parents);
  }
  if (!ZERO.test(before) && (status.startsWith('D') || status.startsWith('M') || status.startsWith('T'))) {
    const list = history.tampering.get(path) ?? [];
    list.push({ path, commit, author, action: status.startsWith('D') ? 'deleted' : 'changed' });
    history.tampering.set(path, list);
  }
}

const SESSION_IN_SUBJECT = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;

/**
 * The commits of the anchors branches whose subject names each session (hestai's writers name it: `hestai:
 * anchor <session> ...`), with their parents: one `git log` without diffs, linear in the branch's length.
 * Candidates only: who added a proof record is checked against the trees (src/evidence/store.ts).
 */
export async function readSessionCommits(
  root: string,
  tips: readonly string[],
  exclude: readonly string[],
): Promise<Map<string, { commit: string; parents: string[] }[]>> {
  const out = new Map<string, { commit: string; parents: string[] }[]>();
  if (tips.length === 0) return out;
  const args = ['log', '-z', '--format=%H %P%x09%s', ...tips, ...(exclude.length > 0 ? ['--not', ...exclude] : [])];
  for await (const raw of nulFields(root, args)) {
    const tab = raw.indexOf('\t');
    if (tab === -1) continue;
    const [commit = '', ...parents] = raw.slice(0, tab).split(' ');
    for (const session of new Set(raw.slice(tab + 1).match(SESSION_IN_SUBJECT) ?? [])) {
      const list = out.get(session) ?? [];
      list.push({ commit, parents: parents.filter((p) => p !== '') });
      out.set(session, list);
    }
  }
  return out;
}
