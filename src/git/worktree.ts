import { runGit } from './exec.js';

/** `git worktree add --detach DIR SHA` (a throw-away checkout). */
export function worktreeAddDetached(cwd: string, dir: string, sha: string): void {
  runGit(['worktree', 'add', '--detach', '--quiet', dir, sha], { cwd });
}

/** Removes a worktree made by `worktreeAddDetached` (forced: it may hold build output), then prunes. */
export function worktreeRemove(cwd: string, dir: string): void {
  runGit(['worktree', 'remove', '--force', dir], { cwd, okCodes: [128] });
  runGit(['worktree', 'prune'], { cwd, okCodes: [128] });
}
