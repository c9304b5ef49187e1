import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageError } from '../errors.js';
import { headCommit } from '../git/repo.js';
import { ensureStateDir, readTextIfExists, writeFileAtomic } from '../state/store.js';
import { installedBinPath, MCP_CONFIG_FILE, mergeMcpJson } from './mcp-json.js';
import { resolveWorkspace, type Workspace } from '../workspace.js';
import { installConstitutions } from '../anchor/constitution.js';
import { ensureHooksArmed, installHuskyRunner, runnerDir, type ArmedResult } from './armed.js';
import { configGet } from '../git/repo.js';
import { HESTAI_HOOKS, hookCommand, isShellHook, withHookLine } from './install.js';
import { AGENT_RUNTIMES, type AgentRuntime } from '../agent/binding.js';
import { CLAUDE_SETTINGS_FILE, claudeHookCommand, mergeClaudeSettings } from '../agent/claude-settings.js';

export interface InitInput {
  working_dir: string;
  /** true: through husky; false: plain hooks; undefined: husky when the project uses it. */
  husky?: boolean;
  /** Write `.mcp.json` registering `hestai mcp` for Claude Code. */
  mcp?: boolean;
  /** Install the edit-time hooks of an agent runtime (`.claude/settings.json` for claude-code; implies `mcp`). */
  agent?: string;
}

export interface InitAction {
  path: string;
  action: 'created' | 'updated' | 'unchanged';
}

export interface InitResult {
  ok: true;
  root: string;
  mode: 'husky' | 'plain';
  /** How the hook lines call hestai: relative to the worktree (a dependency) or by absolute path. */
  hooks_dir: string;
  actions: InitAction[];
  armed: ArmedResult;
  /** Suggestions for the user (e.g. a `.claude/` directory without hestai's agent hooks). */
  hints: string[];
}

/** The installed package root (dist/setup/init.js → ../..). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const GITIGNORE_LINES = ['.hestai/sessions/', '.hestai/audit/', '.hestai/cache/'];

const PROJECT_CONTEXT = `===PROJECT_CONTEXT===
META:
  TYPE::PROJECT_CONTEXT
  PURPOSE::"Human-authored project context; clock-in and the anchor read PHASE from here"
PHASE::B1
PURPOSE::"Describe the project in one line"
===END===
`;

/** The inert protocol file earlier versions installed (nothing read it): `hestai init` replaces it. */
const INERT_PROTOCOL = `# hestai session protocol: phases, gates and requirement levels as data (see README "Session protocol").
version: 1
phases:
  - name: binding
    gates:
      - { name: clock_in, level: required }
      - { name: anchor, level: required }
  - name: work
    gates:
      - { name: test_first, level: required }
      - { name: fresh_context, level: required }
  - name: closing
    gates:
      - { name: clock_out, level: recommended }
`;

/** The default session protocol (binding ceremony and end duties), shipped in templates/protocol/. */
export function defaultProtocolText(packageRoot: string = PACKAGE_ROOT): string {
  return fs.readFileSync(path.join(packageRoot, 'templates', 'protocol', 'default.yaml'), 'utf8');
}

function workspaceConfigText(since: string | null): string {
  return [
    '# hestai workspace config: human-authored; every key and its default are in the README ("Configuration").',
    '# Thresholds (freshness, cleanup) are human authority: the tool reads this file and never rewrites it.',
    ...(since === null
      ? ['# tdd:', '#   since: <sha>   # history up to this commit is not judged by the test-first rule']
      : ['tdd:', `  since: ${since}   # set by hestai init: history up to here predates the test-first rule`]),
    '',
  ].join('\n');
}

/** True when the project uses husky: a husky dependency in package.json, or a `.husky/` directory. */
export function projectUsesHusky(root: string): boolean {
  if (fs.existsSync(path.join(root, '.husky'))) return true;
  const text = readTextIfExists(path.join(root, 'package.json'));
  if (text === null) return false;
  try {
    const pkg = JSON.parse(text) as Record<string, Record<string, unknown> | undefined>;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((key) => pkg[key]?.['husky'] !== undefined);
  } catch {
    return false;
  }
}

