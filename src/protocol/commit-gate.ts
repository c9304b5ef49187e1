import type { WorkspaceConfig } from '../config/schema.js';
import type { WorkspacePaths } from '../paths.js';
import type { SessionRecord } from '../records/session.js';
import { evaluateGate } from './evaluate.js';
import { hookFacts, openHookRun, type HookGateVerdict } from './hook-run.js';
import { unmet } from './machine.js';
import { suggestAction } from './remedy.js';
import { remedyContextFor } from './trust.js';
import type { ProtocolState } from './store.js';
import { COMPLETE, type Protocol } from './types.js';

export type CommitGateVerdict = HookGateVerdict;

/** The current phase and its gates that can refuse a commit (only blocking ones: the others are not judged here). */
function commitGates(protocol: Protocol, state: ProtocolState) {
  // A phase the protocol no longer has: judge from the first phase (the file is the only source).
  const current = protocol.phases.find((p) => p.id === state.current_phase) ?? protocol.phases[0]!;
  return { current, gates: current.gates.filter((gate) => gate.blocking).map((gate) => ({ phase: current.id, gate })) };
}

/**
 * The protocol's pre-commit rule (`protocol.enforce`): the committing session must have a protocol run,
 * and no blocking gate of its current phase may be unmet. Gates that can only hold after the commit
 * (`pre_commit: false`) and command gates are not evaluated here. Reads state, writes nothing; a corrupt
 * state file throws (the hook reports it, exit 2), never a pass.
 */
export async function judgeCommitProtocol(
  paths: WorkspacePaths,
  config: WorkspaceConfig,
  session: SessionRecord,
  env: NodeJS.ProcessEnv,
  now: Date,
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
  const facts = await hookFacts({ paths, config, env, now }, state, judged);
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
