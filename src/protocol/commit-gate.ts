import type { WorkspaceConfig } from '../config/schema.js';
import type { WorkspacePaths } from '../paths.js';
import type { SessionRecord } from '../records/session.js';
import { evaluateGate, type GateResult } from './evaluate.js';
import { hookFacts, openHookRun } from './hook-run.js';
import { unmet } from './machine.js';
import { suggestAction } from './remedy.js';
import { commandTrust } from './trust.js';
import { COMPLETE } from './types.js';

export type CommitGateVerdict =
  | { ok: true; reason: string }
  | {
      ok: false;
      code: 'NO_PROTOCOL' | 'NOT_STARTED' | 'GATE_UNMET';
      reason: string;
      unmet: Array<{ result: GateResult; cli: string; mcp: string }>;
      remedy: string;
    };

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
): Promise<CommitGateVerdict> {
  const run = await openHookRun(paths, session, {
    noProtocol:
      'Run hestai init to install the default protocol, or set protocol.enforce: false in .hestai_workspace.yaml.',
    notStarted: (id) =>
      `hestai session start --session ${id} --objective "..."  (MCP: session_start({"objective":"..."}))`,
  });
  if (!run.ok) return run;
  const { protocol, state } = run;
  const id = session.session_id;
  if (state.current_phase === COMPLETE) return { ok: true, reason: 'protocol run COMPLETE' };
  const phase = protocol.phases.find((p) => p.id === state.current_phase);
  // A phase the protocol no longer has: judge from the first phase (the file is the only source).
  const current = phase ?? protocol.phases[0]!;
  // Only a blocking gate can refuse the commit: the others are neither gathered nor judged here.
  const gates = current.gates.filter((gate) => gate.blocking).map((gate) => ({ phase: current.id, gate }));
  const facts = await hookFacts(
    { paths, config, env, now },
    state,
    gates.filter(({ gate }) => gate.pre_commit),
  );
  const results = gates.map(({ phase: p, gate }) => evaluateGate(p, gate, facts, state.evidence, { preCommit: true }));
  const blocking = results.filter((r) => unmet(r));
  if (blocking.length === 0) return { ok: true, reason: `protocol phase ${current.id}: no blocking gate unmet` };
  const trusted = commandTrust(paths.root, env).trusted;
  const ctx = { session_id: id, role: session.role, trusted };
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
