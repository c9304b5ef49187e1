import type { McpServer } from '@modelcontextprotocol/server';
import type { Workspace } from '../workspace.js';
import type { WorkspacePaths } from '../paths.js';
import { isHestaiError } from '../errors.js';
import type { McpContext as McpDeps } from './deps.js';
import { formatError } from './result.js';

type Build = (deps: McpDeps, workspace: Workspace) => Promise<unknown>;

/**
 * The workspace a resource reads: the worktree of the connection's session, else the last working_dir a
 * tool was given, else the server's start directory (see Connection.resourceWorkspace). Cached per
 * connection; a user error names the directory and says what to do.
 */
export function workspaceOf(deps: McpDeps): Promise<Workspace> {
  return deps.connection.resourceWorkspace();
}

const protocolViews = () => import('../protocol/views.js');
const protocolOperations = () => import('../protocol/operations.js');

/** The connection's session in this worktree (its own, else the only live unpinned one), or null. */
function connectionSession(deps: McpDeps, paths: WorkspacePaths): string | null {
  const resolution = deps.connection.resolveSession(paths, undefined);
  return resolution.kind === 'chosen' ? resolution.choice.session_id : null;
}

const RESOURCES: ReadonlyArray<{ name: string; uri: string; title: string; description: string; build: Build }> = [
  // Seed 004: the session protocol run (see "Session protocol" in the README).
  {
    name: 'session-state',
    uri: 'session://state',
    title: 'Session protocol state',
    description:
      "The protocol run of this connection's session (the one it clocked in or anchored, else the only live unpinned one): objective, branch, starting commit, current phase, phases completed, checklist, evidence and violations; a hint when there is no run.",
    build: async (deps, workspace) =>
      (await protocolViews()).stateResource(workspace, connectionSession(deps, workspace.paths), deps),
  },
  {
    name: 'session-checklist',
    uri: 'session://checklist',
    title: 'Session protocol checklist',
    description:
      'The RFC 2119 start, work and end lists of .hestai/protocol.yaml, each step with its level, status ("x" or " ") and evidence.',
    build: async (deps, workspace) =>
      (await protocolViews()).checklistResource(workspace, connectionSession(deps, workspace.paths), deps),
  },
  {
    name: 'session-history',
    uri: 'session://history',
    title: 'Session protocol history',
    description:
      'The last 5 completed protocol runs (newest first): objective, outcome, commit, key decisions, next-session notes.',
    build: async (_deps, workspace) => (await protocolOperations()).sessionHistory(workspace, 5),
  },
  {
    name: 'session-violations',
    uri: 'session://violations',
    title: 'Protocol violations',
    description:
      'Every requirement skipped by a forced advance_phase: session, time, phase, requirement, severity, recovery.',
    build: async (_deps, workspace) => (await protocolOperations()).sessionViolations(workspace),
  },
  // The clock-in and anchor views that session:// showed before the protocol existed, unchanged.
  {
    name: 'hestai-session-current',
    uri: 'hestai://session/current',
    title: 'Current session',
    description:
      'The session of this connection (the one it clocked in or anchored, else the only live unpinned one) in the repository it works in: its record, whether it is anchored (tool gating), the age of its context against the freshness threshold, and every active session of that worktree.',
    build: async (deps, { paths }) =>
      (await import('./resources.js')).sessionState(paths, deps, deps.connection.resolveSession(paths, undefined)),
  },
  {
    name: 'hestai-context-checklist',
    uri: 'hestai://context/checklist',
    title: 'FAST-layer checklist',
    description: 'The FAST-layer checklist (.hestai/context/state/checklist.oct.md, OCTAVE) that clock_in maintains.',
    build: async (_deps, { paths }) => (await import('./resources.js')).sessionChecklist(paths),
  },
  {
    name: 'hestai-session-archive',
    uri: 'hestai://session/archive',
    title: 'Archived sessions',
    description:
      'Cross-session context: the five most recently archived sessions (.hestai/sessions/archive/), newest first.',
    build: async (_deps, { paths }) => (await import('./resources.js')).sessionHistory(paths),
  },
  {
    name: 'hestai-audit',
    uri: 'hestai://audit',
    title: 'Audit log: violations and bypasses',
    description:
      'Audit-log entries (.hestai/audit/audit.jsonl) for retrospectives: commit bypasses, stale-context acknowledgments, session take-overs, anchor resets and rule violations.',
    build: async (_deps, { paths }) => (await import('./resources.js')).sessionViolations(paths),
  },
];

/** Registers the `session://` (protocol) and `hestai://` (clock-in, anchor, audit) resources; each is read from disk on every request (never cached). */
export function registerResources(server: McpServer, deps: McpDeps): void {
  for (const resource of RESOURCES) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: 'application/json' },
      async (uri) => {
        let body: unknown;
        try {
          await deps.connection.rootsSettled(); // the client's roots, when it declared some (client-roots.ts)
          const workspace = await workspaceOf(deps);
          // Every document names the repository it was read from: never silently another one.
          body = { working_dir: workspace.root, ...((await resource.build(deps, workspace)) as object) };
        } catch (error) {
          if (isHestaiError(error)) throw new Error(formatError(error));
          deps.log(
            `hestai mcp: internal error reading ${resource.uri}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
          throw error;
        }
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
      },
    );
  }
}
