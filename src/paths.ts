import path from 'node:path';

/**
 * The on-disk layout of docs/design.md §3, for one worktree root. Every module asks here for a path instead
 * of joining strings itself.
 */
export interface WorkspacePaths {
  root: string;
  workspaceConfig: string;
  hestai: string;
  context: string;
  projectContext: string;
  contextNegatives: string;
  state: string;
  currentFocus: string;
  currentState: string;
  checklist: string;
  blockers: string;
  sessions: string;
  pending: string;
  active: string;
  archive: string;
  audit: string;
  auditLog: string;
  locks: string;
  /** `.hestai/sessions/terminal/{role}.json`: roles locked after a terminal handshake, until `hestai anchor reset`. */
  terminal: string;
  /** `.hestai/sessions/bindings/{runtime}/`: which hestai session each agent-runtime session is bound to. */
  bindings: string;
  protocol: string;
  hestaiSys: string;
  agents: string;
}

let last: WorkspacePaths | null = null;

/**
 * The layout for `root`. A hook asks for it several times per run, and a cold `path.join` costs microseconds
 * (a few hundred of them add up to milliseconds, with a JIT tier-up on top): the last root's layout is handed
 * out again (frozen), and below the three joins from the root every path is its parent plus a separator and a
 * plain name, which is what path.join gives for a normalized parent that does not end in a separator.
 */
export function workspacePaths(root: string): WorkspacePaths {
  if (last !== null && last.root === root) return last;
  const under = (dir: string, ...names: string[]) => `${dir}${path.sep}${names.join(path.sep)}`;
  const hestai = path.join(root, '.hestai');
  const context = under(hestai, 'context');
  const state = under(context, 'state');
  const sessions = under(hestai, 'sessions');
  const audit = under(hestai, 'audit');
  const hestaiSys = path.join(root, '.hestai-sys');
  last = Object.freeze({
    root,
    workspaceConfig: path.join(root, '.hestai_workspace.yaml'),
    hestai,
    context,
    projectContext: under(context, 'PROJECT-CONTEXT.oct.md'),
    contextNegatives: under(context, 'CONTEXT-NEGATIVES.oct.md'),
    state,
    currentFocus: under(state, 'current-focus.oct.md'),
    currentState: under(state, 'current-state.oct.md'),
    checklist: under(state, 'checklist.oct.md'),
    blockers: under(state, 'blockers.oct.md'),
    sessions,
    pending: under(sessions, 'pending'),
    active: under(sessions, 'active'),
    archive: under(sessions, 'archive'),
    audit,
    auditLog: under(audit, 'audit.jsonl'),
    locks: under(sessions, '.locks'),
    terminal: under(sessions, 'terminal'),
    bindings: under(sessions, 'bindings'),
    protocol: under(hestai, 'protocol.yaml'),
    hestaiSys,
    agents: under(hestaiSys, 'agents'),
  });
  return last;
}

/** The directory of one pending handshake, by token (= session id). */
export function pendingDir(paths: WorkspacePaths, token: string): string {
  return path.join(paths.pending, token);
}

/** The directory of one active session, by session id (= token). */
export function activeDir(paths: WorkspacePaths, sessionId: string): string {
  return path.join(paths.active, sessionId);
}

/**
 * Pure: `target` relative to `root` with forward slashes (`.` for the root itself), or null when it lies
 * outside. The one definition of "inside" (issue 27): only a `..` segment leaves, so `..x.js` is a file in
 * the root. Paths compare as given; where a symlink must not lead out, pass the real paths of both.
 */
export function pathInside(root: string, target: string): string | null {
  const rel = path.relative(root, target);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/**
 * Pure: a path cited relative to the working directory (an anchor's CTX or ARTIFACT path), judged by its
 * text before anything is looked up: an absolute form (`/`, `\\`, a drive, `~`) or any `..` segment is
 * refused (`..x` is a name, not a parent); else the path as git names it in a tree (no `.` segment, no empty
 * one: `./src//a.ts` is `src/a.ts`), which {@link pathInside} then finds inside the root (tested as a
 * property). Symlinks are the probe's to resolve.
 */
export function citedPath(p: string): { rel: string } | { outside: 'absolute' | 'parent' } {
  if (p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('~'))
    return { outside: 'absolute' };
  if (p.split(/[\\/]/).includes('..')) return { outside: 'parent' };
  // The name git gives it in a tree (`<commit>:src/a.ts`; `src//a.ts` and `src/./a.ts` name nothing there).
  return {
    rel: p
      .split('/')
      .filter((s) => s !== '' && s !== '.')
      .join('/'),
  };
}

/** Pure: `target` is `root` or below it (`pathInside`). */
export function isInside(root: string, target: string): boolean {
  return pathInside(root, target) !== null;
}

/** Workspace-relative path with forward slashes, for messages and JSON. */
export function relativeToRoot(paths: WorkspacePaths, file: string): string {
  return path.relative(paths.root, file).split(path.sep).join('/');
}

/**
 * The files `hestai init` writes into the worktree in any of its modes (relative, `/`-separated): the
 * workspace config, the human context, the protocol, the role constitutions, `.gitignore`, husky's hook
 * files, lefthook's configuration, `.mcp.json` and the agent runtimes' hook files. An adoption commit holds
 * only these (`hestai init --commit`; `hestai verify` recognizes it, src/verify/adoption.ts).
 */
const ADOPTION_FILE =
  /^(?:\.hestai_workspace\.yaml|\.gitignore|\.hestai\/context\/PROJECT-CONTEXT\.oct\.md|\.hestai\/protocol\.yaml|\.hestai-sys\/agents\/[^/]+\.oct\.md|\.husky\/(?:pre-commit|commit-msg|pre-push)|\.?lefthook\.ya?ml|\.mcp\.json|\.claude\/settings\.json|\.codex\/hooks\.json|\.gemini\/settings\.json|\.cursor\/hooks\.json|\.(?:opencode|kilo)\/plugins\/hestai\.js|(?:opencode|kilo)\.json|\.clinerules\/hooks\/PreToolUse)$/;

/** True when `file` (relative to the worktree root, `/`-separated) is one `hestai init` writes. */
export function isAdoptionFile(file: string): boolean {
  return ADOPTION_FILE.test(file);
}

/** The workspace config, relative to the worktree root (what `hestai verify` reads at a commit). */
export const WORKSPACE_CONFIG_FILE = '.hestai_workspace.yaml';
