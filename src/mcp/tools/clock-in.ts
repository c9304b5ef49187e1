import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { LIMITS, role, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

/** The fields of ClockInResponse an agent acts on, described; the rest of the document passes through. */
// Validated on every result; tools/list shows only {type: "object"} (see advertised() in ../schemas.ts), field meanings: docs/mcp.md.
const output = z.looseObject({
  session_id: z.string(),
  context_paths: z.looseObject({ checklist: z.string(), blockers: z.string(), current_focus: z.string() }),
  conflict: z.looseObject({ existing_session_id: z.string(), resolution: z.string() }).nullable(),
  focus_resolved: z.looseObject({ value: z.string(), source: z.string() }),
  instruction: z.string(),
  context_generated_at: z.string(),
  warnings: z.array(z.string()),
});

export function registerClockIn(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'clock_in',
    {
      description: 'Step 1: register your session (pinned to you), refresh context, list neighbours. Next: anchor.',
      input: strictInput({
        working_dir: workingDir,
        role: role.describe('e.g. implementation-lead.'),
        focus: z.string().max(LIMITS.text).optional().describe('Default: the branch.'),
        model: z.string().max(LIMITS.model).optional().describe('For context selection.'),
        on_conflict: z.enum(['continue', 'abort', 'takeover']).optional().describe('Default continue.'),
        on_stale: z.enum(['cleanup', 'continue']).optional().describe('For stale neighbours.'),
      }),
      output,
      // Creates a session and regenerates the FAST layer (generated files); a take-over only on explicit request.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args) => {
      const { clockIn } = await import('../../session/clock-in.js');
      const { root } = await deps.connection.workspace(args.working_dir);
      // One agent, one session (issue 26): a session the runtime's SessionStart hook bound is the agent's.
      const bound = deps.connection.handedSessions(root)[0];
      const own = deps.connection.ownSession(root);
      if (bound !== undefined && own === bound) {
        const { usageError } = await import('../../errors.js');
        throw usageError(
          `clock_in refused: this agent is already clocked in as session ${bound} (bound by its runtime's SessionStart hook)`,
          {
            code: 'SESSION_BOUND',
            remedy: `Use that session: call anchor with stage "identity" and working_dir (no session_id needed: it is this connection's default), and anchor_status to see where it stands. A second session would make the hooks and this server disagree.`,
          },
        );
      }
      // The session belongs to this connection: pinned, so nothing else picks it implicitly.
      const agent = deps.connection.clientAgent();
      const result = await clockIn({ ...args, pinned: true, ...agent }, { clock: deps.clock, env: deps.env });
      deps.connection.started_(result.session_id, root);
      const lines = [
        `clocked in: session ${result.session_id} (${args.role}, focus "${result.focus_resolved.value}" from ${result.focus_resolved.source})`,
        ...(result.conflict
          ? [
              `conflict: live session ${result.conflict.existing_session_id} (${result.conflict.existing_role}, ${result.conflict.relation} focus "${result.conflict.existing_focus}") — ${result.conflict.resolution}`,
            ]
          : []),
        ...result.warnings.map((w) => `warning: ${w}`),
        ...(result.structure_missing.length > 0
          ? [`missing: ${result.structure_missing.join(', ')} (run hestai init)`]
          : []),
        `next: ${result.instruction} Call anchor with stage "identity" (this connection's session is the default).`,
        `git: this session is pinned to you; run git with HESTAI_SESSION=${result.session_id} in the environment so your commits carry its anchor.`,
      ];
      return okResult(result, lines.join('\n'));
    },
  );
}
