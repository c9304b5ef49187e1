import fs from 'node:fs';
import path from 'node:path';
import { usageError } from './errors.js';
import { repoInfoAsync } from './git/async.js';
import { repoInfo, type RepoInfo } from './git/repo.js';
import { hasControl } from './util/text.js';
import { workspacePaths, type WorkspacePaths } from './paths.js';
import { quoteInput } from './util/quote.js';

/** A validated working directory: its worktree root and the repository facts around it. */
export interface Workspace {
  root: string;
  repo: RepoInfo | null;
  paths: WorkspacePaths;
}

/**
 * Validates an untrusted working-directory argument and resolves it to its worktree root.
 *
 * Rejected (exit 2): control characters, `..` segments, a relative path when `requireAbsolute` (the
 * MCP and library contract; the CLI resolves `--cwd` against the current directory first), a path that
 * does not exist or is not a directory, and a directory that is neither inside a git work tree nor holds
 * a `.hestai/` directory. Any path inside a repository resolves to the root of its worktree.
 */
export function resolveWorkspace(dir: string, options: WorkspaceOptions = {}): Workspace {
  const real = checkedDir(dir, options);
  return workspaceAt(dir, real, repoInfo(real));
}

/** {@link resolveWorkspace} without blocking the caller on git (the MCP server's tools). */
export async function resolveWorkspaceAsync(dir: string, options: WorkspaceOptions = {}): Promise<Workspace> {
  const real = checkedDir(dir, options);
  return workspaceAt(dir, real, await repoInfoAsync(real));
}

interface WorkspaceOptions {
  requireAbsolute?: boolean;
}

/** The checks of an untrusted working directory: its real path, or a usage error naming what is wrong. */
function checkedDir(dir: string, options: WorkspaceOptions): string {
  if (typeof dir !== 'string' || dir === '') {
    throw usageError('working directory is empty', {
      code: 'WORKDIR_INVALID',
      remedy: 'Pass an absolute path to the repository.',
    });
  }
  if (hasControl(dir)) {
    throw usageError(`working directory ${quoteInput(dir, 200)} contains control characters`, {
      code: 'PATH_TRAVERSAL',
      remedy: 'Pass a plain absolute path to the repository.',
    });
  }
  if (dir.split(/[\\/]/).includes('..')) {
    throw usageError(`working directory ${quoteInput(dir, 200)} contains ".." (path traversal is refused)`, {
      code: 'PATH_TRAVERSAL',
      remedy: 'Pass the repository path without ".." segments.',
    });
  }
  if (options.requireAbsolute && !path.isAbsolute(dir)) {
    throw usageError(`working directory ${quoteInput(dir, 200)} is not absolute`, {
      code: 'WORKDIR_INVALID',
      remedy: 'Pass an absolute path, e.g. /home/me/project.',
    });
  }
  const absolute = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw usageError(`working directory ${absolute} does not exist`, {
      code: 'WORKDIR_INVALID',
      remedy: 'Check the path (--cwd or working_dir).',
    });
  }
  if (!stat.isDirectory()) {
    throw usageError(`working directory ${absolute} is not a directory`, {
      code: 'WORKDIR_INVALID',
      remedy: 'Pass the repository directory.',
    });
  }
  return fs.realpathSync(absolute);
}

/** The workspace at `real` (the checked `dir`): its repository's worktree, else a `.hestai/` directory. */
function workspaceAt(dir: string, real: string, repo: RepoInfo | null): Workspace {
  const absolute = path.resolve(dir);
  if (repo) return { root: repo.root, repo, paths: workspacePaths(repo.root) };
  if (fs.existsSync(path.join(real, '.hestai'))) return { root: real, repo: null, paths: workspacePaths(real) };
  throw usageError(`${absolute} is not inside a git work tree`, {
    code: 'NOT_A_REPO',
    remedy: 'Run hestai inside a git repository (git init), or pass --cwd pointing into one.',
  });
}
