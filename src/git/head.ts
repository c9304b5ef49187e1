import fs from 'node:fs';
import path from 'node:path';
import { GitError, runGit } from './exec.js';

/** What git says of a worktree's HEAD and of the merge being committed there. */
export interface HeadState {
  /** The ref HEAD names as git resolves it (`refs/heads/main`, through a symlink or reftable too); null when detached or unborn. */
  ref: string | null;
  /** HEAD names no commit yet (an unborn branch): there is no history. */
  unborn: boolean;
  /** The commits being merged while a merge commit is made (MERGE_HEAD, every line: octopus too); empty otherwise. */
  mergeHeads: string[];
}

/**
 * `git rev-parse --git-path MERGE_HEAD --symbolic-full-name HEAD --`, with `core.warnAmbiguousRefs` off: a tag or
 * a ref `refs/heads/HEAD` (any upstream can publish one) makes `HEAD` ambiguous, and git then names no ref at all;
 * without the warning git reads HEAD as it always resolves it, the checked-out branch.
 */
const HEAD_STATE_ARGS = [
  '-c',
  'core.warnAmbiguousRefs=false',
  'rev-parse',
  '--git-path',
  'MERGE_HEAD',
  '--symbolic-full-name',
  'HEAD',
  '--',
];

/** Pure: the ref and the MERGE_HEAD path from git's answer, or null when git did not answer about HEAD. */
function parseHeadState(
  result: { status: number; stdout: string; stderr: string },
  cwd: string,
): { ref: string | null; unborn: boolean; mergeHeadPath: string } | null {
  const [mergeHeadPath = '', name = ''] = result.stdout.split('\n');
  if (mergeHeadPath === '') return null;
  const where = path.resolve(cwd, mergeHeadPath);
  // `--` is git echoing the end of options: it printed no name for HEAD, which is no answer.
  if (result.status === 0 && name !== '' && name !== '--')
    return { ref: name === 'HEAD' ? null : name, unborn: false, mergeHeadPath: where };
  // git printed MERGE_HEAD's path, then stopped at HEAD: it names no commit (an unborn branch).
  if (result.status === 128 && /'HEAD'/.test(result.stderr)) return { ref: null, unborn: true, mergeHeadPath: where };
  return null;
}

/**
 * HEAD and the merge in progress, as git says them, in ONE git process (issue 27, "git answers git
 * questions"): `--symbolic-full-name HEAD` is git's own reading of HEAD (a symlinked HEAD, a reftable
 * repository, a linked worktree), and `--git-path MERGE_HEAD` is where git keeps the merge being
 * committed in this worktree (per worktree: `.git/worktrees/<name>/MERGE_HEAD` in a linked one; GIT_DIR
 * and core.worktree followed). MERGE_HEAD is the state file git documents for a merge in progress
 * (git-merge(1), githooks(5)); git prints only its first line as a revision, so the file git names is
 * read for every line (an octopus merge). Nothing of ours locates the git dir.
 */
export function headState(cwd: string): HeadState {
  const result = runGit(HEAD_STATE_ARGS, { cwd, okCodes: [128] });
  const parsed = parseHeadState(result, cwd);
  if (parsed === null) throw new GitError(HEAD_STATE_ARGS, result.status, result.stderr);
  return { ref: parsed.ref, unborn: parsed.unborn, mergeHeads: readMergeHeads(parsed.mergeHeadPath) };
}

function readMergeHeads(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return []; // no merge in progress
  }
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(l));
}
