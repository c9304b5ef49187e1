import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { deps$, input, level, lib } from './protocol-schemas.js';

export function registerGetBlockedReason(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'get_blocked_reason',
    {
      description: 'Unmet blocking gates of the current phase and the calls that meet them.',
      input: strictInput({ working_dir: workingDir, session_id: optionalSessionId }),
      output: z.looseObject({
        is_blocked: z.boolean().describe('Whether the current phase has an unmet blocking gate.'),
        current_phase: z.string().describe('The current phase.'),
        blocked_phases: z
          .array(
            z.looseObject({
              phase: z.string().describe('The phase.'),
              gate: z.string().describe('The gate.'),
              requirement_level: level,
              reason: z.string().describe('Why it is unmet.'),
              evidence_needed: z.string().describe('What would satisfy it.'),
            }),
          )
          .describe('One entry per unmet blocking gate.'),
        suggested_actions: z.array(z.string()).describe('Tool calls, in the order of blocked_phases.'),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      const res = await (
        await lib()
      ).getBlockedReason(await input(deps, { ...args, surface: 'mcp' as const }, 'get_blocked_reason'), deps$(deps));
      const text = res.is_blocked
        ? `phase ${res.current_phase} is blocked:\n${res.suggested_actions.map((a) => `- ${a}`).join('\n')}`
        : `phase ${res.current_phase}: nothing blocks`;
      return okResult(res, text);
    },
  );
}
