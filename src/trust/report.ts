import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceConfig } from '../config/schema.js';
import { askAsync } from '../git/async.js';
import { ask, type GitQuestion } from '../git/exec.js';
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

/** Whether git tracks `.env`; unknown (git failed) counts as tracked: repository content, inert until trusted. */
const DOTENV_TRACKED: GitQuestion<boolean> = {
  args: ['ls-files', '-z', '--', '.env'],
  okCodes: [1, 128, 129],
  answer: (result) => result.status !== 0 || result.stdout !== '',
};

const dotenvPresent = (workspace: Workspace) =>
  workspace.repo !== null && fs.existsSync(path.join(workspace.root, '.env'));

/** Whether `.env` is tracked by git: then it came with the repository. */
export function committedDotenv(workspace: Workspace): boolean {
  if (!dotenvPresent(workspace)) return false;
  try {
    return ask(workspace.root, DOTENV_TRACKED);
  } catch {
    return true; // git could not be started: unknown, so repository content
  }
}

/** {@link committedDotenv} without blocking the caller on git (clock-in, also over MCP). */
export async function committedDotenvAsync(workspace: Workspace): Promise<boolean> {
  if (!dotenvPresent(workspace)) return false;
  try {
    return await askAsync(workspace.root, DOTENV_TRACKED);
  } catch {
    return true;
  }
}

function dotenvNamesEndpoint(root: string): boolean {
  try {
    return /^\s*(export\s+)?HESTAI_AI_BASE_URL\s*=/m.test(fs.readFileSync(path.join(root, '.env'), 'utf8'));
  } catch {
    return false;
  }
}

/** The trust picture; `dotenv`: whether `.env` is tracked ({@link committedDotenv}, asked here when not given). */
export function workspaceTrust(
  workspace: Workspace,
  config: Pick<WorkspaceConfig, 'quality_gates' | 'ai'>,
  env: NodeJS.ProcessEnv,
  dotenv: boolean = committedDotenv(workspace),
): WorkspaceTrust {
  const state = trustState(workspace.paths, env);
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
