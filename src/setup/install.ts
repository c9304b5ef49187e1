/** Pure pieces of hook installation: the lines init writes and how they join existing hook files. */
import path from 'node:path';
import { shellQuote } from '../util/quote.js';

/**
 * The hooks hestai installs: the two commit gates; prepare-commit-msg, which gives the commits of git revert,
 * cherry-pick and rebase (no commit-msg hook runs for them) their trailers; pre-push, which publishes the anchor
 * proof records.
 */
export const HESTAI_HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'pre-push'] as const;
export type HestaiHook = (typeof HESTAI_HOOKS)[number];

/** Every hook husky 9 dispatches (its `.husky/_` holds one stub per name). */
export const HUSKY_HOOKS = [
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-rebase',
  'post-rewrite',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-auto-gc',
] as const;

/** The marker comment above hestai's line in a hook file; it keeps `hestai init` idempotent. */
export function hookMarker(hook: HestaiHook): string {
  return `# hestai ${hook} (added by hestai init; keep this comment)`;
}

/**
 * The command that runs a hook entrypoint by path (never through npx or tsx): relative to the worktree
 * root (git's hook cwd) when hestai-hooks is a dependency of the project, else the absolute path of the
 * running package, single-quoted for sh.
 */
export function hookCommand(hook: HestaiHook, hooksDir: string): string {
  const file = `${hooksDir}/${hook}`;
  // Single quotes: a package installed under a path with spaces, quotes, `$` or backticks runs as itself.
  const quoted = /^[A-Za-z0-9_./-]+$/.test(file) ? file : shellQuote(file);
  // prepare-commit-msg only adds trailers and runs even under --no-verify: it never blocks a commit, not even
  // where hestai-hooks is not installed (a fresh clone before npm ci). CI's verify judges the commit.
  if (hook === 'prepare-commit-msg')
    return `if [ -f ${quoted} ]; then node ${quoted} "$@" || :; else echo "hestai: ${PREPARE_MISSING}" >&2; fi`;
  // A dependency missing in this worktree (a `git worktree add` without `npm ci`): one line naming the command.
  if (!path.isAbsolute(hooksDir))
    return `if [ -f ${quoted} ]; then node ${quoted} "$@" || exit $?; else echo 'hestai: ${DEPENDENCY_MISSING}' >&2; exit 1; fi`;
  return `node ${quoted} "$@" || exit $?`;
}

/** What a gate hook prints where the dependency is missing in the worktree being committed. */
const DEPENDENCY_MISSING = 'hestai-hooks is not installed in this worktree, so this commit is refused: run `npm ci`';

/** What the prepare-commit-msg line prints where hestai-hooks is not installed. */
const PREPARE_MISSING = 'hestai-hooks is not installed here (npm ci), so this commit gets no HestAI trailers';

/**
 * Adds (or updates) hestai's marked line in a hook file's text, keeping every other line. The line goes
 * before the first top-level `exec` or `exit` (a line after either never runs), else at the end; a marked
 * line already above it stays where it is. `shebang`: a new plain hook needs `#!/bin/sh`; husky 9 hook
 * files have none.
 */
export function withHookLine(
  existing: string | null,
  hook: HestaiHook,
  command: string,
  options: { shebang: boolean },
): string {
  const marker = hookMarker(hook);
  if (existing === null || existing.trim() === '')
    return `${options.shebang ? '#!/bin/sh\n' : ''}${marker}\n${command}\n`;
  const lines = existing.replace(/\n$/, '').split('\n');
  const at = lines.indexOf(marker);
  const leaves = firstLeavingLine(lines);
  if (at !== -1 && (leaves === -1 || at < leaves)) {
    lines[at + 1] = command;
    return `${lines.join('\n')}\n`;
  }
  if (at !== -1) lines.splice(at, 2);
  const before = firstLeavingLine(lines);
  lines.splice(before === -1 ? lines.length : before, 0, marker, command);
  return `${lines.join('\n')}\n`;
}

/** The index of the first line that ends the script at the top level (`exec ...`, `exit`), or -1. */
export function firstLeavingLine(lines: readonly string[]): number {
  return lines.findIndex((line) => /^(exec|exit)(\s|;|$)/.test(line));
}

/** True when a hook file's text starts a shell (so a line can be appended to it). */
export function isShellHook(text: string): boolean {
  const first = text.split('\n', 1)[0] ?? '';
  return (
    !first.startsWith('#!') || /^#!\s*(\/usr\/bin\/env\s+)?(\/bin\/|\/usr\/bin\/)?(sh|bash|dash|zsh)\b/.test(first)
  );
}

/**
 * husky's runner, installed once per repository in `$GIT_COMMON_DIR/hestai/hooks/<hook>` for every hook
 * name: runs `.husky/<hook>` of the worktree being committed (git's hook cwd). husky's own runner lives
 * in the git-ignored `.husky/_`, which linked worktrees do not have, so there hooks silently do not run.
 */
