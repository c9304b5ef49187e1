import type { McpServer } from '@modelcontextprotocol/server';
import type { WorkspacePaths } from '../paths.js';
import { isHestaiError } from '../errors.js';
import type { McpContext as McpDeps } from './deps.js';
import { formatError } from './result.js';

type Build = (deps: McpDeps, paths: WorkspacePaths) => Promise<unknown>;

/**
 * The workspace a resource reads: the worktree of the connection's session, else the last working_dir a
 * tool was given, else the server's start directory (see Connection.resourceWorkspace). Cached per
 * connection; a user error names the directory and says what to do.
 */
export function workspaceOf(deps: McpDeps): WorkspacePaths {
  return deps.connection.resourceWorkspace().paths;
}

const RESOURCES: ReadonlyArray<{ name: string; uri: string; title: string; description: string; build: Build }> = [
  {
    name: 'session-state',
    uri: 'session://state',
    title: 'Session state',
    description:
      'The session of this connection (the one it clocked in or anchored, else the only live unpinned one) in the repository it works in: its record, whether it is anchored (tool gating), the age of its context against the freshness threshold, and every active session of that worktree.',
    build: async (deps, paths) => (await import('./resources.js')).sessionState(paths, deps, deps.connection.resolveSession(paths, undefined)),
  },
  {
    name: 'session-checklist',
    uri: 'session://checklist',
    title: 'Session checklist',
    description: 'The FAST-layer checklist (.hestai/context/state/checklist.oct.md, OCTAVE) that clock_in maintains.',
    build: async (_deps, paths) => (await import('./resources.js')).sessionChecklist(paths),
  },
  {
    name: 'session-history',
    uri: 'session://history',
    title: 'Session history',
    description: 'Cross-session context: the five most recently archived sessions (.hestai/sessions/archive/), newest first.',
    build: async (_deps, paths) => (await import('./resources.js')).sessionHistory(paths),
  },
  {
    name: 'session-violations',
    uri: 'session://violations',
    title: 'Violations and bypasses',
    description:
      'Audit-log entries (.hestai/audit/audit.jsonl) for retrospectives: commit bypasses, stale-context acknowledgments, session take-overs, anchor resets and rule violations.',
    build: async (_deps, paths) => (await import('./resources.js')).sessionViolations(paths),
  },
];

/** Registers the four `session://` resources; each is read from disk on every request (never cached). */
export function registerResources(server: McpServer, deps: McpDeps): void {
  for (const resource of RESOURCES) {
    server.registerResource(resource.name, resource.uri, { title: resource.title, description: resource.description, mimeType: 'application/json' }, async (uri) => {
      let body: unknown;
      try {
        const paths = workspaceOf(deps);
        // Every document names the repository it was read from: never silently another one.
        body = { working_dir: paths.root, ...((await resource.build(deps, paths)) as object) };
      } catch (error) {
        if (isHestaiError(error)) throw new Error(formatError(error));
        deps.log(`hestai mcp: internal error reading ${resource.uri}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        throw error;
      }
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
    });
  }
}
