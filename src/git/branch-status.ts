import { git } from './exec.js';
import { parseStatusV2, type BranchStatus } from './parse-status-v2.js';

/**
 * Branch, upstream, ahead/behind and the working-tree status with ONE git process
 * (`git status --porcelain=v2 --branch -z --untracked-files=all`): what the anchor's ARM needs.
 */
export function branchStatus(cwd: string): BranchStatus {
  return parseStatusV2(git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], { cwd }));
}
