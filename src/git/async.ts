import {
  GitError,
  gitEnv,
  optionsOf,
  spawnFailure,
  type GitDialogue,
  type GitQuestion,
  type GitResult,
} from './exec.js';
import { LOG_FORMAT, parseLog, type LogCommit } from './parse.js';
import { parseStatusV2, type BranchStatus } from './parse-status-v2.js';
import { parseDiffSummary, type DiffSummary } from './parse-diff.js';
import { HEAD_COMMIT, HOOKS_DIR, logQuestion, repoInfoQuestion, TRACKED_FILES, type RepoInfo } from './repo.js';
import { fileAtCommitQuestion } from './show.js';

/**
 * Asynchronous git calls, so that clock-in can read status, log and the file list concurrently (one
 * process each). Same contract as `runGit`: argument arrays, a stable locale, no pager, no prompts. With
 * `maxBytes`, at most that much of stdout is read: past it the process is stopped and the result says
 * `truncated` (a huge diff costs a bounded amount of memory and time; its exit status does not count then).
 */
export async function runGitAsync(
  args: readonly string[],
  options: { cwd: string; okCodes?: readonly number[]; env?: NodeJS.ProcessEnv; input?: string; maxBytes?: number },
): Promise<GitResult & { truncated: boolean }> {
  const result = await runGitBufferAsync(args, options);
  return { ...result, stdout: result.stdout.toString('utf8') };
}

/** {@link runGitAsync} with stdout as git wrote it (bytes: `git cat-file --batch` contents). */
export function runGitBufferAsync(
  args: readonly string[],
  options: { cwd: string; okCodes?: readonly number[]; env?: NodeJS.ProcessEnv; input?: string; maxBytes?: number },
): Promise<{ stdout: Buffer; stderr: string; status: number; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    // Loaded on the first call (see exec.ts). A cwd that is a file throws ENOTDIR here, not as an 'error' event.
    let child: import('node:child_process').ChildProcessWithoutNullStreams;
    try {
      child = process.getBuiltinModule('node:child_process').spawn('git', args, {
        cwd: options.cwd,
        env: gitEnv(options.env),
        windowsHide: true,
      });
    } catch (error) {
      reject(spawnFailure(args, options.cwd, error as NodeJS.ErrnoException));
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const maxBytes = options.maxBytes ?? Infinity;
    let size = 0;
    let truncated = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const room = maxBytes - size;
      out.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(room, chunk.length);
      if (chunk.length >= room) {
        truncated = true;
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => {}); // git exited before reading all of it: its exit status says why
    child.stdin.end(options.input);
    child.on('error', (error: NodeJS.ErrnoException) => reject(spawnFailure(args, options.cwd, error)));
    child.on('close', (code) => {
      const result = {
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString('utf8'),
        status: code ?? -1,
        truncated,
      };
      if (!truncated && result.status !== 0 && !(options.okCodes ?? []).includes(result.status))
        reject(new GitError(args, code, result.stderr));
      else resolve(result);
    });
  });
}

/** Asks `question` (exec.ts) in `cwd` without blocking the caller: the same question `ask` asks. */
export async function askAsync<T>(cwd: string, question: GitQuestion<T>): Promise<T> {
  return question.answer(await runGitAsync(question.args, optionsOf(cwd, question)));
}

/** Runs a {@link GitDialogue} (exec.ts) in `cwd` without blocking the caller: the same questions `converse` asks. */
export async function converseAsync<T>(cwd: string, dialogue: GitDialogue<T>): Promise<T> {
  let step = dialogue.next();
  while (!step.done) step = dialogue.next(await askAsync(cwd, step.value));
  return step.value;
}

/**
 * HEAD, branch, upstream, ahead/behind and the working-tree status, from one `git status` process
 * (read-only: no optional index lock). By default untracked directories are reported once and renames are
 * not looked for (clock-in's context); the anchor's ARM asks for every untracked file and renames.
 */