/**
 * Where hook lines point: `node_modules/hestai-hooks/hooks` (relative to the worktree root, portable
 * across the team) when this package is the project's installed dependency, else the absolute path of
 * the running package's `hooks/` (this repository itself, a global or linked install).
 */
export function hooksDirFor(root: string, packageRoot: string = PACKAGE_ROOT): string {
  const dependency = path.join(root, 'node_modules', 'hestai-hooks');
  try {
    if (fs.realpathSync(dependency) === fs.realpathSync(packageRoot)) return 'node_modules/hestai-hooks/hooks';
  } catch {
    /* not installed as a dependency */
  }
  return path.join(packageRoot, 'hooks');
}

/** The directory git runs plain hooks from in this worktree (never hestai's husky runner directory). */
function plainHooksDir(workspace: Workspace): string {
  const commonHooks = path.join(workspace.repo!.commonDir, 'hooks');
  const hooksPath = configGet(workspace.root, 'core.hooksPath');
  if (!hooksPath) return commonHooks;
  const dir = path.resolve(workspace.root, hooksPath);
  if (dir === runnerDir(workspace.repo!.commonDir)) {
    throw usageError(`core.hooksPath points at hestai's husky runner (${dir}), so plain hooks there would replace it`, {
      code: 'HOOK_CONFLICT',
      remedy:
        'Run hestai init without --no-husky (the project uses husky), or `git config --unset core.hooksPath` and run hestai init --no-husky again.',
    });
  }
  return dir;
}

/** Writes `text` to `file` unless it already holds it; records what happened. */
function put(actions: InitAction[], workspace: Workspace, file: string, text: string, mode?: number): void {
  const before = readTextIfExists(file);
  const rel = path.relative(workspace.root, file) || file;
  if (before === text) {
    actions.push({ path: rel, action: 'unchanged' });
  } else {
    writeFileAtomic(file, text, mode === undefined ? {} : { mode });
    actions.push({ path: rel, action: before === null ? 'created' : 'updated' });
  }
  if (mode !== undefined) fs.chmodSync(file, mode);
}

function putIfMissing(actions: InitAction[], workspace: Workspace, file: string, text: string): void {
  const before = readTextIfExists(file);
  if (before === null) put(actions, workspace, file, text);
  else actions.push({ path: path.relative(workspace.root, file), action: 'unchanged' });
}

/**
 * `hestai init`: creates the `.hestai/` layout and starter files, git-ignores runtime state, writes a
 * default workspace config (with `tdd.since` at HEAD) when there is none, and installs the pre-commit
 * and commit-msg hooks (husky lines or plain hooks), armed for every worktree. Idempotent: a second run
 * changes nothing, and existing hook lines are kept.
 */
