import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { LIMITS, optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

const output = z.looseObject({
  session_id: z.string().describe('The session that was closed.'),
  archive_path: z.string().describe('Workspace-relative path of the OCTAVE archive written under .hestai/sessions/archive/.'),
  started_at: z.string().describe('When the session started (ISO-8601).'),
  ended_at: z.string().describe('When it ended (ISO-8601).'),
  duration: z.string().describe('How long it lasted, e.g. 1h 30m 5s.'),
  summary: z.string().describe('The summary recorded in the archive.'),
  commits: z
    .array(z.object({ sha: z.string().describe('Commit sha.'), header: z.string().describe('Commit header.') }))
    .describe('Commits made during the session, oldest first.'),
  anchor_digest: z.string().nullable().describe('The HestAI-Anchor digest of the session, or null.'),
  fast_layer_updated: z.boolean().describe('Whether current-focus.oct.md was marked ended.'),
});

export function registerClockOut(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'clock_out',
    {
      title: 'Clock out',
      description:
        'Close your session: archive it in OCTAVE (role, focus, times, summary, commits, anchor digest or unanchored), mark the FAST-layer focus ended, ' +
        'then remove its active directory. Acts only on a session this connection clocked in or anchored (default: that session); another agent\'s session is refused with NOT_YOUR_SESSION. ' +
        'An unanchored or terminal session can always be closed this way.',
      input: strictInput({
        working_dir: workingDir,
        session_id: optionalSessionId,
        summary: z.string().max(LIMITS.summary).optional().describe('What the session accomplished (one line in the archive).'),
      }),
      output,
      // Removes .hestai/sessions/active/{session_id}/ after archiving it.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ working_dir, session_id, summary }) => {
      const { clockOut } = await import('../../session/clock-out.js');
      const { paths } = deps.connection.workspace(working_dir);
      const { session_id: id } = deps.connection.chooseSession(paths, session_id);
      deps.connection.requireOwned(id, 'clock_out');
      const result = await clockOut({ working_dir, session_id: id, summary }, { clock: deps.clock, env: {} });
      deps.connection.closed(id);
      const text = `clocked out: session ${result.session_id} archived to ${result.archive_path} (${result.duration}, ${result.commits.length} commit${result.commits.length === 1 ? '' : 's'})`;
      return okResult(result, text);
    },
  );
}
