import type { DoctorCheck } from './doctor.js';
import type { Workspace } from '../workspace.js';
import { inspectHooks, notFiring } from './armed.js';

/** Doctor check: will the pre-commit and commit-msg hooks run hestai in this worktree? (Reports; never repairs.) */
export function hooksCheck(workspace: Workspace): DoctorCheck {
  if (!workspace.repo) return { name: 'hooks', status: 'warn', message: 'not a git repository: no hooks' };
  const inspection = inspectHooks(workspace);
  if (inspection.inactive.length === 0)
    return {
      name: 'hooks',
      status: 'pass',
      message: `pre-commit and commit-msg run hestai in this worktree (${inspection.hooksDir})`,
    };
  if (inspection.repairable) {
    return {
      name: 'hooks',
      status: 'fail',
      message: `${inspection.inactive.join(' and ')} will not run in this worktree: core.hooksPath=${inspection.hooksPath ?? '(unset)'} has no runner here (husky's .husky/_ is git-ignored, so linked worktrees lack it; npm install re-points it)`,
      remedy:
        'Run hestai init (or hestai clock-in) in this worktree: it points core.hooksPath at a runner shared by every worktree.',
    };
  }
  if (inspection.strayInstalls.length > 0) {
    // Installed, but where git does not look: commits go through unchecked (issue 12).
    return {
      name: 'hooks',
      status: 'fail',
      message: notFiring(inspection),
      remedy: `Run hestai init --no-husky (it installs into ${inspection.hooksDir}, where git looks), or \`git config --unset core.hooksPath\`.`,
    };
  }
  return {
    name: 'hooks',
    status: 'warn',
    message: `${inspection.inactive.join(' and ')} not installed for hestai`,
    remedy: 'Run hestai init.',
  };
}
