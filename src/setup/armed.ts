import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';
import { isInside } from '../paths.js';
import { askAsync } from '../git/async.js';
import { configSet, configSetQuestion } from '../git/config.js';
import { ask } from '../git/exec.js';
import { configGet, configGetQuestion, HOOKS_DIR } from '../git/repo.js';
import type { Workspace } from '../workspace.js';
import {
  FRAMEWORK_HOOKS,
  HESTAI_HOOKS,
  HUSKY_HOOKS,
  HUSKY_RUNNER,
  hookMarker,
  isLefthookHook,
  isPreCommitFrameworkHook,
  LEFTHOOK_CONFIGS,
  lefthookConfigNames,
  PRE_COMMIT_CONFIG,
  preCommitConfigNames,
  RUNNER_MARK,
} from './install.js';

/** Where git looks for this worktree's hooks, and whether hestai's two hooks will run there. */
export interface HooksInspection {
  /** The hooks directory git uses in this worktree (core.hooksPath resolved, else the common git dir's hooks/). */
  hooksDir: string;
  /** `core.hooksPath` as configured, or null. */
  hooksPath: string | null;
  /** Hooks that will run hestai in this worktree. */
  active: string[];
  /** Hooks that will not. */
  inactive: string[];
  /** True when `.husky/<hook>` of this worktree calls hestai (husky mode). */
  husky: boolean;
  /** Installed (husky lines present) but will not fire here: `ensureHooksArmed` can repair it. */
  repairable: boolean;
  /** Hook files holding hestai's line that git does not run here (e.g. `.git/hooks/` under a core.hooksPath). */
  strayInstalls: string[];
  /** True when the hooks directory lies outside the repository and other repositories share it (`sharedHooksDir`). */
  shared: boolean;
}

