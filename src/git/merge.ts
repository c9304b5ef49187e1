/** What a merge would have been without hand edits: git's own automatic merge of its parents. */
import { catFileBatch } from './anchors.js';
import { runGitAsync } from './async.js';
import { gitEnv, runGit } from './exec.js';
import { splitNul } from './parse.js';

/**
 * The tree of the automatic merge of two commits (`git merge-tree --write-tree`, git 2.38+; writes objects,
 * touches no ref, index or worktree; conflicted files hold diff3 markers) and the paths it left conflicted. Null when git cannot say (older git).
 */
export function automaticMerge(
  cwd: string,
  first: string,
  second: string,
  options: { allowUnrelated?: boolean } = {},
): { tree: string; conflicted: string[] } | null {
  const unrelated = options.allowUnrelated ? ['--allow-unrelated-histories'] : [];
  const result = runGit(
    ['-c', 'merge.conflictStyle=diff3', 'merge-tree', '--write-tree', ...unrelated, '--name-only', '-z', first, second],
    {
      cwd,
      okCodes: [1, 128, 129],
    },
  );
  if (result.status !== 0 && result.status !== 1) return null;
  const cut = result.stdout.indexOf('\0\0');
  const head = splitNul(cut === -1 ? result.stdout : result.stdout.slice(0, cut + 1));
  const tree = head[0] ?? '';
  if (!/^[0-9a-f]{40,64}$/.test(tree)) return null;
  return { tree, conflicted: result.status === 1 ? head.slice(1) : [] };
}

/** Paths whose content differs between two trees (or commits), one `git diff-tree` process. */
export function differingPaths(cwd: string, a: string, b: string): string[] {
  return splitNul(runGit(['diff-tree', '-r', '--no-renames', '--name-only', '-z', a, b], { cwd }).stdout);
}

/** A path's entry in a tree: its mode and object id (`000000` and zeros where the path is absent). */
export interface TreeEntry {
  mode: string;
  oid: string;
}

/** What a tree diff says of one path: its entry before and after. */
export type TreeChanges = Map<string, { old: TreeEntry; new: TreeEntry }>;

const TREE_DIFF_ARGS = [
  'diff-tree',
  '--stdin',
  '--always',
  '-r',
  '--raw',
  '-z',
  '--no-renames',
  '--no-ext-diff',
  '--no-textconv',
];

/**
 * The changes from `from` to `to` (commits or trees) of each pair, path by path, in ONE `git diff-tree --stdin`
 * (recursive, no renames: a rename is a deletion and an addition, so each side's paths are its own). Null when
 * git cannot say (a missing object).
 */
export async function treeChanges(
  cwd: string,
  pairs: readonly { from: string; to: string }[],
): Promise<TreeChanges[] | null> {
  if (pairs.length === 0) return [];
  const result = await runGitAsync(TREE_DIFF_ARGS, {
    cwd,
    input: pairs.map((p) => `${p.to} ${p.from}\n`).join(''),
    okCodes: [128],
  });
  if (result.status !== 0) return null;
  const diffs = parseRawDiffs(result.stdout);
  return diffs.length === pairs.length ? diffs : null;
}

/** ONE `git diff-tree --stdin` for a whole run, asked again and again: what {@link treeChanges} answers. */
export interface TreeDiffSession {
  changes(pairs: readonly { from: string; to: string }[]): Promise<TreeChanges[] | null>;
  close(): void;
}

/**
 * A {@link TreeDiffSession}: git answers each input line as it reads it and echoes a line that is not a
 * commit, so each ask ends with a marker line and its answer is what git writes before the echo (a pair it
 * cannot read gets no answer, or git exits: the ask says null). Started on the first ask; git exited, the next starts it again; closed, asks say null.
 */
export function treeDiffSession(cwd: string): TreeDiffSession {
  const marker = `hestai-tree-diff-end-${process.pid}-${Date.now().toString(36)}`;
  const end = Buffer.from(`${marker}\n`, 'latin1');
  let closed = false;
  let git: {
    stdin: NodeJS.WritableStream;
    waiting: { count: number; done: (d: TreeChanges[] | null) => void }[];
  } | null = null;
  const start = () => {
    const spawned = process.getBuiltinModule('node:child_process').spawn('git', TREE_DIFF_ARGS, {
      cwd,
      env: gitEnv(),
      windowsHide: true,
    });
    const self = { stdin: spawned.stdin, waiting: [] as { count: number; done: (d: TreeChanges[] | null) => void }[] };
    let out: Buffer = Buffer.alloc(0);
    spawned.stdout.on('data', (chunk: Buffer) => {
      out = out.length === 0 ? chunk : Buffer.concat([out, chunk]);
      for (let at = out.indexOf(end); at !== -1 && self.waiting.length > 0; at = out.indexOf(end)) {
        const w = self.waiting.shift()!;
        const diffs = parseRawDiffs(out.toString('utf8', 0, at));
        out = out.subarray(at + end.length);
        w.done(diffs.length === w.count ? diffs : null);
      }
    });
    spawned.stderr.resume(); // a missing object's message: the ask says null
    spawned.stdin.on('error', () => {}); // git exited: 'close' answers the asks waiting
    const stop = () => {
      if (git === self) git = null;
      for (const w of self.waiting.splice(0)) w.done(null);
    };
    spawned.on('error', stop);
    spawned.on('exit', () => spawned.stdin.destroy()); // 'close' then comes once git's output is read
    spawned.on('close', stop);
    return self;
  };
  return {
    changes: (pairs) => {
      if (pairs.length === 0) return Promise.resolve([]);
      if (closed) return Promise.resolve(null);
      git ??= start();
      const { waiting } = git;
      const answer = new Promise<TreeChanges[] | null>((done) => waiting.push({ count: pairs.length, done }));
      git.stdin.write(`${pairs.map((p) => `${p.to} ${p.from}\n`).join('')}${marker}\n`);
      return answer;
    },
    close: () => {
      closed = true;
      git?.stdin.end();
      git = null;
    },
  };
}

