import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { failedResult, okResult } from '../result.js';
import { LIMITS, role, sessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

/** OdysseanAnchorResult (seed 002), every field described. */
// Validated on every result; tools/list shows only {type: "object"} (see advertised() in ../schemas.ts), field meanings: docs/mcp.md.
const output = z.looseObject({
  validated: z.boolean(),
  canonical_anchor: z.string(),
  errors: z.array(z.string()),
  guidance: z.string(),
  enforcement: z.looseObject({ status: z.enum(['UNLOCKED', 'LOCKED']), session_id: z.string(), reason: z.string() }),
  retry_count: z.number(),
  terminal: z.boolean(),
});

export function registerOdysseanAnchor(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'odyssean_anchor',
    {
      description:
        'Alternative to anchor: a whole RAPH v4.0 vector (BIND, ARM, TENSION, COMMIT) at once; same rules, retry limit and anchor.',
      input: strictInput({
        working_dir: workingDir,
        session_id: sessionId,
        role: role.describe('= BIND ROLE.'),
        vector_candidate: z.string().max(LIMITS.vector).describe('The ===RAPH_VECTOR::v4.0=== block.'),
        tier: z.enum(['quick', 'default', 'deep']).optional().describe('Default: default.'),
      }),
      output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const { odysseanAnchor } = await import('../../anchor/one-shot.js');
      const { root } = await deps.connection.workspace(args.working_dir);
      deps.connection.requireOwned(args.session_id, 'odyssean_anchor');
      const result = await odysseanAnchor(args, { clock: deps.clock });
      if (result.validated) deps.connection.bound_(args.session_id, root);
      const lines = [
        `odyssean_anchor: ${result.validated ? 'validated' : 'NOT validated'} — ${result.enforcement.status} (${result.enforcement.reason})`,
      ];
      for (const error of result.errors) lines.push(`  - ${error}`);
      if (!result.validated && result.guidance) lines.push(`guidance: ${result.guidance}`);
      if (result.terminal)
        lines.push(
          'terminal: this session stays locked until a human runs `hestai anchor reset --token <session_id>`.',
        );
      if (result.validated) lines.push(result.canonical_anchor);
      return result.validated ? okResult(result, lines.join('\n')) : failedResult(result, lines.join('\n'));
    },
  );
}
