import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpDeps } from '../deps.js';
import { optionalSessionId, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { okResult } from '../result.js';

/** The tools that refuse until the session is anchored (seed 001 tool gating). */
export const PRIVILEGED_TOOLS = ['clock_out'] as const;

const output = z.object({
  session_id: z.string().nullable().describe('The session checked; null when no session_id was given and there is no active session.'),
  selected_by: z
    .enum(['explicit', 'env', 'anchored', 'recent'])
    .nullable()
    .describe('How the session was chosen: explicit (the session_id argument), env (HESTAI_SESSION), anchored (the most recently anchored live session) or recent (the most recently started one).'),
  unlocked: z.boolean().describe('True only when active/{session_id}/anchor.json holds a valid, untampered anchor of an open session.'),
  code: z
    .string()
    .describe('UNLOCKED, or why not: INVALID_TOKEN, NO_SESSION, NO_ANCHOR, CORRUPT, NOT_VALIDATED, TAMPERED, TOKEN_MISMATCH, SESSION_CLOSED.'),
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
  privileged_tools: z.array(z.string()).describe('The tools this verdict locks or unlocks.'),
});

export function registerAnchorStatus(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'anchor_status',
    {
      title: 'Anchor status (tool gating)',
      description:
        'Is this session anchored? Privileged tools (those that write state beyond the handshake, e.g. clock_out) stay locked until ' +
        'active/{session_id}/anchor.json holds a valid anchor; mode=untracked never unlocks them. Without session_id it checks HESTAI_SESSION, else the ' +
        'most recently anchored live session, else the most recently started one (as the git hooks do). Returns the verdict, the reason and what to do.',
      input: z.object({ working_dir: workingDir, session_id: optionalSessionId }),
      output,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ working_dir, session_id }) => {
      const { resolveWorkspace } = await import('../../workspace.js');
      const { hasValidAnchor, anchorDigest } = await import('../../anchor/record.js');
      const { gateDecision } = await import('../gate.js');
      const { paths } = resolveWorkspace(working_dir, { requireAbsolute: true });
      const { resolveSessionChoice } = await import('../../session/resolve.js');
      const choice = resolveSessionChoice(paths, session_id, deps.env);
      const id = choice?.session_id ?? null;
      const selectedBy = choice?.source ?? null;
      const check = id === null ? ({ valid: false, code: 'NO_SESSION', reason: `no active session in ${paths.active}` } as const) : hasValidAnchor(paths, id);
      const decision = { ...gateDecision(id ?? '', check), session_id: id, selected_by: selectedBy };
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
      const who = id === null ? 'no session' : `session ${id}`;
      const text = decision.unlocked
        ? `${who}: unlocked (anchored as ${anchor!.role}, ${anchor!.tier}, ${anchor!.digest})`
        : `${who}: locked (${decision.code}): ${decision.reason}\nhint: ${decision.remedy}`;
      return okResult({ ...decision, anchor, privileged_tools: [...PRIVILEGED_TOOLS] }, text);
    },
  );
}
