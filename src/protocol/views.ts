import { loadProtocol } from './load.js';
import { buildChecklist } from './machine.js';
import { sessionState, type ProtocolDeps, type StateView } from './operations.js';
import { readProtocolState } from './store.js';
import type { Workspace } from '../workspace.js';

/**
 * The `session://state` and `session://checklist` resources of seed 004 (history and violations are
 * operations.ts's sessionHistory and sessionViolations), as documents that never fail for an ordinary reason:
 * without a session or a protocol run they say so and what to call next. Each takes the workspace the
 * caller already resolved and validated (the MCP connection caches it), so a read starts no git process
 * of its own.
 */
type Choice = { session_id: string | null; run: boolean };

/** `sessionId`: the session the caller chose (the MCP connection's), or null when none fits. */
function choose({ paths }: Workspace, id: string | null): Choice {
  return { session_id: id, run: id !== null && readProtocolState(paths, id) !== null };
}

const hint = (c: Choice) =>
  c.session_id === null
    ? 'No session of this connection: call clock_in (or pass HESTAI_SESSION), then session_start.'
    : `Session ${c.session_id} has no protocol run: call session_start with its objective.`;

/** `session://state`: objective, branch, starting commit, current phase, phases completed, checklist, evidence, violations. */
export async function stateResource(
  workspace: Workspace,
  sessionId: string | null,
  deps: ProtocolDeps,
): Promise<StateView | { session_id: string | null; current_phase: null; hint: string }> {
  const c = choose(workspace, sessionId);
  if (!c.run) return { session_id: c.session_id, current_phase: null, hint: hint(c) };
  return sessionState({ working_dir: workspace.root, session_id: c.session_id! }, deps);
}

/** `session://checklist`: the RFC 2119 start and end lists with status and evidence (the protocol's, all pending, without a run). */
export async function checklistResource(
  workspace: Workspace,
  sessionId: string | null,
  deps: ProtocolDeps,
): Promise<Record<string, unknown>> {
  const c = choose(workspace, sessionId);
  if (c.run)
    return {
      session_id: c.session_id,
      ...(await sessionState({ working_dir: workspace.root, session_id: c.session_id! }, deps)).checklist,
    };
  const loaded = await loadProtocol(workspace.paths);
  const empty = loaded ? buildChecklist(loaded.protocol, []) : { start: [], work: [], end: [] };
  return { session_id: c.session_id, ...empty, hint: loaded ? hint(c) : 'No .hestai/protocol.yaml: run hestai init.' };
}
