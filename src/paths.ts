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
  /** `.hestai/cache/`: derived data, git-ignored (e.g. the validated config for the hooks). */
  cache: string;
  configCache: string;
}

export function workspacePaths(root: string): WorkspacePaths {
  const hestai = path.join(root, '.hestai');
  const context = path.join(hestai, 'context');
  const state = path.join(context, 'state');
  const sessions = path.join(hestai, 'sessions');
  const audit = path.join(hestai, 'audit');
  const hestaiSys = path.join(root, '.hestai-sys');
  return {
    root,
    workspaceConfig: path.join(root, '.hestai_workspace.yaml'),
    hestai,
    context,
    projectContext: path.join(context, 'PROJECT-CONTEXT.oct.md'),
    contextNegatives: path.join(context, 'CONTEXT-NEGATIVES.oct.md'),
    state,
    currentFocus: path.join(state, 'current-focus.oct.md'),
    currentState: path.join(state, 'current-state.oct.md'),
    checklist: path.join(state, 'checklist.oct.md'),
    blockers: path.join(state, 'blockers.oct.md'),
    sessions,
    pending: path.join(sessions, 'pending'),
    active: path.join(sessions, 'active'),
    archive: path.join(sessions, 'archive'),
    audit,
    auditLog: path.join(audit, 'audit.jsonl'),
    locks: path.join(sessions, '.locks'),
    terminal: path.join(sessions, 'terminal'),
    bindings: path.join(sessions, 'bindings'),
    protocol: path.join(hestai, 'protocol.yaml'),
    hestaiSys,
    agents: path.join(hestaiSys, 'agents'),
    cache: path.join(hestai, 'cache'),
    configCache: path.join(hestai, 'cache', 'config.json'),
  };
}

/** The directory of one pending handshake, by token (= session id). */
export function pendingDir(paths: WorkspacePaths, token: string): string {
  return path.join(paths.pending, token);
}

/** The directory of one active session, by session id (= token). */
export function activeDir(paths: WorkspacePaths, sessionId: string): string {
  return path.join(paths.active, sessionId);
}

/** Workspace-relative path with forward slashes, for messages and JSON. */
export function relativeToRoot(paths: WorkspacePaths, file: string): string {
  return path.relative(paths.root, file).split(path.sep).join('/');
}
