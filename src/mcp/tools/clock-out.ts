import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { LIMITS, optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

// Validated on every result; tools/list shows only {type: "object"} (see advertised() in ../schemas.ts), field meanings: docs/mcp.md.
const output = z.looseObject({
  session_id: z.string(),
  archive_path: z.string(),
  duration: z.string(),
  commits: z.array(z.looseObject({ sha: z.string(), header: z.string() })),
  anchor_digest: z.string().nullable(),
});

export function registerClockOut(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'clock_out',
    {
      description: "Last step: archive and close your session, whatever its state; never another agent's.",
      input: strictInput({
        working_dir: workingDir,
        session_id: optionalSessionId,
        summary: z.string().max(LIMITS.summary).optional().describe('What you did, one line.'),
        carry: z
          .array(z.string().max(LIMITS.summary))
          .max(50)
          .optional()
          .describe('Checklist items to carry (exact texts); the rest become DONE.'),
        carry_all: z.boolean().optional().describe('Carry all your checklist items.'),
      }),
      output,
      // Removes .hestai/sessions/active/{session_id}/ after archiving it.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ working_dir, session_id, summary, carry, carry_all }) => {
      const { clockOut } = await import('../../session/clock-out.js');
      const { paths } = await deps.connection.workspace(working_dir);
      const { session_id: id } = deps.connection.chooseSession(paths, session_id);
      deps.connection.requireOwned(id, 'clock_out');
      const result = await clockOut(
        { working_dir, session_id: id, summary, carry, carry_all },
        { clock: deps.clock, env: {} },
      );
      deps.connection.closed(id);
      const text = `clocked out: session ${result.session_id} archived to ${result.archive_path} (${result.duration}, ${result.commits.length} commit${result.commits.length === 1 ? '' : 's'})`;
      return okResult(result, text);
    },
  );
}
