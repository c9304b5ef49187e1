import fs from 'node:fs';
import path from 'node:path';

/**
 * The git dir of a worktree root without starting git: `.git` is a directory, or (in a linked worktree
 * or a submodule) a file `gitdir: <path>`. `GIT_DIR` wins when set. Null when neither can be read.
 */
export function gitDirOf(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env['GIT_DIR']) return path.resolve(root, env['GIT_DIR']);
  const dotGit = path.join(root, '.git');
  try {
    const stat = fs.statSync(dotGit);
    if (stat.isDirectory()) return dotGit;
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return match ? path.resolve(root, match[1]!) : null;
  } catch {
    return null;
  }
}

/**
 * The branch HEAD points at, read from the git dir's HEAD file (one file read instead of a git process,
 * for the hooks): `{branch: 'main'}`, `{branch: null}` when detached, or null when it cannot be read.
 */
export function readHeadBranch(root: string, env: NodeJS.ProcessEnv = process.env): { branch: string | null } | null {
  const gitDir = gitDirOf(root, env);
  if (gitDir === null) return null;
  try {
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    const match = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    if (match) return { branch: match[1]! };
    return /^[0-9a-f]{40,64}$/.test(head) ? { branch: null } : null;
  } catch {
    return null;
  }
}

/** The commits being merged (`MERGE_HEAD` in the git dir) while a merge commit is made; empty otherwise. */
export function readMergeHeads(root: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const gitDir = gitDirOf(root, env);
  if (gitDir === null) return [];
  try {
    return fs
      .readFileSync(path.join(gitDir, 'MERGE_HEAD'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  } catch {
    return [];
  }
}
