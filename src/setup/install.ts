/** Pure pieces of hook installation: the lines init writes and how they join existing hook files. */
import { shellQuote } from '../util/quote.js';

/** The hooks hestai installs: the two commit gates, and pre-push, which publishes the anchor proof records. */
export const HESTAI_HOOKS = ['pre-commit', 'commit-msg', 'pre-push'] as const;
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
  return `node ${/^[A-Za-z0-9_./-]+$/.test(file) ? file : shellQuote(file)} "$@" || exit $?`;
}

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
