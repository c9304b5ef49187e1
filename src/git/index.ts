export { git, runGit, runGitBuffer, GitError, type GitOptions, type GitResult } from './exec.js';
export * from './parse.js';
export * from './repo.js';
export { parseStatusV2, type BranchStatus } from './parse-status-v2.js';
export {
  runGitAsync,
  branchStatusAsync,
  recentCommitsAsync,
  commitsSinceAsync,
  trackedFilesAsync,
  hooksDirAsync,
} from './async.js';
export * from './head.js';
export * from './history.js';
export * from './config.js';
export * from './worktree.js';
export * from './anchors.js';
export { fileAtCommit } from './show.js';
