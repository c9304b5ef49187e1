import type { WorkspaceConfig } from '../config/schema.js';
import type { WorkspacePaths } from '../paths.js';
import type { SessionRecord } from '../records/session.js';
import { evaluateGate } from './evaluate.js';
import { hookFacts, openHookRun, type HookGateVerdict } from './hook-run.js';
import { blockedUntil, unmet } from './machine.js';
import { suggestAction } from './remedy.js';
import { remedyContextFor } from './trust.js';
import { COMPLETE, type Gate, type Phase, type Protocol } from './types.js';

/** When an agent runtime asks: before a file-changing tool call (`edit`), or when the agent stops (`stop`). */
export type AgentMoment = 'edit' | 'stop';

export type AgentGateVerdict = HookGateVerdict;

/**
 * Pure: the gates an agent-runtime hook holds the agent to (`protocol.enforce`). Before an edit: the
 * blocking gates of the `start`-stage phases (the binding ceremony comes before work: the seed's
 * `blocked_until`, `blockedUntil`). When the agent stops: every MUST gate of the `end`-stage phases (the
 * end duties), post-commit checks included, command checks by their recorded result (a hook never runs
 * them).
 */
export function agentGates(protocol: Protocol, moment: AgentMoment): Array<{ phase: Phase; gate: Gate }> {
  const [stage, wanted] =
    moment === 'edit'
      ? (['start', (g: Gate) => g.blocking] as const)
      : (['end', (g: Gate) => g.level === 'MUST'] as const);
  return protocol.phases
    .filter((p) => p.stage === stage)
    .flatMap((phase) => phase.gates.filter(wanted).map((gate) => ({ phase, gate })));
}

/**
 * The protocol's rule for agent runtimes (see `agentGates`): the session must have a protocol run, and
 * none of the gates of the moment may be unmet. Reads state, writes nothing; a corrupt state file throws
 * (the hook fails closed), never a pass. The run's sealed protocol text is parsed and validated on every call.
 */
export async function judgeAgentProtocol(
  paths: WorkspacePaths,
  config: WorkspaceConfig,
  session: SessionRecord,
  env: NodeJS.ProcessEnv,
  now: Date,
  moment: AgentMoment,
  /** How this project calls hestai (`npx hestai` in a local install: src/agent/invocation.ts). */
  cli = 'hestai',
): Promise<AgentGateVerdict> {
  const run = await openHookRun(paths, session, {
    noProtocol: `ask a human to run ${cli} init (it installs the default protocol) or to set protocol.enforce: false`,
    notStarted: (id) =>
      `call the MCP tool session_start with ${JSON.stringify({ working_dir: paths.root, session_id: id, objective: '...' })} — or run ${cli} session start --session ${id} --objective "..."`,
  });
  if (!run.ok) return run;
  const { protocol, state } = run;
  const id = session.session_id;
  if (state.current_phase === COMPLETE) return { ok: true, reason: 'protocol run COMPLETE' };
  const gates = agentGates(protocol, moment).map(({ phase, gate }) => ({ phase: phase.id, gate }));
  if (gates.length === 0)
    return { ok: true, reason: `protocol phase ${state.current_phase}: nothing to hold the agent to` };
  const facts = await hookFacts({ paths, config, env, now }, state, gates);
  const results = gates.map(({ phase, gate }) => ({
    gate,
    result: evaluateGate(phase, gate, facts, state.evidence, { preCommit: moment === 'edit' }),
  }));
  const open = results.filter(
    ({ result }) => unmet(result) && (moment === 'stop' || blockedUntil(protocol, [result]).length > 0),
  );
  if (open.length === 0)
    return {
      ok: true,
      reason: `protocol phase ${state.current_phase}: the ${moment === 'edit' ? 'start' : 'end'} gates are met`,
    };
  const ctx = remedyContextFor(paths, session, env, cli);
  return {
    ok: false,
    code: 'GATE_UNMET',
    reason:
      moment === 'edit'
        ? `the session protocol has ${open.length} unmet blocking start gate(s) (blocked until ${blockedUntil(
            protocol,
            open.map((o) => o.result),
          ).join(', ')})`
        : `${open.length} MUST end gate(s) of the session protocol are unmet`,
    unmet: open.map(({ gate, result }) => ({
      result,
      cli: suggestAction(result.phase, gate, 'cli', ctx),
      mcp: suggestAction(result.phase, gate, 'mcp', ctx),
    })),
    remedy:
      moment === 'edit'
        ? `satisfy them, then advance: ${cli} session advance --session ${id} (MCP advance_phase(${JSON.stringify({ working_dir: paths.root, session_id: id })}))`
        : `do them before you finish, or say why you cannot (${cli} session blocked --session ${id} / MCP get_blocked_reason(${JSON.stringify({ working_dir: paths.root, session_id: id })}))`,
  };
}
