import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DoctorCheck } from './doctor.js';
import type { Workspace } from '../workspace.js';
import { runProcess } from '../util/run-process.js';
import { inspectHooks, notFiring, SHARED_HOOKS_REMEDY, sharedHooksReason } from './armed.js';
import { isPreCommitFrameworkHook, PRE_COMMIT_CONFIG } from './install.js';
import { readTextIfExists } from '../state/store.js';

/** The hooks doctor runs on a dry-run message: the two commit gates (pre-push would reach the remote). */
const PROBED_HOOKS = ['pre-commit', 'commit-msg'] as const;

/**
 * Runs the hook chain git would run in this worktree (`<hooksDir>/<hook>`, with whatever husky, lefthook, the
 * pre-commit framework or the user put before hestai) with HESTAI_PROBE set: hestai's part, when reached,
 * says so and stops the chain. Returns the hooks whose chain never reached hestai, with why.
 */
export async function probeHookChain(
  workspace: Workspace,
  hooksDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const failures: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-doctor-'));
  try {
    const message = path.join(dir, 'COMMIT_EDITMSG');
    fs.writeFileSync(message, 'chore: hestai doctor dry run\n');
    for (const hook of PROBED_HOOKS) {
      const file = path.join(hooksDir, hook);
      const nonce = randomUUID();
      const result = await runProcess(file, hook === 'commit-msg' ? [message] : [], {
        cwd: workspace.root,
        env: { ...env, HESTAI_PROBE: nonce },
        timeoutMs: 120_000,
      });
      const output = `${result.stdout}${result.stderr}`;
      const reached = output.includes(`probe ${nonce} reached the ${hook} hook`);
      // hestai's part exits 3 (PROBE_EXIT, src/hooks/main.ts); a manager may report any failure as 1 (the pre-commit framework does).
      if (reached && result.status !== 0 && result.status !== null) continue;
      const why = reached
        ? `it reached hestai's line but exited ${result.status}: the chain ignores hestai's refusal`
        : result.startError
          ? `it could not be started (${result.startError})`
          : result.timedOut
            ? 'it did not finish within 120 s'
            : `it exited ${result.status} without reaching hestai's line (a line after an exit or exec never runs)`;
      failures.push(`${hook}: hestai's part never runs: ${file} ${why}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return failures;
}

/**
 * Doctor check: will the pre-commit and commit-msg hooks run hestai in this worktree? Inspects where git
 * looks, then runs the installed chain on a dry-run message. (Reports; never repairs.)
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
    const failures = await probeHookChain(workspace, inspection.hooksDir, env);
    if (failures.length > 0)
      return {
        name: 'hooks',
        status: 'fail',
        message: failures.join('; '),
        remedy: 'Run hestai init: it puts its line before the first exit or exec of each hook.',
      };
    return {
      name: 'hooks',
      status: 'pass',
      message: `ran hestai's pre-commit and commit-msg through the installed hooks on a dry-run message (${inspection.hooksDir})`,
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
  return {
    name: 'hooks',
    status: 'warn',
    message: `${inspection.inactive.join(' and ')} not installed for hestai${inspection.shared ? ` (${sharedHooksReason(inspection.hooksDir, inspection.hooksPath)})` : ''}`,
    remedy: inspection.shared ? SHARED_HOOKS_REMEDY : 'Run hestai init.',
  };
}
