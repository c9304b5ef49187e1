import path from 'node:path';
import { usageError } from '../errors.js';

/**
 * node:child_process, loaded on the first git call: a hook or command that starts no git never pays for
 * loading it.
 */
const childProcess = () => process.getBuiltinModule('node:child_process');

/**
 * The one place that starts git (STYLE.md §2): argument arrays, never shell strings. Every other module
 * asks `src/git/` for what it needs; machine formats (`-z`, NUL-separated `--format`) are parsed by the
 * pure functions in `parse.ts`.
 */
export interface GitOptions {
  cwd: string;
  /** Text written to git's stdin. */
  input?: string;
  /** Extra environment variables for this call. */
  env?: NodeJS.ProcessEnv;
  /** Exit codes other than 0 that are an answer, not a failure (e.g. 1 for `git config --get`). */
  okCodes?: readonly number[];
}

export interface GitResult {
  stdout: string;
  stderr: string;
  status: number;
}

export class GitError extends Error {
  readonly args: readonly string[];
  readonly status: number | null;
  readonly stderr: string;
  constructor(args: readonly string[], status: number | null, stderr: string) {
    super(`git ${args.join(' ')} failed (exit ${status ?? 'signal'}): ${stderr.trim() || 'no output'}`);
    this.name = 'GitError';
    this.args = args;
    this.status = status;
    this.stderr = stderr;
  }
}

/**
 * Why git could not be started. spawn says ENOENT both for a git missing from PATH and for a working directory
 * that does not exist (ENOTDIR: a file), so the directory is looked at first: a missing one is a usage error
 * naming it (CWD_MISSING; it is the caller's input, a path given or a hook's directory, not git failing, so
 * not a GitError), and only with the directory there is ENOENT a missing git (GIT_MISSING).
 */
export function spawnFailure(args: readonly string[], cwd: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    const stat = process.getBuiltinModule('node:fs').statSync(cwd, { throwIfNoEntry: false });
    if (stat?.isDirectory() !== true)
      return usageError(`working directory ${cwd} ${stat === undefined ? 'does not exist' : 'is not a directory'}`, {
        remedy: 'Run hestai in (or pass the path of) an existing directory of the repository.',
        code: 'CWD_MISSING',
      });
    if (error.code === 'ENOENT')
      return usageError('git was not found on PATH', {
        remedy: 'Install git (2.36 or newer) and make sure it is on PATH.',
        code: 'GIT_MISSING',
      });
  }
  return new GitError(args, null, String(error.message));
}

/**
 * The variables git reads as paths relative to the directory it is started in (git(1): `GIT_DIR`,
 * `GIT_WORK_TREE`). Set relative to this process's directory, they would name another place from the
 * directory git is asked in (the worktree root, not a subdirectory hestai was started in), so they are
 * passed on absolute, as git itself does before it changes directory (it runs hooks with them so).
 */
const CWD_RELATIVE = ['GIT_DIR', 'GIT_WORK_TREE'] as const;

/** Environment for git: a stable, machine-readable locale and no pager or prompts. */
export function gitEnv(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', ...extra };
  for (const key of CWD_RELATIVE) {
    const value = process.env[key];
    if (value && extra?.[key] === undefined && !path.isAbsolute(value)) env[key] = path.resolve(value);
  }
  return env;
}

/** Runs git and returns its output; throws `GitError` on an exit code that is not in `okCodes`. */
export function runGit(args: readonly string[], options: GitOptions): GitResult {
  const result = spawnGit(args, options, 512 * 1024 * 1024);
  return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, status: result.status };
}

/**
 * One git question, written once for both ways of asking it: the arguments, the exit codes that are an
 * answer, and a pure reading of the result. `ask` runs it synchronously (the hooks, verify); `askAsync`
 * (async.ts) without blocking the caller (the MCP server). Only the spawn differs.
 */
export interface GitQuestion<T> {
  args: readonly string[];
  okCodes?: readonly number[];
  env?: NodeJS.ProcessEnv;
  /** Text written to git's stdin. */
  input?: string;
  answer(result: GitResult): T;
}

/** The options of one question's git process. */
export function optionsOf(cwd: string, question: GitQuestion<unknown>): GitOptions {
  const options: GitOptions = { cwd };
  if (question.okCodes) options.okCodes = question.okCodes;
  if (question.env) options.env = question.env;
  if (question.input !== undefined) options.input = question.input;
  return options;
}

/** Asks `question` in `cwd` with a synchronous git process. */
export function ask<T>(cwd: string, question: GitQuestion<T>): T {
  return question.answer(runGit(question.args, optionsOf(cwd, question)));
}

/**
 * Git questions whose next depends on the answers before (a write retried on a moved tip), written once
 * as a generator that yields each question (`yield* asking(q)` gives its answer): `converse` asks them
 * synchronously, `converseAsync` (async.ts) without blocking.
 */
export type GitDialogue<T> = Generator<GitQuestion<unknown>, T, unknown>;

/** One question of a {@link GitDialogue}: evaluates to its answer. */
export function* asking<T>(question: GitQuestion<T>): Generator<GitQuestion<unknown>, T, unknown> {
  return (yield question) as T;
}

/** Runs `dialogue` in `cwd` with synchronous git processes. */
export function converse<T>(cwd: string, dialogue: GitDialogue<T>): T {
  let step = dialogue.next();
  while (!step.done) step = dialogue.next(ask(cwd, step.value));
  return step.value;
}

/** Runs git and returns stdout. */
export function git(args: readonly string[], options: GitOptions): string {
  return runGit(args, options).stdout;
}

/** Runs git and returns raw stdout bytes (for `cat-file --batch`, whose sizes count bytes). */
export function runGitBuffer(
  args: readonly string[],
  options: GitOptions,
): { stdout: Buffer; stderr: string; status: number } {
  return spawnGit(args, options, 1024 * 1024 * 1024);
}

/**
 * The one synchronous git process: its bytes, or `GIT_MISSING` / `CWD_MISSING` ({@link spawnFailure}) /
 * `GitError` (an exit code not in `okCodes`).
 */
function spawnGit(
  args: readonly string[],
  options: GitOptions,
  maxBuffer: number,
): { stdout: Buffer; stderr: string; status: number } {
  const result = childProcess().spawnSync('git', args, {
    cwd: options.cwd,
    input: options.input,
    env: gitEnv(options.env),
    maxBuffer,
    windowsHide: true,
  });
  if (result.error) throw spawnFailure(args, options.cwd, result.error);
  const status = result.status ?? -1;
  const stderr = result.stderr.toString('utf8');
  if (status !== 0 && !(options.okCodes ?? []).includes(status)) throw new GitError(args, result.status, stderr);
  return { stdout: result.stdout, stderr, status };
}