export async function branchStatusAsync(
  cwd: string,
  options: { untracked?: 'normal' | 'all'; renames?: boolean } = {},
): Promise<BranchStatus> {
  const result = await runGitAsync(
    [
      'status',
      '--porcelain=v2',
      '--branch',
      '-z',
      `--untracked-files=${options.untracked ?? 'normal'}`,
      ...(options.renames === true ? [] : ['--no-renames']),
    ],
    {
      cwd,
      env: { GIT_OPTIONAL_LOCKS: '0' },
    },
  );
  return parseStatusV2(result.stdout);
}

/** The last `count` commits of HEAD with the paths they changed (empty on an unborn branch). */
export const recentCommitsAsync = (cwd: string, count: number): Promise<LogCommit[]> =>
  askAsync(cwd, logQuestion({ range: ['-n', String(count)], withFiles: true }));

/** Commits in `from..HEAD` (oldest first), or every commit of HEAD when `from` is null. */
export async function commitsSinceAsync(cwd: string, from: string | null): Promise<LogCommit[]> {
  const args = [
    'log',
    `--format=${LOG_FORMAT}`,
    '--no-color',
    '--reverse',
    from === null ? 'HEAD' : `${from}..HEAD`,
    '--',
  ];
  const result = await runGitAsync(args, { cwd, okCodes: [128] });
  if (result.status !== 0) {
    if (
      /does not have any commits yet|bad default revision|bad revision|ambiguous argument|unknown revision/.test(
        result.stderr,
      )
    )
      return [];
    throw new GitError(args, result.status, result.stderr);
  }
  return parseLog(result.stdout);
}

/** The commit HEAD names, or null on an unborn branch (`headCommit` without blocking). */
export const headCommitAsync = (cwd: string): Promise<string | null> => askAsync(cwd, HEAD_COMMIT);

/** The text of `file` in the tree of commit `rev`, or null when the commit has no such file (`fileAtCommit` without blocking). */
export const fileAtCommitAsync = (cwd: string, rev: string, file: string): Promise<string | null> =>
  askAsync(cwd, fileAtCommitQuestion(rev, file));

/** `repoInfo` without blocking: what git says of the repository around `cwd`. */
export const repoInfoAsync = (cwd: string): Promise<RepoInfo | null> => askAsync(cwd, repoInfoQuestion(cwd));

/** Tracked files (`git ls-files -z`), one process. */
export const trackedFilesAsync = (cwd: string): Promise<string[]> => askAsync(cwd, TRACKED_FILES);

/** The hooks directory git uses in this worktree (honours core.hooksPath). */
export async function hooksDirAsync(cwd: string): Promise<string> {
  return askAsync(cwd, HOOKS_DIR);
}

/** Most diff output read for a summary (512 KiB), and most files listed by name. */
export const DIFF_SUMMARY_MAX_BYTES = 512 * 1024;
export const DIFF_SUMMARY_TOP = 20;

/**
 * A bounded summary of the working tree against HEAD (staged and unstaged; untracked files are not in
 * it): one `git diff HEAD -U0` process, limited to `paths` when given (literal pathspecs), with external
 * diff drivers and textconv filters off (a repository cannot make the summary run a command) and fixed
 * prefixes whatever the user's diff config says.
 */
export async function diffSummaryAsync(cwd: string, paths: readonly string[] | null): Promise<DiffSummary> {
  const args = [
    '-c',
    'core.quotePath=true',
    'diff',
    'HEAD',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-renames',
    '-U0',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '--',
    ...(paths ?? []).map((p) => `:(literal)${p}`),
  ];
  const { stdout, truncated } = await runGitAsync(args, {
    cwd,
    maxBytes: DIFF_SUMMARY_MAX_BYTES,
    env: { GIT_OPTIONAL_LOCKS: '0' },
  });
  return parseDiffSummary(stdout, { truncated, top: DIFF_SUMMARY_TOP });
}
