import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { failedResult, okResult } from '../result.js';
import { LIMITS, optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { checklist, deps$, input, lib, violation } from './protocol-schemas.js';

export function registerSessionEnd(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'session_end',
    {
      description:
        'End the protocol run: INCOMPLETE (isError, nothing written) while a MUST gate is unmet, else history is recorded. Then clock_out.',
      input: strictInput({
        working_dir: workingDir,
        session_id: optionalSessionId,
        summary: z.string().min(1).max(LIMITS.text).describe('What you did.'),
        next_session_notes: z.string().max(LIMITS.text).optional().describe('For the next session.'),
        key_decisions: z.array(z.string().max(LIMITS.text)).max(20).optional().describe('Worth keeping (at most 20).'),
      }),
      output: z.looseObject({
        session_id: z.string().describe('The session.'),
        status: z
          .enum(['COMPLETE', 'COMPLETE_WITH_VIOLATIONS', 'INCOMPLETE'])
          .describe(
            'INCOMPLETE while a MUST gate is unmet; COMPLETE_WITH_VIOLATIONS when a forced advance skipped a requirement.',
          ),
        checklist,
        violations: z.array(violation).describe('Forced skips of this run.'),
        unmet: z.array(z.string()).describe('The unmet MUST gates (PHASE/gate: why) when INCOMPLETE.'),
        handoff_updated: z
          .boolean()
          .describe("True when the history record was written (the seed's HANDOFF.md update)."),
        commit_sha: z.string().optional().describe("The run's last commit (absent when the run made none)."),
        message: z.string().describe('What happened.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const res = await (await lib()).sessionEnd(await input(deps, args, 'session_end', true), deps$(deps));
      const text = `${res.status}: ${res.message}${res.unmet.length ? `\n${res.unmet.map((u) => `- ${u}`).join('\n')}` : ''}`;
      return res.status === 'INCOMPLETE' ? failedResult(res, text) : okResult(res, text);
    },
  );
}