/** Whether two paths name one directory (git answers with real paths; a workspace may be reached through a link). */
export function sameDir(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

/** `dir`'s real path, resolving the deepest part of it that exists (a hooks directory may not exist yet). */
function realPathOf(dir: string): string {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...missing.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(dir);
      missing.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * True when git runs this worktree's hooks from a directory outside the repository (neither in the worktree
 * nor in its git dirs): a `core.hooksPath` like `~/.githooks` that every repository of the user shares, where
 * hestai's hooks would block commits of repositories that never adopted hestai.
 */
export function sharedHooksDir(workspace: Workspace, hooksDir: string): boolean {
  const repo = workspace.repo;
  if (!repo) return false;
  const dir = realPathOf(hooksDir);
  return ![workspace.root, repo.gitDir, repo.commonDir].some((base) => isInside(realPathOf(base), dir));
}

/** Why hestai's hooks do not belong in a shared hooks directory (`sharedHooksDir`), naming it and where core.hooksPath is set. */
export function sharedHooksReason(hooksDir: string, hooksPath: string | null, scope?: string | null): string {
  const setting =
    hooksPath === null ? '' : ` (core.hooksPath=${hooksPath}${scope ? `, from the ${scope} git config` : ''})`;
  return `git runs this repository's hooks from ${hooksDir}${setting}, a directory outside this repository that other repositories share: hestai's hooks there would block commits of every repository that has not adopted hestai`;
}

/** The remedy for a shared hooks directory: commands that give this repository hooks of its own. */
export const SHARED_HOOKS_REMEDY =
  "Run hestai init --husky (hestai's runner in this repository's git dir, no husky package needed), or give this repository its own hooks directory: `git config core.hooksPath .githooks`, then hestai init --no-husky.";

/**
 * True when `dir` is husky's runner directory (husky 9's `.husky/_`, git-ignored and rewritten by every
 * `husky` install): its hook files hand over to `h`, which runs `.husky/<hook>` and exits, so a line appended
 * to them never runs.
 */
export function huskyRunnerDir(root: string, dir: string): boolean {
  if (sameDir(dir, path.join(root, '.husky', '_'))) return true;
  if (!fs.existsSync(path.join(dir, 'h'))) return false;
  return HESTAI_HOOKS.some((hook) => /\/h"/.test(readIfExists(path.join(dir, hook)) ?? ''));
}

/** The runner directory shared by all worktrees of a repository. */
export function runnerDir(commonDir: string): string {
  return path.join(commonDir, 'hestai', 'hooks');
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when a hook manager runs hestai's hook from this file: lefthook's stub with hestai's command in its
 * config, or the pre-commit framework's hook with hestai's hook id in .pre-commit-config.yaml.
 */
function frameworkRuns(root: string, hook: string, text: string): boolean {
  if (isLefthookHook(text))
    return LEFTHOOK_CONFIGS.some((name) =>
      lefthookConfigNames(readIfExists(path.join(root, name)), hook as (typeof HESTAI_HOOKS)[number]),
    );
  if (!isPreCommitFrameworkHook(text) || !(FRAMEWORK_HOOKS as readonly string[]).includes(hook)) return false;
  return preCommitConfigNames(
    readIfExists(path.join(root, PRE_COMMIT_CONFIG)),
    hook as (typeof FRAMEWORK_HOOKS)[number],
  );
}

/** What git says of this worktree's hooks: `core.hooksPath` as configured (or null) and the directory it runs them from. */
export interface GitHooks {
  hooksPath: string | null;
  /** `git rev-parse --git-path hooks` (src/git/repo.ts HOOKS_DIR): `~` expanded, relative to the root. */
  hooksDir: string;
}

const gitHooks = (root: string): GitHooks => ({
  hooksPath: configGet(root, 'core.hooksPath'),
  hooksDir: ask(root, HOOKS_DIR),
});

/**
 * Inspects, without changing anything, whether the hooks will fire in this worktree, where git runs them
 * (`hooks`, asked of git here when not given).
 */
export function inspectHooks(workspace: Workspace, hooks?: GitHooks): HooksInspection {
  const repo = workspace.repo;
  if (!repo)
    throw usageError(`${workspace.root} is not a git work tree`, { code: 'NOT_A_REPO', remedy: 'Run git init first.' });
  const { hooksPath, hooksDir } = hooks ?? gitHooks(workspace.root);
  const active: string[] = [];
  const inactive: string[] = [];
  let husky = true;
  for (const hook of HESTAI_HOOKS) {
    const huskyFile = readIfExists(path.join(workspace.root, '.husky', hook));
    const inHusky = huskyFile?.includes(hookMarker(hook)) ?? false;
    husky &&= inHusky;
    const file = path.join(hooksDir, hook);
    const text = executable(file) ? readIfExists(file) : null;
    const runsHusky =
      text !== null && (text.includes(RUNNER_MARK) || (/\/h"/.test(text) && fs.existsSync(path.join(hooksDir, 'h'))));
    const fires =
      text !== null &&
      (text.includes(hookMarker(hook)) || (runsHusky && inHusky) || frameworkRuns(workspace.root, hook, text));
    (fires ? active : inactive).push(hook);
  }
  const strayInstalls: string[] = [];
  for (const hook of HESTAI_HOOKS.filter((h) => inactive.includes(h))) {
    for (const dir of [path.join(repo.commonDir, 'hooks'), path.join(workspace.root, '.githooks')]) {
      const file = path.join(dir, hook);
      if (!sameDir(dir, hooksDir) && readIfExists(file)?.includes(hookMarker(hook))) strayInstalls.push(file);
    }
  }
  return {
    hooksDir,
    hooksPath,
    active,
    inactive,
    husky,
    repairable: husky && inactive.length > 0,
    strayInstalls,
    shared: sharedHooksDir(workspace, hooksDir),
  };
}

/** Installs the husky-compatible runner in the common git dir and points core.hooksPath at it. */
export function installHuskyRunner(workspace: Workspace): string {
  const dir = writeHuskyRunner(workspace.repo!.commonDir);
  if (configGet(workspace.root, 'core.hooksPath') !== dir) configSet(workspace.root, 'core.hooksPath', dir);
  return dir;
}

/** The runner files (no git): returns their directory. */
function writeHuskyRunner(commonDir: string): string {
  const dir = runnerDir(commonDir);
  fs.mkdirSync(dir, { recursive: true });
  for (const hook of HUSKY_HOOKS) {
    const file = path.join(dir, hook);
    if (readIfExists(file) !== HUSKY_RUNNER) fs.writeFileSync(file, HUSKY_RUNNER, { mode: 0o755 });
    fs.chmodSync(file, 0o755);
  }
  return dir;
}

/** Why the hooks will not fire, and a remedy that works (init installs where git looks: core.hooksPath). */
export function notFiring(inspection: HooksInspection): string {
  const hooks = inspection.inactive.join(' and ');
  const where = inspection.hooksPath
    ? `git runs hooks from ${inspection.hooksDir} (core.hooksPath=${inspection.hooksPath})`
    : `git runs hooks from ${inspection.hooksDir}`;
  const stray =
    inspection.strayInstalls.length > 0
      ? `, not from ${inspection.strayInstalls.join(', ')} where hestai's line is`
      : '';
  if (inspection.shared)
    return `${hooks} will not run hestai in this worktree: ${sharedHooksReason(inspection.hooksDir, inspection.hooksPath)}${stray}; ${SHARED_HOOKS_REMEDY.replace(/^Run/, 'run')}`;
  return `${hooks} will not run hestai in this worktree: ${where}${stray}; run hestai init --no-husky (it installs into ${inspection.hooksDir}), or \`git config --unset core.hooksPath\` and run hestai init`;
}

/** The answer of `ensureHooksArmed`. */
export interface ArmedResult {
  armed: boolean;
  repaired: boolean;
  message: string;
}

/**
 * Makes sure the hooks fire in this worktree. A husky install whose `.husky/_` runner is missing here (a
 * linked worktree, or husky's `prepare` reset core.hooksPath after `npm install`) is repaired by pointing
 * core.hooksPath at hestai's runner in the common git dir. Anything else not armed is reported with what
 * to run. Never throws for a workspace inside a git repository.
 */
export function ensureHooksArmed(workspace: Workspace): ArmedResult {
  if (!workspace.repo) return notArmable(workspace);
  const before = inspectHooks(workspace);
  if (!needsRepair(before)) return unrepaired(before);
  const dir = writeHuskyRunner(workspace.repo.commonDir);
  if (before.hooksPath !== dir) configSet(workspace.root, 'core.hooksPath', dir);
  return repaired(workspace, before, dir);
}

/** {@link ensureHooksArmed} without blocking the caller on git (clock-in, also over MCP): the same steps. */
export async function ensureHooksArmedAsync(workspace: Workspace): Promise<ArmedResult> {
  if (!workspace.repo) return notArmable(workspace);
  const [hooksPath, hooksDir] = await Promise.all([
    askAsync(workspace.root, configGetQuestion('core.hooksPath')),
    askAsync(workspace.root, HOOKS_DIR),
  ]);
  const before = inspectHooks(workspace, { hooksPath, hooksDir });
  if (!needsRepair(before)) return unrepaired(before);
  const dir = writeHuskyRunner(workspace.repo.commonDir);
  if (before.hooksPath !== dir) await askAsync(workspace.root, configSetQuestion('core.hooksPath', dir));
  return repaired(workspace, before, dir);
}

function notArmable(workspace: Workspace): ArmedResult {
  return { armed: false, repaired: false, message: `${workspace.root} is not a git work tree: no hooks can run` };
}

const needsRepair = (before: HooksInspection) => before.inactive.length > 0 && before.repairable;

/** The answer when nothing is repaired: armed, or why not and what to run. */
function unrepaired(before: HooksInspection): ArmedResult {
  if (before.inactive.length === 0)
    return { armed: true, repaired: false, message: `hooks active in this worktree (${before.hooksDir})` };
  return { armed: false, repaired: false, message: notFiring(before) };
}

/** The answer once core.hooksPath points at the runner in `dir`. */
function repaired(workspace: Workspace, before: HooksInspection, dir: string): ArmedResult {
  const after = inspectHooks(workspace, { hooksPath: dir, hooksDir: dir });
  if (after.inactive.length > 0) {
    return {
      armed: false,
      repaired: false,
      message: `${after.inactive.join(' and ')} still will not run after pointing core.hooksPath at ${dir}; run: hestai init`,
    };
  }
  return {
    armed: true,
    repaired: true,
    message: `repaired: core.hooksPath was ${before.hooksPath ?? 'unset'} (${before.hooksDir} does not run .husky/ here); it now points at ${dir}, which runs .husky/<hook> in every worktree`,
  };
}