export const RUNNER_MARK = "hestai: husky's runner for every worktree";
export const HUSKY_RUNNER = `#!/bin/sh
# ${RUNNER_MARK} (installed by hestai init). It runs .husky/<hook> of the
# worktree being committed, like husky's .husky/_/h, which linked worktrees do not have.
[ "\${HUSKY-}" = "2" ] && set -x
[ "\${HUSKY-}" = "0" ] && exit 0
n=$(basename "$0")
s=".husky/$n"
[ -f "$s" ] || exit 0
export PATH="node_modules/.bin:$PATH"
sh -e "$s" "$@"
c=$?
[ $c != 0 ] && echo "husky - $n script failed (code $c)"
[ $c = 127 ] && echo "husky - command not found in PATH=$PATH"
exit $c
`;

/** The pre-commit framework's configuration file and the text of the hooks it generates. */
export const PRE_COMMIT_CONFIG = '.pre-commit-config.yaml';
const PRE_COMMIT_GENERATED = 'File generated by pre-commit';

/** True when a hook file's text was generated by the pre-commit framework (it hands over with `exec`). */
export function isPreCommitFrameworkHook(text: string | null): boolean {
  return text !== null && text.includes(PRE_COMMIT_GENERATED);
}

/** The hooks the pre-commit framework runs for hestai: the two commit gates (pre-push reads refs on stdin). */
export const FRAMEWORK_HOOKS = ['pre-commit', 'commit-msg'] as const;

/** True when `.pre-commit-config.yaml`'s text names hestai's hook id for `hook`. */
export function preCommitConfigNames(configText: string | null, hook: (typeof FRAMEWORK_HOOKS)[number]): boolean {
  return configText !== null && new RegExp(`\\bid:\\s*hestai-${hook}\\b`).test(configText);
}

/**
 * The exact lines to add under `repos:` in `.pre-commit-config.yaml`: a local repository with hestai's two
 * hook ids (the same ids as this package's .pre-commit-hooks.yaml), each calling `entry(hook)`.
 * `stages: [commit]` is the name pre-commit < 3.2 knows; later versions read it as pre-commit.
 */
export function preCommitConfigLines(entry: (hook: 'pre-commit' | 'commit-msg') => string): string[] {
  return [
    '  - repo: local',
    '    hooks:',
    '      - id: hestai-pre-commit',
    '        name: hestai (session, anchor, fresh context)',
    `        entry: ${entry('pre-commit')}`,
    '        language: system',
    '        pass_filenames: false',
    '        always_run: true',
    '        stages: [commit]',
    '      - id: hestai-commit-msg',
    '        name: hestai (Conventional Commit header, test-first, trailers)',
    `        entry: ${entry('commit-msg')}`,
    '        language: system',
    '        always_run: true',
    '        stages: [commit-msg]',
  ];
}

/** The command that installs the framework's hooks for both of hestai's hook types. */
export const PRE_COMMIT_INSTALL = 'pre-commit install --hook-type pre-commit --hook-type commit-msg';

/** lefthook's configuration files that init edits (YAML), in lefthook's order of lookup. */
export const LEFTHOOK_CONFIGS = ['lefthook.yml', '.lefthook.yml', 'lefthook.yaml', '.lefthook.yaml'] as const;

/** True when a hook file's text is lefthook's stub (it calls `lefthook run <hook>`). */
export function isLefthookHook(text: string | null): boolean {
  return text !== null && /\blefthook\b/.test(text) && /\brun\b/.test(text);
}

/**
 * The lefthook `run:` line for hestai's hook: git's arguments as {1} {2}; pre-push also reads refs on stdin.
 * `hooksDir` null: the global `hestai check <hook>` (no path of this machine in a file the team commits).
 * pre-commit ends in a comment naming `{files}` (see {@link lefthookFilesCommand}).
 */
export function lefthookCommand(hook: HestaiHook, hooksDir: string | null): string {
  const file = `${hooksDir}/${hook}`;
  const quoted = /^[A-Za-z0-9_./-]+$/.test(file) ? file : shellQuote(file);
  // prepare-commit-msg never blocks a commit (see hookCommand).
  if (hook === 'prepare-commit-msg')
    return hooksDir === null
      ? `hestai check ${hook} {1} {2} || true`
      : `[ ! -f ${quoted} ] || node ${quoted} {1} {2} || true`;
  // A dependency missing in this worktree: the one line hookCommand prints, not node's stack.
  const node =
    hooksDir === null
      ? `hestai check ${hook}`
      : path.isAbsolute(hooksDir)
        ? `node ${quoted}`
        : `{ [ -f ${quoted} ] || { echo 'hestai: ${DEPENDENCY_MISSING}' >&2; exit 1; }; } && node ${quoted}`;
  if (hook === 'pre-commit') return `${node} # {files}`;
  return hook === 'commit-msg' ? `${node} {1}` : hook === 'pre-push' ? `${node} {1} {2}` : node;
}

/**
 * The `files:` of hestai's pre-commit command: lefthook skips a pre-commit command that names no file when
 * nothing is staged (`git commit --allow-empty`), unless its `run` names `{files}` and that list is not empty.
 * The list is lefthook's own config file, which exists wherever lefthook runs.
 */
export function lefthookFilesCommand(configName: string): string {
  return `echo ${/^[A-Za-z0-9_.-]+$/.test(configName) ? configName : shellQuote(configName)}`;
}

/** True when lefthook's configuration text runs hestai's hook (its `hooks/<hook>` entrypoint). */
export function lefthookConfigNames(configText: string | null, hook: HestaiHook): boolean {
  return configText !== null && (configText.includes(`hooks/${hook}`) || configText.includes(`hestai check ${hook}`));
}
