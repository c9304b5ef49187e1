import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

// Validated on every result; tools/list shows only {type: "object"} (see advertised() in ../schemas.ts), field meanings: docs/mcp.md.
const output = z.looseObject({
  session_id: z.string(),
  action: z.enum(['takeover', 'abort']),
  taken_over: z.array(z.looseObject({ existing_session_id: z.string(), relation: z.string() })),
  archive_path: z.string().nullable(),
});

/** CI-I5: the decision after clock_in reported a conflict (continuing needs no call). */
export function registerResolveConflict(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'resolve_conflict',
    {
      description: 'After clock_in reports a conflict: takeover (they become STALE) or abort (withdraw yours).',
      input: strictInput({
        working_dir: workingDir,
        session_id: optionalSessionId,
        action: z.enum(['takeover', 'abort']).describe('Your decision.'),
      }),
      output,
      // takeover rewrites other sessions' records; abort archives and removes this session.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ working_dir, session_id, action }) => {
      const { resolveConflict } = await import('../../session/resolve-conflict.js');
      const { paths } = await deps.connection.workspace(working_dir);
      const { session_id: id } = deps.connection.chooseSession(paths, session_id);
      deps.connection.requireOwned(id, 'resolve_conflict');
      const result = await resolveConflict(
        { working_dir, session_id: id, action },
        { clock: deps.clock, env: {} },
        'mcp',
      );
      if (action === 'abort') deps.connection.closed(id);
      const text =
        action === 'takeover'
          ? `took over: ${result.taken_over.map((t) => t.existing_session_id).join(', ')} now STALE`
          : `aborted: session ${id} withdrawn (archived as ABORTED to ${result.archive_path}); call clock_in to start again`;
      return okResult(result, text);
    },
  );
}
