import { isHestaiError } from '../errors.js';
import { runGit } from '../git/exec.js';
import { resolveWorkspace, type Workspace } from '../workspace.js';
import { loadConfig } from '../config/load.js';
import { workspaceTrust } from '../trust/report.js';
import { signingCheck } from './doctor-signing.js';

/** One line of the doctor's report. */
export interface DoctorCheck {
  name: string;
  status: 'pass' | 'warn' | 'fail';
  message: string;
  remedy?: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

const MIN_NODE: readonly [number, number] = [20, 19];

/** Pure: is `major.minor` at least `min`? */
const atLeast = (major: number, minor: number, min: readonly [number, number]) =>
  major > min[0] || (major === min[0] && minor >= min[1]);

/** Pure: is this `process.versions.node` at least 20.19? */
export function nodeVersionSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return atLeast(major, minor, MIN_NODE);
}

function checkNode(version: string): DoctorCheck {
  return nodeVersionSupported(version)
    ? { name: 'node', status: 'pass', message: `node ${version}` }
    : {
        name: 'node',
        status: 'fail',
        message: `node ${version} is older than ${MIN_NODE.join('.')}`,
        remedy: 'Install Node.js 20.19 or newer (20, 22 and 24 are supported).',
      };
}

/** verify asks one `git cat-file --batch-command` and reads merges with `--diff-merges=remerge`: git 2.36. */
const MIN_GIT: readonly [number, number] = [2, 36];
const GIT_REMEDY = `Install git ${MIN_GIT.join('.')} or newer and put it on PATH.`;

/** Pure: does `git --version`'s line name git 2.36 or newer? */
export function gitVersionSupported(line: string): boolean {
  const match = /^git version (\d+)\.(\d+)/.exec(line);
  if (match === null) return false;
  return atLeast(Number(match[1]), Number(match[2]), MIN_GIT);
}

function checkGit(cwd: string): DoctorCheck {
  try {
    const version = runGit(['--version'], { cwd }).stdout.trim();
    return gitVersionSupported(version)
      ? { name: 'git', status: 'pass', message: version }
      : {
          name: 'git',
          status: 'fail',
          message: `${version}: hestai needs git ${MIN_GIT.join('.')} or newer`,
          remedy: GIT_REMEDY,
        };
  } catch (error) {
    return {
      name: 'git',
      status: 'fail',
      message: isHestaiError(error) ? error.message : String(error),
      remedy: GIT_REMEDY,
    };
  }
}

/** Extra checks contributed by other parts of the product (hooks installed, sessions readable, ...). */
export type WorkspaceCheck = (workspace: Workspace) => DoctorCheck | Promise<DoctorCheck>;

/**
 * Checks the installation: node version, git on PATH, a git work tree at `cwd`, a valid workspace
 * config, and any `extraChecks` (e.g. hooks active in this worktree).
 */
export async function runDoctor(
  cwd: string,
  extraChecks: readonly WorkspaceCheck[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [checkNode(process.versions.node), checkGit(cwd)];
  let workspace: Workspace | null = null;
  try {
    workspace = resolveWorkspace(cwd);
    checks.push({
      name: 'repository',
      status: 'pass',
      message: `${workspace.root}${workspace.repo?.isLinkedWorktree ? ' (linked worktree)' : ''}`,
    });
  } catch (error) {
    checks.push({
      name: 'repository',
      status: 'fail',
      message: isHestaiError(error) ? error.message : String(error),
      ...(isHestaiError(error) && error.remedy ? { remedy: error.remedy } : {}),
    });
  }
  if (workspace) {
    try {
      const { file, config } = await loadConfig(workspace.root);
      checks.push({
        name: 'config',
        status: 'pass',
        message: file ? `${file} is valid` : 'no .hestai_workspace.yaml (defaults in use)',
      });
      const trust = workspaceTrust(workspace, config, env);
      if (trust.warning !== null)
        checks.push({
          name: 'trust',
          status: 'warn',
          message: trust.warning.split(' hint: ')[0]!,
          ...(trust.hint ? { remedy: trust.hint } : {}),
        });
      else if (trust.powers.length > 0)
        checks.push({ name: 'trust', status: 'pass', message: `trusted: ${trust.powers.join(', ')}` });
      checks.push(signingCheck(workspace.root, config.verify.signatures, env));
    } catch (error) {
      checks.push({
        name: 'config',
        status: 'fail',
        message: isHestaiError(error) ? [error.message, ...error.details].join('\n    ') : String(error),
        ...(isHestaiError(error) && error.remedy ? { remedy: error.remedy } : {}),
      });
    }
    for (const check of extraChecks) checks.push(await check(workspace));
  }
  return { ok: checks.every((c) => c.status !== 'fail'), checks };
}
