import fs from 'node:fs';
import path from 'node:path';
import { WORKSPACE_CONFIG_FILE } from '../paths.js';
import type { DoctorCheck } from './doctor.js';
import type { Workspace } from '../workspace.js';
import { loadConfig } from '../config/load.js';
import { probeHookChain, REFUSED_BEFORE } from './doctor-probe.js';
import { inspectHooks, notFiring, SHARED_HOOKS_REMEDY, sharedHooksReason } from './armed.js';
import { isPreCommitFrameworkHook, PRE_COMMIT_CONFIG } from './install.js';
import { readTextIfExists } from '../state/store.js';

/**
 * Doctor check: will the pre-commit and commit-msg hooks run hestai in this worktree? Inspects where git
 * looks, then tries commits hestai must refuse through the installed chain (`probeHookChain`, in a
 * throw-away worktree). (Reports; never repairs.)
 */
export async function hooksCheck(workspace: Workspace, env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck> {
  if (!workspace.repo) return { name: 'hooks', status: 'warn', message: 'not a git repository: no hooks' };
  const inspection = inspectHooks(workspace);
  if (inspection.active.length > 0 && inspection.shared)
    return {
      name: 'hooks',
      status: 'fail',
      message: `${inspection.active.join(' and ')} run hestai from a shared directory: ${sharedHooksReason(inspection.hooksDir, inspection.hooksPath)}`,
      remedy: `${SHARED_HOOKS_REMEDY} Then remove hestai's lines from ${inspection.hooksDir}.`,
    };
  if (inspection.inactive.length === 0) {
    let config;
    try {
      config = (await loadConfig(workspace.root, env)).config;
    } catch {
      return { name: 'hooks', status: 'warn', message: 'not tried: the workspace config does not load (see config)' };
    }
    const failures = await probeHookChain(workspace.root, inspection.hooksDir, inspection.hooksPath, config, env);
    if (failures.length > 0)
      return {
        name: 'hooks',
        status: 'fail',
        message: failures.join('\n     '),
        remedy: failures.every((f) => f.includes(REFUSED_BEFORE))
          ? 'Fix what the hook said (above: its own error, e.g. a rev that does not exist), then run hestai doctor again.'
          : 'Make each hook run hestai on every commit: run hestai init (it puts its line before the first exit or exec), and remove any line that skips it.',
      };
    return {
      name: 'hooks',
      status: 'pass',
      message: `ran hestai's pre-commit and commit-msg: each refused a commit it must refuse, tried through the installed hooks in a throw-away worktree (${inspection.hooksDir})`,
    };
  }
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
      remedy: inspection.shared
        ? SHARED_HOOKS_REMEDY
        : `Run hestai init --no-husky (it installs into ${inspection.hooksDir}, where git looks), or \`git config --unset core.hooksPath\`.`,
    };
  }
  const framework = inspection.inactive.filter((hook) =>
    isPreCommitFrameworkHook(readTextIfExists(path.join(inspection.hooksDir, hook))),
  );
  if (framework.length > 0)
    return {
      name: 'hooks',
      status: 'fail',
      message: `${framework.join(' and ')} ${framework.length === 1 ? 'is' : 'are'} run by the pre-commit framework, whose ${PRE_COMMIT_CONFIG} does not name hestai's hook ${framework.length === 1 ? 'id' : 'ids'} (${framework.map((h) => `hestai-${h}`).join(', ')})`,
      remedy: `Run hestai init: it prints the lines to add to ${PRE_COMMIT_CONFIG}.`,
    };
  // An adopted repository (its workspace config is committed) without the hooks: a clone, which git gives none.
  const adopted = fs.existsSync(path.join(workspace.root, WORKSPACE_CONFIG_FILE));
  return {
    name: 'hooks',
    status: adopted && !inspection.shared ? 'fail' : 'warn',
    message: `${inspection.inactive.join(' and ')} not installed for hestai${inspection.shared ? ` (${sharedHooksReason(inspection.hooksDir, inspection.hooksPath)})` : adopted ? ' here (git does not clone hooks), so commits go unchecked' : ''}`,
    remedy: inspection.shared
      ? SHARED_HOOKS_REMEDY
      : adopted
        ? 'Run `hestai init`: it installs the hooks here and changes nothing else of an adopted repository.'
        : 'Run hestai init.',
  };
}
