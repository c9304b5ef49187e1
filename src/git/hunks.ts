import { catFileBatch } from './anchors.js';
import { runGit } from './exec.js';
import { cUnquote } from './parse-diff.js';

/** The new-side hunks (`[start, count]`) of each file each commit changes against its first parent. */
export type CommitHunks = Map<string, Map<string, Array<[number, number]>>>;

const MARK = '\x01';

/** Pure: parses `git show -U0 --format=<MARK>%H` output into hunks per commit and path (deleted files left out). */
export function parseHunks(output: string): CommitHunks {
  const out: CommitHunks = new Map();
  let files: Map<string, Array<[number, number]>> | null = null;
  let hunks: Array<[number, number]> | null = null;
  for (const line of output.split('\n')) {
    if (line.startsWith(MARK)) {
      files = new Map();
      out.set(line.slice(1).trim(), files);
      hunks = null;
    } else if (line.startsWith('+++ ') && files) {
      const raw = line.slice(4);
      if (raw === '/dev/null') hunks = null;
      else {
        // Unquoted, a path with a space ends in a tab (`+++ b/x y.rs\t`) that is no part of the name.
        const p = cUnquote(raw)?.path ?? raw.replace(/\t$/, '');
        hunks = [];
        files.set(p.replace(/^b\//, ''), hunks);
      }
    } else if (line.startsWith('@@ ') && hunks) {
      const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (m) hunks.push([Number(m[1]), m[2] === undefined ? 1 : Number(m[2])]);
    }
  }
  return out;
}

/**
 * For the given commits, the hunks of their files matching `globs` (ONE `git show -U0` process) and the new
 * content of those files (ONE `git cat-file --batch`): what inline-test rules need.
 */
export function commitHunks(
  cwd: string,
  shas: readonly string[],
  globs: readonly string[],
): { hunks: CommitHunks; content: Map<string, string> } {
  const empty = { hunks: new Map() as CommitHunks, content: new Map<string, string>() };
  if (shas.length === 0 || globs.length === 0) return empty;
  const result = runGit(
    [
      'show',
      '-U0',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      '--diff-merges=first-parent',
      `--format=${MARK}%H`,
      ...shas,
      '--',
      ...globs.map((g) => `:(glob)${g}`),
    ],
    { cwd, okCodes: [128] },
  );
  if (result.status !== 0) return empty;
  const hunks = parseHunks(result.stdout);
  const specs: string[] = [];
  for (const [sha, files] of hunks) for (const p of files.keys()) specs.push(`${sha}:${p}`);
  const content = new Map<string, string>();
  for (const [spec, obj] of catFileBatch(cwd, specs, { content: true }))
    if (obj.found && obj.content) content.set(spec, obj.content.toString('utf8'));
  return { hunks, content };
}
