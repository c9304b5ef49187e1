export { git, runGit, GitError, type GitOptions, type GitResult } from './exec.js';
export * from './parse.js';
export * from './repo.js';