/** Pure: `git diff-tree --stdin -r --raw -z --always` output, one map per input line. */
export function parseRawDiffs(text: string): TreeChanges[] {
  const fields = text.split('\0');
  const diffs: TreeChanges[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const meta = /^:(\d{6}) (\d{6}) ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) [A-Z]\d*$/.exec(field);
    if (meta) {
      const path = fields[++i];
      const current = diffs[diffs.length - 1];
      if (path === undefined || current === undefined) return [];
      current.set(path, { old: { mode: meta[1]!, oid: meta[3]! }, new: { mode: meta[2]!, oid: meta[4]! } });
    } else if (/^[0-9a-f]{40,64}$/.test(field.trim())) diffs.push(new Map());
    else if (field.trim() !== '') return [];
  }
  return diffs;
}

/**
 * Which commits really revert the commit they name, as `git revert` makes them: the named commit changes
 * something and is in the history of the reverting commit's first parent, and reverting it there (git's own
 * three-way merge with the named commit as base, {@link revertedTree}) gives exactly the reverting commit's
 * tree. Changes made elsewhere in the files since do not matter; the same change at another place does. One
 * `git cat-file --batch-check` for every pair's trees, then three git processes per pair that can be one.
 */
export function realReverts(
  cwd: string,
  pairs: readonly { sha: string; parent: string; reverts: string }[],
): Set<string> {
  const real = new Set<string>();
  if (pairs.length === 0) return real;
  const specs = pairs.flatMap((p) => [`${p.sha}^{tree}`, `${p.reverts}^{tree}`, `${p.reverts}^^{tree}`]);
  const trees = catFileBatch(cwd, specs, { content: false });
  const oid = (spec: string) => {
    const found = trees.get(spec);
    return found?.found ? found.oid : null;
  };
  for (const p of pairs) {
    const [tree, after, before] = [oid(`${p.sha}^{tree}`), oid(`${p.reverts}^{tree}`), oid(`${p.reverts}^^{tree}`)];
    if (tree === null || after === null || before === null || after === before) continue;
    const ancestor = runGit(['merge-base', '--is-ancestor', p.reverts, p.parent], { cwd, okCodes: [1, 128] });
    if (ancestor.status === 0 && revertedTree(cwd, p.parent, p.reverts, before) === tree) real.add(p.sha);
  }
  return real;
}

/**
 * The tree `git revert <commit>` gives on top of `onto` (which has `commit` in its history), or null when it
 * conflicts: a scratch child of `commit` holding its parent's tree (`before`), merged with `onto` by
 * `git merge-tree --write-tree`, whose merge base is then `commit` itself, as in git revert's own merge.
 */
function revertedTree(cwd: string, onto: string, commit: string, before: string): string | null {
  const undo = scratchMergeCommit(cwd, before, [commit], 'hestai: re-computed revert');
  const result = runGit(['merge-tree', '--write-tree', '--no-messages', onto, undo], { cwd, okCodes: [1, 128, 129] });
  const tree = result.stdout.split('\n', 1)[0]!.trim();
  return result.status === 0 && /^[0-9a-f]{40,64}$/.test(tree) ? tree : null;
}

/**
 * For each subject, the newest commit with that subject, or that subject and a squash merge's " (#N)", among
 * the ancestors of `tips` (one `git log` for all): where a `Revert "<header>"` looks for the commit it undoes when its body names none of the history.
 */
export function newestBySubject(
  cwd: string,
  tips: readonly string[],
  subjects: readonly string[],
): Map<string, string> {
  const found = new Map<string, string>();
  if (tips.length === 0 || subjects.length === 0) return found;
  const greps = [...new Set(subjects)].map((s) => `--grep=${s}`);
  const result = runGit(['log', '-F', ...greps, '--format=%H%x00%s', ...tips, '--'], { cwd, okCodes: [128] });
  if (result.status !== 0) return found;
  const wanted = new Set(subjects);
  for (const line of result.stdout.split('\n')) {
    const [sha, subject] = line.split('\0');
    // A squash merge's subject ends " (#N)": "fix: x (#12)" is the commit a `Revert "fix: x"` undoes.
    const bare = subject?.replace(/ \(#\d+\)$/, '');
    for (const s of new Set([subject, bare])) {
      if (sha && s !== undefined && wanted.has(s) && !found.has(s)) found.set(s, sha);
    }
  }
  return found;
}

/**
 * A commit object for an intermediate automatic merge (an octopus is re-computed one parent at a time, and
 * `git merge-tree` takes commits) or a re-computed revert: written to the object store, referenced by nothing.
 */
export function scratchMergeCommit(
  cwd: string,
  tree: string,
  parents: readonly string[],
  message = 'hestai: re-computed merge',
): string {
  return runGit(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], {
    cwd,
    env: {
      GIT_AUTHOR_NAME: 'hestai',
      GIT_AUTHOR_EMAIL: 'hestai@localhost',
      GIT_COMMITTER_NAME: 'hestai',
      GIT_COMMITTER_EMAIL: 'hestai@localhost',
      GIT_AUTHOR_DATE: '@0 +0000',
      GIT_COMMITTER_DATE: '@0 +0000',
    },
  }).stdout.trim();
}
