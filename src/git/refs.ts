import fs from 'node:fs';
import path from 'node:path';
import { gitDirOf } from './head.js';
import type { RepoInfo } from './repo.js';

/**
 * Git facts read from the files of the git dir instead of starting git (a git process costs ~5 ms, the
 * session protocol reads these on every gate check). Each reader answers only for the plain layouts it
 * knows (a `.git` directory or a `gitdir:` file, loose refs or `packed-refs`, the files ref backend) and
 * returns null for anything else, so its caller asks git instead: a reader never guesses.
 */

/** Environment variables that change how git finds the repository: with any of them set, ask git. */
const DISCOVERY_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_NAMESPACE',
  'GIT_REF_STORAGE',
];

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

const readText = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** The common git dir of a (possibly linked) worktree's git dir: `commondir` names it, else the git dir itself. */
export function commonDirOf(gitDir: string): string {
  const common = readText(path.join(gitDir, 'commondir'));
  return common === null ? gitDir : path.resolve(gitDir, common.trim());
}

/** Whether `commonDir` uses the files ref backend (no reftable; reftable repositories are read through git). */
function filesRefBackend(commonDir: string): boolean {
  if (fs.existsSync(path.join(commonDir, 'reftable'))) return false;
  const config = readText(path.join(commonDir, 'config'));
  return config !== null && !/^\s*refstorage\s*=/im.test(config);
}

/** The sha a fully qualified ref names: its loose file, else its line in packed-refs; null when unborn. */
function resolveRef(gitDir: string, commonDir: string, ref: string): { sha: string | null } | null {
  if (!/^refs\/[^\0\s]+$/.test(ref) || ref.split('/').some((s) => s === '..' || s === '.' || s === '')) return null;
  // Per-worktree refs live in the worktree's git dir; branches (refs/heads) are shared.
  const perWorktree = /^refs\/(?:bisect|worktree|rewritten)\//.test(ref);
  const loose = readText(path.join(perWorktree ? gitDir : commonDir, ref));
  if (loose !== null) {
    const value = loose.trim();
    return SHA.test(value) ? { sha: value } : null; // a symbolic ref or garbage: let git answer
  }
  const packed = readText(path.join(commonDir, 'packed-refs'));
  if (packed !== null) {
    for (const line of packed.split('\n')) {
      if (line.startsWith('#') || line.startsWith('^')) continue;
      const space = line.indexOf(' ');
      if (space > 0 && line.slice(space + 1).trimEnd() === ref) {
        const sha = line.slice(0, space);
        return SHA.test(sha) ? { sha } : null;
      }
    }
  }
  return { sha: null };
}

/** Where HEAD points: its commit (null on an unborn branch) and its branch (null when detached). */
export interface HeadState {
  sha: string | null;
  branch: string | null;
}

/**
 * HEAD of the worktree at `root`, read from the git dir's files: the same answer as `git rev-parse HEAD` and
 * `git symbolic-ref --short HEAD` for a branch under refs/heads or a detached HEAD; null whenever git
 * could answer differently (discovery variables set, another ref backend, a symbolic ref to anything but a
 * branch, unreadable files).
 */
export function readHead(root: string, env: NodeJS.ProcessEnv = process.env): HeadState | null {
  if (DISCOVERY_ENV.some((k) => env[k] !== undefined && env[k] !== '')) return null;
  const gitDir = gitDirOf(root, env);
  if (gitDir === null) return null;
  const commonDir = commonDirOf(gitDir);
  if (!filesRefBackend(commonDir)) return null;
  const head = readText(path.join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return null;
  if (SHA.test(head)) return { sha: head, branch: null };
  const match = /^ref: (refs\/heads\/\S+)$/.exec(head);
  if (!match) return null;
  const resolved = resolveRef(gitDir, commonDir, match[1]!);
  return resolved === null ? null : { sha: resolved.sha, branch: match[1]!.slice('refs/heads/'.length) };
}

/**
 * The repository around `dir` found from files (what `git rev-parse --show-toplevel --absolute-git-dir
 * --git-common-dir --is-shallow-repository` answers), or null whenever git must decide: a discovery
 * variable is set, the directory or its git dir belongs to another user (git's safe.directory check), the
 * config sets core.worktree or core.bare, or the git dir does not look like one.
 */
export function repoInfoFromFiles(dir: string, env: NodeJS.ProcessEnv = process.env): RepoInfo | null {
  if (DISCOVERY_ENV.some((k) => env[k] !== undefined && env[k] !== '')) return null;
  let root: string;
  try {
    root = fs.realpathSync(dir);
  } catch {
    return null;
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const start = root;
  for (;;) {
    const dotGit = path.join(root, '.git');
    let stat: fs.Stats | null = null;
    try {
      stat = fs.lstatSync(dotGit);
    } catch {
      stat = null;
    }
    if (stat !== null) {
      if (!stat.isDirectory() && !stat.isFile()) return null;
      // Inside the git dir itself git reports no work tree: let it say so.
      if (path.relative(root, start).split(path.sep).includes('.git')) return null;
      const gitDir = gitDirOf(root, {});
      if (gitDir === null) return null;
      const commonDir = commonDirOf(gitDir);
      try {
        const owned = (p: string) => uid === null || fs.statSync(p).uid === uid;
        if (!owned(root) || !owned(gitDir) || !owned(commonDir)) return null;
        if (!fs.statSync(path.join(gitDir, 'HEAD')).isFile()) return null;
        if (!fs.statSync(path.join(commonDir, 'objects')).isDirectory()) return null;
        if (!fs.statSync(path.join(commonDir, 'refs')).isDirectory()) return null;
      } catch {
        return null;
      }
      const config = readText(path.join(commonDir, 'config'));
      if (config === null || /^\s*worktree\s*=/im.test(config)) return null;
      // `bare = false` is what git init writes; any other value (or a bare `bare`) is for git to judge.
      for (const m of config.matchAll(/^\s*bare\b\s*(?:=\s*(.*?))?\s*$/gim))
        if (!/^(?:false|no|off|0)$/i.test(m[1] ?? '')) return null;
      if (fs.existsSync(path.join(gitDir, 'config.worktree'))) return null;
      return {
        root,
        gitDir: fs.realpathSync(gitDir),
        commonDir: fs.realpathSync(commonDir),
        isLinkedWorktree: fs.realpathSync(gitDir) !== fs.realpathSync(commonDir),
        isShallow: fs.existsSync(path.join(commonDir, 'shallow')),
      };
    }
    const parent = path.dirname(root);
    // Crossing into another filesystem, or the root: let git decide (GIT_DISCOVERY_ACROSS_FILESYSTEM).
    if (parent === root) return null;
    try {
      if (fs.statSync(parent).dev !== fs.statSync(root).dev) return null;
    } catch {
      return null;
    }
    root = parent;
  }
}