export function initWorkspace(input: InitInput): InitResult {
  const workspace = resolveWorkspace(input.working_dir);
  if (!workspace.repo) {
    throw usageError(`${workspace.root} is not a git repository`, {
      code: 'NOT_A_REPO',
      remedy: 'Run git init first, then hestai init.',
    });
  }
  const { paths, root } = workspace;
  const actions: InitAction[] = [];
  for (const dir of [paths.context, paths.state, paths.pending, paths.active, paths.archive, paths.audit, paths.cache])
    ensureStateDir(dir);
  putIfMissing(actions, workspace, paths.projectContext, PROJECT_CONTEXT);
  const protocolBefore = readTextIfExists(paths.protocol);
  if (protocolBefore === null || protocolBefore === INERT_PROTOCOL)
    put(actions, workspace, paths.protocol, defaultProtocolText());
  else actions.push({ path: path.relative(root, paths.protocol), action: 'unchanged' });
  putIfMissing(actions, workspace, paths.workspaceConfig, workspaceConfigText(headCommit(root)));
  const constitutions = installConstitutions(paths);
  for (const file of constitutions.written) actions.push({ path: file, action: 'created' });
  for (const file of constitutions.kept) actions.push({ path: file, action: 'unchanged' });

  const gitignoreFile = path.join(root, '.gitignore');
  const gitignore = readTextIfExists(gitignoreFile) ?? '';
  const present = new Set(gitignore.split('\n').map((line) => line.trim()));
  const missing = GITIGNORE_LINES.filter((line) => !present.has(line) && !present.has(`/${line}`));
  if (missing.length > 0) {
    const prefix = gitignore === '' || gitignore.endsWith('\n') ? gitignore : `${gitignore}\n`;
    put(actions, workspace, gitignoreFile, `${prefix}# hestai runtime state (hestai init)\n${missing.join('\n')}\n`);
  } else actions.push({ path: '.gitignore', action: 'unchanged' });

  const mode = (input.husky ?? projectUsesHusky(root)) ? 'husky' : 'plain';
  const hooksDir = hooksDirFor(root);
  if (mode === 'husky') {
    for (const hook of HESTAI_HOOKS) {
      const file = path.join(root, '.husky', hook);
      put(
        actions,
        workspace,
        file,
        withHookLine(readTextIfExists(file), hook, hookCommand(hook, hooksDir), { shebang: false }),
        0o755,
      );
    }
    installHuskyRunner(workspace);
  } else {
    // Where git runs hooks from: core.hooksPath when set (relative to the worktree root), else the common
    // git dir's hooks/. Installing anywhere else would leave commits unchecked.
    const hooksHome = plainHooksDir(workspace);
    for (const hook of HESTAI_HOOKS) {
      const file = path.join(hooksHome, hook);
      const existing = readTextIfExists(file);
      if (existing !== null && !isShellHook(existing)) {
        throw usageError(`${file} exists and is not a shell script, so hestai cannot add its line to it`, {
          file,
          code: 'HOOK_CONFLICT',
          remedy: `Call hestai from it yourself: ${hookCommand(hook, hooksDir)}`,
        });
      }
      put(
        actions,
        workspace,
        file,
        withHookLine(existing, hook, hookCommand(hook, hooksDir), { shebang: true }),
        0o755,
      );
    }
  }
  const agent = input.agent === undefined ? null : checkAgent(input.agent);
  if (input.mcp || agent !== null) writeMcpJson(actions, workspace);
  const hints: string[] = [];
  if (agent === 'claude-code') writeClaudeSettings(actions, workspace, hooksDir);
  else if (fs.existsSync(path.join(root, '.claude')) && !claudeHooksInstalled(root)) {
    hints.push(
      '.claude/ found: run hestai init --agent claude-code to check every edit of Claude Code agents (hooks in .claude/settings.json)',
    );
  }
  return { ok: true, root, mode, hooks_dir: hooksDir, actions, armed: ensureHooksArmed(workspace), hints };
}

function checkAgent(agent: string): AgentRuntime {
  if (!(AGENT_RUNTIMES as readonly string[]).includes(agent)) {
    throw usageError(`unknown agent runtime ${JSON.stringify(agent)}`, {
      code: 'AGENT_UNKNOWN',
      remedy: `Supported: ${AGENT_RUNTIMES.join(', ')}. Other runtimes can call \`hestai check tool-use\` (README "Agent runtimes").`,
    });
  }
  return agent as AgentRuntime;
}

/** The hook command for Claude Code: by `$CLAUDE_PROJECT_DIR` when hestai-hooks is a dependency, else by absolute path. */
export function claudeCommandFor(hooksDir: string): string {
  return path.isAbsolute(hooksDir)
    ? claudeHookCommand({ absolute: path.join(hooksDir, 'claude-code') })
    : claudeHookCommand({ project: `${hooksDir}/claude-code` });
}

/** Merges hestai's SessionStart and PreToolUse hooks into `.claude/settings.json` (`mergeClaudeSettings`). */
function writeClaudeSettings(actions: InitAction[], workspace: Workspace, hooksDir: string): void {
  const file = path.join(workspace.root, CLAUDE_SETTINGS_FILE);
  put(actions, workspace, file, mergeClaudeSettings(readTextIfExists(file), claudeCommandFor(hooksDir), file));
}

function claudeHooksInstalled(root: string): boolean {
  const text = readTextIfExists(path.join(root, CLAUDE_SETTINGS_FILE));
  return text !== null && /hooks\/claude-code/.test(text);
}

/** Registers `hestai mcp` for Claude Code in `.mcp.json`, keeping other servers (`mergeMcpJson`). */
function writeMcpJson(actions: InitAction[], workspace: Workspace): void {
  const file = path.join(workspace.root, MCP_CONFIG_FILE);
  put(actions, workspace, file, mergeMcpJson(readTextIfExists(file), installedBinPath(), file));
}
