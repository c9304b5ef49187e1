import { blockedError } from '../errors.js';
import type { WorkspaceConfig } from '../config/schema.js';
import type { WorkspacePaths } from '../paths.js';
import type { McpContext } from './deps.js';
import type { SessionRecord } from '../records/session.js';
import type { HookGateVerdict } from '../protocol/hook-run.js';

/**
 * The tools an agent needs to meet the protocol's start gates, or that only tell it where it stands: never
 * held by the protocol (issue 15, item 5). Every other tool, including any added later, waits for the
 * blocking start gates when the workspace sets `protocol.enforce`.
 */
export const PROTOCOL_OPEN_TOOLS: ReadonlySet<string> = new Set([
  // the binding ceremony (the default protocol's clock_in, anchor gates; clock_in also renews a stale context)
  'clock_in',
  // the decision on a conflict clock_in reported (CI-I5), before anchoring
  'resolve_conflict',
  'anchor',
  'odyssean_anchor',
  // where the session stands
  'anchor_status',
  // the protocol's own tools (session_start opens the run, record_evidence meets evidence gates)
  'session_start',
  'validate_gate',
  'advance_phase',
  'record_evidence',
  'get_blocked_reason',
  'session_end',
]);

/**
 * Gated tools that still serve a session whose handshake is terminal: no tool call can meet its anchor gate
 * then (a human must reset it), so the agent can at least close it (issue 14: clock_out closes a terminal
 * session as unanchored).
 */
const OPEN_WHEN_TERMINAL: ReadonlySet<string> = new Set(['clock_out']);

/**
 * Gated tools that serve a session holding no valid anchor (issue 30): nothing it did can be committed, so
 * the agent may close its own session (clock_out refuses any session but the connection's own).
 */
const OPEN_WHEN_UNANCHORED: ReadonlySet<string> = new Set(['clock_out']);

/** The protocol's verdict on a session's tools (`anchor_status.protocol_gate`). */
export interface ProtocolGate {
  /** Whether `protocol.enforce` is set in the workspace. */
  enforced: boolean;
  /** True when gated tools may run: enforcement off, or every blocking start gate met. */
  unlocked: boolean;
  code: 'OFF' | 'UNLOCKED' | 'NO_PROTOCOL' | 'NOT_STARTED' | 'GATE_UNMET';
  reason: string;
  /** Each unmet blocking start gate and the tool call that satisfies it. */
  unmet: Array<{ gate: string; level: string; step: string; message: string; call: string }>;
  remedy: string | null;
}

/**
 * The protocol's rule for agents on one session (`judgeAgentProtocol`, moment `edit`: the blocking gates of the
 * start-stage phases), or null when `protocol.enforce` is off. Reads, writes nothing; a corrupt protocol
 * state or file throws (the call fails closed), never a pass.
 */
export async function judgeProtocolFor(
  deps: Pick<McpContext, 'env' | 'clock'>,
  paths: WorkspacePaths,
  session: SessionRecord,
  config: WorkspaceConfig,
): Promise<HookGateVerdict | null> {
  if (!config.protocol.enforce) return null;
  const [{ judgeAgentProtocol }, { agentHestaiCommand }] = await Promise.all([
    import('../protocol/agent-gate.js'),
    import('../agent/invocation.js'),
  ]);
  return judgeAgentProtocol(paths, config, session, deps.env, deps.clock(), 'edit', agentHestaiCommand(paths.root));
}

