import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { LIMITS, optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { checklist, deps$, input, lib } from './protocol-schemas.js';

export function registerSessionStart(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'session_start',
    {
      description: "Start your session's protocol run (.hestai/protocol.yaml) once, first; returns the checklist.",
      input: strictInput({
        working_dir: workingDir,
        session_id: optionalSessionId,
        objective: z.string().max(LIMITS.text).min(1).describe('The session goal.'),
        branch: z.string().max(LIMITS.text).optional().describe('Default: detected.'),
        starting_commit: z.string().max(LIMITS.text).optional().describe('Default: HEAD at clock-in.'),
      }),
      output: z.looseObject({
        session_id: z.string().describe('The clock-in session id (a UUID v4).'),
        phase: z.string().describe("The current phase: the protocol's first (the seed's INIT)."),
        blocked_until: z.array(z.string()).describe('Start phases with an unmet blocking gate.'),
        checklist,
        objective: z.string().describe('The objective.'),
        branch: z.string().nullable().describe('The branch.'),
        starting_commit: z.string().nullable().describe('The starting commit.'),
        started_at: z.string().describe('When the run started (ISO-8601).'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const res = await (await lib()).sessionStart(await input(deps, args, 'session_start', true), deps$(deps));
      return okResult(
        res,
        `protocol run started for session ${res.session_id}: phase ${res.phase}; blocked until: ${res.blocked_until.join(', ') || 'nothing'}. Next: get_blocked_reason.`,
      );
    },
  );
}
