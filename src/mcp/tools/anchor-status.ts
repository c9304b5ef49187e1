import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { okResult } from '../result.js';

/**
 * The MCP tools that refuse until the session is anchored (seed 001 tool gating). None of today's: the
 * git hooks gate commits, and clock_out closes the connection's own session anchored or not (issue 14).
 * Tools that write state beyond the handshake add themselves here and call `requireUnlocked`.
 */
export const PRIVILEGED_TOOLS: readonly string[] = [];

const output = z.object({
  session_id: z.string().nullable().describe('The session checked; null when none was named and none fits (code NO_SESSION).'),
  selected_by: z
    .enum(['explicit', 'connection', 'env', 'only'])
    .nullable()
    .describe('How the session was chosen: explicit (the session_id argument), connection (the session this connection clocked in or anchored), env (HESTAI_SESSION of the server) or only (the only live, unpinned session of the worktree).'),
  unlocked: z.boolean().describe('True only when active/{session_id}/anchor.json holds a valid, untampered anchor of an open session.'),
  code: z
    .string()
    .describe('UNLOCKED, or why not: TERMINAL (the handshake is locked until a human resets it: stop retrying), NO_SESSION, NO_ANCHOR, NOT_VALIDATED, TAMPERED, TOKEN_MISMATCH, CORRUPT, SESSION_CLOSED, INVALID_TOKEN.'),
  reason: z.string().describe('One sentence: what was found and where.'),
  remedy: z.string().nullable().describe('What to do to unlock the privileged tools; null when unlocked.'),
  anchor: z
    .object({
      role: z.string().describe('The role the session is bound to.'),
      mode: z.string().describe('full or lite (untracked never writes an anchor).'),
      tier: z.string().describe('The strictness the proof passed: quick, default or deep.'),
      source: z.string().describe('anchor (staged handshake) or odyssean_anchor (one-shot vector).'),
      validated_at: z.string().describe('When the proof passed (ISO-8601).'),
      digest: z.string().describe('sha256: and the first 16 hex digits of the integrity hash (the HestAI-Anchor trailer).'),
    })
    .nullable()
    .describe('The valid anchor, or null.'),
  privileged_tools: z.array(z.string()).describe('The MCP tools this verdict locks or unlocks (commits are gated by the git hooks).'),
});

export function registerAnchorStatus(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'anchor_status',
    {
      title: 'Anchor status (tool gating)',
      description:
        'Is this session anchored? Commits (the git hooks) and privileged tools need a valid anchor (active/{session_id}/anchor.json) and a handshake that is not ' +
        'TERMINAL; mode=untracked never unlocks. TERMINAL means the retry limit was exceeded: stop retrying, a human must reset it. Without session_id it checks the session this connection ' +
        'clocked in or anchored, else the only live unpinned session; with several candidates it refuses and lists them. Returns the verdict, the reason and what to do.',
      input: strictInput({ working_dir: workingDir, session_id: optionalSessionId }),
      output,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ working_dir, session_id }) => {
      const { hasValidAnchor, anchorDigest } = await import('../../records/anchor.js');
      const { gateDecision } = await import('../gate.js');
      const { paths } = deps.connection.workspace(working_dir);
      const { describeRefusal } = await import('../../records/resolve.js');
      const resolution = deps.connection.resolveSession(paths, session_id);
      if (resolution.kind === 'none') {
        // Nothing to check is an answer, not an error: say so, and how to start (or name) a session.
        const refusal = describeRefusal(resolution, paths, 'mcp');
        const noSession = { session_id: null, selected_by: null, unlocked: false, code: 'NO_SESSION', reason: refusal.reason, remedy: refusal.remedy, anchor: null, privileged_tools: [...PRIVILEGED_TOOLS] };
        return okResult(noSession, [`no session: locked (NO_SESSION): ${refusal.reason}`, ...refusal.details.map((d) => `  - ${d}`), `hint: ${refusal.remedy}`].join('\n'));
      }
      const choice = deps.connection.chooseSession(paths, session_id);
      const id = choice.session_id;
      const selectedBy = choice.source;
      const check = hasValidAnchor(paths, id);
      const { handshakeIsTerminal } = await import('../../hooks/handshake.js');
      const decision = { ...gateDecision(id, check, handshakeIsTerminal(paths, id)), session_id: id, selected_by: selectedBy };
      const anchor = check.valid && decision.unlocked
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
      const text = decision.unlocked
        ? `${who}: unlocked (anchored as ${anchor!.role}, ${anchor!.tier}, ${anchor!.digest})`
        : `${who}: locked (${decision.code}): ${decision.reason}\nhint: ${decision.remedy}`;
      return okResult({ ...decision, anchor, privileged_tools: [...PRIVILEGED_TOOLS] }, text);
    },
  );
}
