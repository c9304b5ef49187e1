import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { failedResult, okResult } from '../result.js';
import { LIMITS, role, sessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

/** OdysseanAnchorResult (seed 002), every field described. */
const output = z.looseObject({
  validated: z.boolean().describe('Whether the vector passed every rule.'),
  canonical_anchor: z.string().describe('The canonical vector (server ARM, normalised operators); empty when it did not validate.'),
  errors: z.array(z.string()).describe('One line per failed rule.'),
  guidance: z.string().describe('How to fix the vector and retry, with a corrected template.'),
  enforcement: z
    .looseObject({
      status: z.enum(['UNLOCKED', 'LOCKED']).describe('Whether privileged tools and commits are unlocked for the session.'),
      session_id: z.string().describe('The session.'),
      anchor_file: z.string().nullable().describe('Workspace-relative path of anchor.json, when written.'),
      anchor_digest: z.string().nullable().describe('The HestAI-Anchor trailer value, when anchored.'),
      reason: z.string().describe('Why the session is locked or unlocked.'),
    })
    .describe('The gating state after this call.'),
  retry_count: z.number().describe('Failed submissions of this session so far (counted by the server).'),
  terminal: z.boolean().describe('True after the last allowed retry failed: locked until a human runs `hestai anchor reset`.'),
  warnings: z.array(z.string()).describe('Non-blocking remarks.'),
});

export function registerOdysseanAnchor(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'odyssean_anchor',
    {
      title: 'Odyssean Anchor (one-shot RAPH vector)',
      description:
        'One-shot alias of the anchor handshake: submit a whole RAPH v4.0 vector (BIND, ARM, TENSION, COMMIT) for a clocked-in session. ' +
        'The same rules as the staged handshake; the submitted ARM is checked against the server ARM. A pass writes the same anchor.json; ' +
        'a failure is an isError result with errors and guidance, and retries are counted by the server.',
      input: strictInput({
        working_dir: workingDir,
        session_id: sessionId,
        role: role.describe('The role of the session (must match the BIND ROLE).'),
        vector_candidate: z.string().max(LIMITS.vector).describe('The whole ===RAPH_VECTOR::v4.0=== … ===END_RAPH_VECTOR=== block.'),
        tier: z.enum(['quick', 'default', 'deep']).optional().describe('Strictness: quick, default or deep (tensions required: 1, 2, 3).'),
      }),
      output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const { odysseanAnchor } = await import('../../anchor/one-shot.js');
      const { root } = deps.connection.workspace(args.working_dir);
      const result = await odysseanAnchor(args, { clock: deps.clock });
      if (result.validated) deps.connection.bound_(args.session_id, root);
      const lines = [`odyssean_anchor: ${result.validated ? 'validated' : 'NOT validated'} — ${result.enforcement.status} (${result.enforcement.reason})`];
      for (const error of result.errors) lines.push(`  - ${error}`);
      if (!result.validated && result.guidance) lines.push(`guidance: ${result.guidance}`);
      if (result.terminal) lines.push('terminal: this session stays locked until a human runs `hestai anchor reset --token <session_id>`.');
      if (result.validated) lines.push(result.canonical_anchor);
      return result.validated ? okResult(result, lines.join('\n')) : failedResult(result, lines.join('\n'));
    },
  );
}
