import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceConfig } from '../config/schema.js';
import { runGit } from '../git/exec.js';
import type { Workspace } from '../workspace.js';
import { TRUST_REMEDY, trustState, type TrustState } from './index.js';
import { repositoryPowers, untrustedWarning } from './settings.js';

/** The trust picture of one workspace, as `status`, `doctor`, `trust` and clock-in report it. */
export interface WorkspaceTrust extends TrustState {
  /** Repository settings that are ignored right now (empty when trusted or when there are none). */
  inert: string[];
  /** Every repository setting that needs trust (what `hestai trust` allows). */
  powers: string[];
  /** Whether `.env` is tracked by git (then it is repository content, not the user's). */
  dotenv_committed: boolean;
  hint: string | null;
  /** One line for humans; null when nothing is inert. */
  warning: string | null;
}

/** Whether `.env` is tracked by git: then it came with the repository. */
export function committedDotenv(workspace: Workspace): boolean {
  if (!workspace.repo || !fs.existsSync(path.join(workspace.root, '.env'))) return false;
  try {
    return runGit(['ls-files', '-z', '--', '.env'], { cwd: workspace.root }).stdout !== '';
  } catch {
    return true; // unknown: treat as repository content (inert until trusted)
  }
}

function dotenvNamesEndpoint(root: string): boolean {
  try {
    return /^\s*(export\s+)?HESTAI_AI_BASE_URL\s*=/m.test(fs.readFileSync(path.join(root, '.env'), 'utf8'));
  } catch {
    return false;
  }
}

export function workspaceTrust(
  workspace: Workspace,
  config: Pick<WorkspaceConfig, 'quality_gates' | 'ai'>,
  env: NodeJS.ProcessEnv,
): WorkspaceTrust {
  const state = trustState(workspace.paths, env);
  const dotenv = committedDotenv(workspace);
  const powers = repositoryPowers(config, dotenv && dotenvNamesEndpoint(workspace.root));
  const trusted = state.status === 'trusted';
  const warning = untrustedWarning(state, powers);
  return {
    ...state,
    powers,
    inert: trusted ? [] : powers,
    dotenv_committed: dotenv,
    hint: trusted || powers.length === 0 ? null : TRUST_REMEDY,
    warning,
  };
}
