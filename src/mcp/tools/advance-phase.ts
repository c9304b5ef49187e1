import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { failedResult, okResult } from '../result.js';
import { LIMITS, optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { deps$, input, lib } from './protocol-schemas.js';

export function registerAdvancePhase(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'advance_phase',
    {
      description:
        'Move to the next phase (or target_phase); refused (blocked_by) at an unmet blocking gate unless force, which logs a violation per skip.',
      input: strictInput({
        working_dir: workingDir,
        session_id: optionalSessionId,
        target_phase: z.string().max(LIMITS.text).optional().describe('Default: the next.'),
        force: z.boolean().optional().describe('Skip unmet gates (protocol.force_limit per session).'),
      }),
      output: z.looseObject({
        previous_phase: z.string().describe('The phase before the call.'),
        current_phase: z.string().describe('The phase after it (COMPLETE after the last).'),
        success: z.boolean().describe('Whether the run advanced.'),
        blocked_by: z.array(z.string()).optional().describe('PHASE/gate of each unmet blocking requirement.'),
        suggested_actions: z
          .array(z.string())
          .optional()
          .describe('When refused: the tool call that fixes each gate of blocked_by, in order.'),
        violations: z.array(z.string()).optional().describe('With force: what was skipped.'),
        warnings: z.array(z.string()).describe('Unmet non-blocking gates.'),
        message: z.string().describe('What happened.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const res = await (
        await lib()
      ).advancePhase(await input(deps, { ...args, surface: 'mcp' as const }, 'advance_phase', true), deps$(deps));
      const text = `${res.message}${res.warnings.length ? `\nwarnings: ${res.warnings.join('; ')}` : ''}${res.success ? '' : '\nhint: get_blocked_reason lists the tool calls that unblock it'}`;
      return res.success ? okResult(res, text) : failedResult(res, text);
    },
  );
}
