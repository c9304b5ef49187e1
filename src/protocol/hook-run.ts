import type { WorkspaceConfig } from '../config/schema.js';
import type { WorkspacePaths } from '../paths.js';
import type { SessionRecord } from '../records/session.js';
import type { GateResult } from './evaluate.js';
import { factsOf, prefetchGitFacts } from './facts.js';
import { loadProtocol, protocolFromText } from './load.js';
import { readProtocolState, type ProtocolState } from './store.js';
import type { Gate, Protocol } from './types.js';

/** What a hook-side protocol check refuses with before any gate is judged, or the run it judges. */
export type HookRefusal = {
  ok: false;
  code: 'NO_PROTOCOL' | 'NOT_STARTED';
  reason: string;
  unmet: never[];
  remedy: string;
};

/** A hook-side protocol check's verdict (pre-commit, agent runtimes): each unmet gate with the CLI and MCP call that fixes it. */
export type HookGateVerdict =
  | { ok: true; reason: string }
  | {
      ok: false;
      code: 'NO_PROTOCOL' | 'NOT_STARTED' | 'GATE_UNMET';
      reason: string;
      unmet: Array<{ result: GateResult; cli: string; mcp: string }>;
      remedy: string;
    };

/**
 * The session's protocol run as the hooks (pre-commit, agent runtimes) see it: the protocol file and the
 * session's state, or the refusal when either is missing. Each caller words the remedy for its audience.
 * Reads state, writes nothing; a corrupt state file throws (fail closed), never a pass.
 */
export async function openHookRun(
  paths: WorkspacePaths,
  session: SessionRecord,
  remedies: { noProtocol: string; notStarted: (sessionId: string) => string },
): Promise<HookRefusal | { ok: true; protocol: Protocol; state: ProtocolState }> {
  const id = session.session_id;
  const state = readProtocolState(paths, id);
  // A run is judged by the protocol it started with (sealed in the run file), never by a later edit.
  if (state !== null)
    return { ok: true, protocol: (await protocolFromText(state.protocol_text, paths.protocol)).protocol, state };
  if ((await loadProtocol(paths)) === null)
    return {
      ok: false,
      code: 'NO_PROTOCOL',
      reason: `protocol.enforce is on but ${paths.protocol} does not exist`,
      unmet: [],
      remedy: remedies.noProtocol,
    };
  return {
    ok: false,
    code: 'NOT_STARTED',
    reason: `session ${id} has not started the session protocol (protocol.enforce is on)`,
    unmet: [],
    remedy: remedies.notStarted(id),
  };
}

/**
 * The facts of `gates` for a hook: command checks are never run there (their recorded results count); the
 * git processes the gates need run concurrently.
 */
export async function hookFacts(
  input: { paths: WorkspacePaths; config: WorkspaceConfig; env: NodeJS.ProcessEnv; now: Date },
  state: ProtocolState,
  gates: ReadonlyArray<{ phase: string; gate: Gate }>,
): Promise<ReturnType<typeof factsOf>> {
  const gather = hookGather(input, state, gates);
  return factsOf(gather, await prefetchGitFacts(gather));
}

function hookGather(
  input: { paths: WorkspacePaths; config: WorkspaceConfig; env: NodeJS.ProcessEnv; now: Date },
  state: ProtocolState,
  gates: ReadonlyArray<{ phase: string; gate: Gate }>,
) {
  return {
    ...input,
    session_id: state.session_id,
    started_at: state.started_at,
    starting_commit: state.starting_commit,
    gates: gates.filter(({ gate }) => gate.check.type !== 'command'),
    evidence: state.evidence,
    runCommands: false,
    recorded: state.results,
    baseline: state.baseline,
  };
}
