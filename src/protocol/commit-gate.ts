import type { WorkspaceConfig } from '../config/schema.js';
import type { WorkspacePaths } from '../paths.js';
import type { SessionRecord } from '../records/session.js';
import { evaluateGate } from './evaluate.js';
import type { GitPrefetch } from './facts.js';
import { hookFacts, openHookRun, type HookGateVerdict, startHookFacts } from './hook-run.js';
import { protocolFromText } from './load.js';
import { unmet } from './machine.js';
import { suggestAction } from './remedy.js';
import { remedyContextFor } from './trust.js';
import { readProtocolState, type ProtocolState } from './store.js';
import { COMPLETE, type Gate, type Protocol } from './types.js';

export type CommitGateVerdict = HookGateVerdict;

/** The current phase and its gates that can refuse a commit (only blocking ones: the others are not judged here). */
function commitGates(protocol: Protocol, state: ProtocolState) {
  // A phase the protocol no longer has: judge from the first phase (the file is the only source).
  const current = protocol.phases.find((p) => p.id === state.current_phase) ?? protocol.phases[0]!;
  return { current, gates: current.gates.filter((gate) => gate.blocking).map((gate) => ({ phase: current.id, gate })) };
}

const prefetchKey = (state: ProtocolState, gates: ReadonlyArray<{ phase: string; gate: Gate }>) =>
  JSON.stringify([state.session_id, state.starting_commit, state.current_phase, gates.map((g) => g.gate)]);

/** The git facts of the commit's protocol check, started early (see {@link startCommitFacts}). */
export interface EarlyCommitFacts {
  key: string;
  facts: Promise<GitPrefetch>;
}

/**
 * Starts the git processes the protocol check will need, before the hook's anchor and freshness checks, so
 * git runs while they do (no await): null whenever that is not possible, and the check then starts them itself. {@link judgeCommitProtocol} uses them only if the run
 * and its gates are still the ones they were started for.
 */
export function startCommitFacts(
  paths: WorkspacePaths,
  config: WorkspaceConfig,
  session: SessionRecord,
  env: NodeJS.ProcessEnv,
  now: Date,
): EarlyCommitFacts | null {
  try {
    const state = readProtocolState(paths, session.session_id);
    const loaded = state === null ? null : protocolFromText(state.protocol_text, paths.protocol);
    if (loaded === null || state === null || state.current_phase === COMPLETE) return null;
    const judged = commitGates(loaded.protocol, state).gates.filter(({ gate }) => gate.pre_commit);
    return {
      key: prefetchKey(state, judged),
      facts: startHookFacts({ paths, config, env, now }, state, judged),
    };
  } catch {
    return null; // the check itself reports what is wrong
  }
}

/**
 * The protocol's pre-commit rule (`protocol.enforce`): the committing session must have a protocol run,
 * and no blocking gate of its current phase may be unmet. Gates that can only hold after the commit
 * (`pre_commit: false`) and command gates are not evaluated here. Reads state, writes nothing; a corrupt
 * state file throws (the hook reports it, exit 2), never a pass. No yaml or zod unless protocol.yaml
 * changed since it was last validated.
 */
export async function judgeCommitProtocol(
  paths: WorkspacePaths,
  config: WorkspaceConfig,
  session: SessionRecord,
  env: NodeJS.ProcessEnv,
  now: Date,
  early: EarlyCommitFacts | null = null,
): Promise<CommitGateVerdict> {
  const run = await openHookRun(paths, session, {
    noProtocol:
      'Run hestai init to install the default protocol, or set protocol.enforce: false in .hestai_workspace.yaml.',
    notStarted: (id) =>
      `hestai session start --session ${id} --objective "..."  (MCP: session_start({"objective":"..."}))`,
  });
  if (!run.ok) return run;
  const { protocol, state } = run;
  if (state.current_phase === COMPLETE) return { ok: true, reason: 'protocol run COMPLETE' };
  const { current, gates } = commitGates(protocol, state);
  const judged = gates.filter(({ gate }) => gate.pre_commit);
  const facts = await hookFacts(
    { paths, config, env, now },
    state,
    judged,
    early !== null && early.key === prefetchKey(state, judged) ? early.facts : undefined,
  );
  const results = gates.map(({ phase: p, gate }) => evaluateGate(p, gate, facts, state.evidence, { preCommit: true }));
  const blocking = results.filter((r) => unmet(r));
  if (blocking.length === 0) return { ok: true, reason: `protocol phase ${current.id}: no blocking gate unmet` };
  const ctx = remedyContextFor(paths, session, env);
  return {
    ok: false,
    code: 'GATE_UNMET',
    reason: `protocol phase ${current.id} has ${blocking.length} unmet blocking gate(s)`,
    unmet: blocking.map((result) => {
      const gate = current.gates.find((g) => g.id === result.gate)!;
      return {
        result,
        cli: suggestAction(current.id, gate, 'cli', ctx),
        mcp: suggestAction(current.id, gate, 'mcp', ctx),
      };
    }),
    remedy:
      'Satisfy the gates above, or advance past them with the protocol (hestai session advance; a forced advance is recorded as a violation).',
  };
}