/** Pure: the protocol's verdict (null: not enforced) worded for MCP (`anchor_status.protocol_gate`). */
export function protocolGateOf(
  paths: WorkspacePaths,
  sessionId: string,
  verdict: HookGateVerdict | null,
): ProtocolGate {
  if (verdict === null)
    return {
      enforced: false,
      unlocked: true,
      code: 'OFF',
      reason: 'protocol.enforce is off',
      unmet: [],
      remedy: null,
    };
  if (verdict.ok)
    return { enforced: true, unlocked: true, code: 'UNLOCKED', reason: verdict.reason, unmet: [], remedy: null };
  if (verdict.code === 'NOT_STARTED') {
    const call = `session_start(${JSON.stringify({ working_dir: paths.root, session_id: sessionId, objective: '<your objective>' })})`;
    return {
      enforced: true,
      unlocked: false,
      code: 'NOT_STARTED',
      reason: verdict.reason,
      unmet: [],
      remedy: `start the session protocol: ${call}, then meet its start gates (get_blocked_reason lists them)`,
    };
  }
  return {
    enforced: true,
    unlocked: false,
    code: verdict.code,
    reason: verdict.reason,
    unmet: verdict.unmet.map(({ result, mcp }) => ({
      gate: `${result.phase}/${result.gate}`,
      level: result.requirement_level,
      step: result.step,
      message: result.message,
      call: mcp,
    })),
    remedy:
      verdict.code === 'NO_PROTOCOL'
        ? verdict.remedy
        : 'meet each gate with the tool call named (those tools are never refused), then call the tool again; get_blocked_reason lists the gates',
  };
}

/** The protocol gate for one session ({@link judgeProtocolFor}, worded); null when the session is not active. */
export async function protocolGate(
  deps: Pick<McpContext, 'env' | 'clock'>,
  paths: WorkspacePaths,
  sessionId: string,
  /** The workspace config when the caller already holds it. */
  loaded?: WorkspaceConfig,
): Promise<ProtocolGate | null> {
  const config = loaded ?? (await (await import('../config/load.js')).loadConfig(paths.root, deps.env)).config;
  if (!config.protocol.enforce) return protocolGateOf(paths, sessionId, null);
  const { readSession } = await import('../records/session.js');
  const session = readSession(paths, sessionId);
  if (session === null) return null;
  return protocolGateOf(paths, sessionId, await judgeProtocolFor(deps, paths, session, config));
}

/**
 * The dispatch-path check every tool not in {@link PROTOCOL_OPEN_TOOLS} runs first: refuse (exit 1, code
 * `PROTOCOL_GATE`) while a blocking start gate of the session protocol is unmet, naming each gate and the
 * tool call that satisfies it. Without a session to judge (none chosen, or not active) the tool itself
 * answers, with its own error.
 */
export async function requireProtocolStartGates(
  deps: McpContext,
  tool: string,
  args: { working_dir?: unknown; session_id?: unknown },
): Promise<void> {
  if (PROTOCOL_OPEN_TOOLS.has(tool) || typeof args.working_dir !== 'string') return;
  const { paths } = await deps.connection.workspace(args.working_dir);
  const explicit = typeof args.session_id === 'string' ? args.session_id : undefined;
  const resolution = deps.connection.resolveSession(paths, explicit);
  if (resolution.kind !== 'chosen') return;
  const id = resolution.choice.session_id;
  const gate = await protocolGate(deps, paths, id);
  if (gate === null || gate.unlocked) return;
  if (OPEN_WHEN_UNANCHORED.has(tool)) {
    const { hasValidAnchor } = await import('../records/anchor.js');
    if (!hasValidAnchor(paths, id).valid) return;
  }
  if (OPEN_WHEN_TERMINAL.has(tool)) {
    const { handshakeIsTerminal } = await import('../hooks/handshake.js');
    if (handshakeIsTerminal(paths, id)) return;
  }
  const details =
    gate.code === 'NOT_STARTED'
      ? [`${gate.code}: ${gate.reason}`]
      : gate.unmet.map((u) => `${u.gate} (${u.level}: ${u.step}): ${u.message} → ${u.call}`);
  throw blockedError(`${tool} is refused for session ${id}: ${gate.reason} (protocol.enforce)`, {
    code: 'PROTOCOL_GATE',
    details: details.length > 0 ? details : [`${gate.code}: ${gate.reason}`],
    ...(gate.remedy === null ? {} : { remedy: gate.remedy }),
  });
}
