import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { okResult } from '../result.js';
import { mcpWorded } from '../wording.js';
import type { WorkspacePaths } from '../../paths.js';
import { anchorDigest, hasValidAnchor } from '../../records/anchor.js';
import { readSession } from '../../records/session.js';
import { judgeSessionAct, type ActVerdict } from '../../hooks/session-verdict.js';
import { loadConfig } from '../../config/load.js';
import { gateDecision } from '../gate.js';
import { handshakeIsTerminal } from '../../hooks/handshake.js';
import { judgeProtocolFor, protocolGateOf } from '../protocol-gate.js';
import { describeRefusal } from '../../records/resolve.js';

/**
 * The MCP tools that refuse until the session is anchored (seed 001 tool gating). None of today's: the
 * git hooks gate commits, and clock_out closes the connection's own session anchored or not (issue 14).
 * Tools that write state beyond the handshake add themselves here and refuse with `TOOL_LOCKED` unless
 * `gateDecision` (../gate.ts) unlocks their session.
 */
export const PRIVILEGED_TOOLS: readonly string[] = [];

// Validated on every result; tools/list shows only {type: "object"} (see advertised() in ../schemas.ts), field meanings: docs/mcp.md.
const output = z.object({
  session_id: z.string().nullable(),
  selected_by: z.enum(['explicit', 'connection', 'env', 'only']).nullable(),
  unlocked: z.boolean(),
  code: z.string(),
  reason: z.string(),
  remedy: z.string().nullable(),
  anchor: z
    .object({
      role: z.string(),
      mode: z.string(),
      tier: z.string(),
      source: z.string(),
      validated_at: z.string(),
      digest: z.string(),
    })
    .nullable(),
  privileged_tools: z.array(z.string()),
  // The session protocol's verdict (src/mcp/protocol-gate.ts ProtocolGate, or null without a session; fields in
  // docs/mcp.md "Protocol gating"): untyped here so the ceremony tools stay within 10 KB of tools/list.
  protocol_gate: z.unknown(),
});

/** The hooks' own verdict on session `id` (src/hooks/session-verdict.ts) and the protocol's, from what the connection read. */
async function judgeStatus(deps: McpDeps, paths: WorkspacePaths, id: string) {
  const { config } = await loadConfig(paths.root, deps.env);
  const session = readSession(paths, id);
  const check = hasValidAnchor(paths, id);
  const terminal = handshakeIsTerminal(paths, id, session?.role);
  const judged = session === null ? null : await judgeProtocolFor(deps, paths, session, config);
  const protocol = session === null ? null : protocolGateOf(paths, id, judged);
  // A session no longer active has no anchor to use.
  const closed = { valid: false, code: 'SESSION_CLOSED', reason: `session ${id} is not active` } as const;
  const verdict: ActVerdict =
    session === null
      ? { ok: false, code: 'NO_ANCHOR', anchor: check.valid ? closed : check }
      : await judgeSessionAct(paths, session, config, deps.env, deps.clock(), {
          anchor: check,
          terminal,
          protocol: judged,
        });
  return { check, verdict, protocol };
}

export function registerAnchorStatus(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'anchor_status',
    {
      description:
        'Is your session anchored (commits unlocked)? Returns code, reason, remedy. TERMINAL: retry limit exceeded; stop, a human resets it.',
      input: strictInput({ working_dir: workingDir, session_id: optionalSessionId }),
      output,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ working_dir, session_id }) => {
      const { paths } = await deps.connection.workspace(working_dir);
      const resolution = deps.connection.resolveSession(paths, session_id);
      if (resolution.kind === 'none') {
        // Nothing to check is an answer, not an error: say so, and how to start (or name) a session.
        const refusal = describeRefusal(resolution, paths, 'mcp');
        const noSession = {
          session_id: null,
          selected_by: null,
          unlocked: false,
          code: 'NO_SESSION',
          reason: refusal.reason,
          remedy: refusal.remedy,
          anchor: null,
          privileged_tools: [...PRIVILEGED_TOOLS],
          protocol_gate: null,
        };
        return okResult(
          noSession,
          [
            `no session: locked (NO_SESSION): ${refusal.reason}`,
            ...refusal.details.map((d) => `  - ${d}`),
            `hint: ${refusal.remedy}`,
          ].join('\n'),
        );
      }
      // Several candidates: the refusal listing them (an isError result).
      const choice =
        resolution.kind === 'chosen' ? resolution.choice : deps.connection.chooseSession(paths, session_id);
      const id = choice.session_id;
      const selectedBy = choice.source;
      const { check, verdict, protocol } = await judgeStatus(deps, paths, id);
      const decision = {
        ...gateDecision(id, verdict),
        session_id: id,
        selected_by: selectedBy,
      };
      const anchor = check.valid
        ? {
            role: check.anchor.role,
            mode: check.anchor.mode,
            tier: check.anchor.tier,
            source: check.anchor.source,
            validated_at: check.anchor.validated_at,
            digest: anchorDigest(check.anchor),
          }
        : null;
      const who = `session ${id}`;
      const lines = [
        decision.unlocked && anchor !== null
          ? `${who}: unlocked (anchored as ${anchor.role}, ${anchor.tier}, ${anchor.digest})`
          : `${who}: locked (${decision.code}): ${decision.reason}\nhint: ${decision.remedy}`,
      ];
      if (protocol !== null && !protocol.unlocked) {
        lines.push(
          `session protocol: tools other than the ceremony's and the protocol's wait (${protocol.code}): ${protocol.reason}`,
        );
        for (const u of protocol.unmet) lines.push(`  - ${u.gate} (${u.level}: ${u.step}) → ${u.call}`);
        if (protocol.remedy !== null) lines.push(`hint: ${protocol.remedy}`);
      }
      return mcpWorded(
        okResult(
          { ...decision, anchor, privileged_tools: [...PRIVILEGED_TOOLS], protocol_gate: protocol },
          lines.join('\n'),
        ),
      );
    },
  );
}
