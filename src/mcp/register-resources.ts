import type { McpServer } from '@modelcontextprotocol/server';
import { isHestaiError } from '../errors.js';
import type { McpDeps } from './deps.js';
import { formatError } from './result.js';

type Build = (deps: McpDeps) => Promise<unknown>;

/** Resolves the server's working directory (a user error names it and says what to do). */
async function workspaceOf(deps: McpDeps) {
  const { resolveWorkspace } = await import('../workspace.js');
  return resolveWorkspace(deps.cwd).paths;
}

const RESOURCES: ReadonlyArray<{ name: string; uri: string; title: string; description: string; build: Build }> = [
  {
    name: 'session-state',
    uri: 'session://state',
    title: 'Session state',
    description:
      'The current session (HESTAI_SESSION, else the most recently anchored, else the most recent active one): its record, whether it is anchored (tool gating), the age of its context against the freshness threshold, and every active session of this worktree.',
    build: async (deps) => (await import('./resources.js')).sessionState(await workspaceOf(deps), deps),
  },
  {
    name: 'session-checklist',
    uri: 'session://checklist',
    title: 'Session checklist',
    description: 'The FAST-layer checklist (.hestai/context/state/checklist.oct.md, OCTAVE) that clock_in maintains.',
    build: async (deps) => (await import('./resources.js')).sessionChecklist(await workspaceOf(deps)),
  },
  {
    name: 'session-history',
    uri: 'session://history',
    title: 'Session history',
    description: 'Cross-session context: the five most recently archived sessions (.hestai/sessions/archive/), newest first.',
    build: async (deps) => (await import('./resources.js')).sessionHistory(await workspaceOf(deps)),
  },
  {
    name: 'session-violations',
    uri: 'session://violations',
    title: 'Violations and bypasses',
    description:
      'Audit-log entries (.hestai/audit/audit.jsonl) for retrospectives: commit bypasses, stale-context acknowledgments, session take-overs, anchor resets and rule violations.',
    build: async (deps) => (await import('./resources.js')).sessionViolations(await workspaceOf(deps)),
  },
];

/** Registers the four `session://` resources; each is read from disk on every request (never cached). */
export function registerResources(server: McpServer, deps: McpDeps): void {
  for (const resource of RESOURCES) {
    server.registerResource(resource.name, resource.uri, { title: resource.title, description: resource.description, mimeType: 'application/json' }, async (uri) => {
      let body: unknown;
      try {
        body = await resource.build(deps);
      } catch (error) {
        if (isHestaiError(error)) throw new Error(formatError(error));
        deps.log(`hestai mcp: internal error reading ${resource.uri}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        throw error;
      }
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
    });
  }
}
