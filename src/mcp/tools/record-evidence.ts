import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { LIMITS, optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { deps$, input, lib, phaseParam, stepParam } from './protocol-schemas.js';

export function registerRecordEvidence(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'record_evidence',
    {
      description:
        "Store typed evidence for a gate and re-validate it (a file_path, commit_sha or content_hash is checked); never TODO, TBD, N/A or the step's words.",
      input: strictInput({
        working_dir: workingDir,
        session_id: optionalSessionId,
        phase: phaseParam,
        evidence_type: z
          .enum(['tool_output', 'file_path', 'commit_sha', 'content_hash', 'manual'])
          .describe('Its kind.'),
        evidence: z.string().min(1).max(LIMITS.evidence).describe('Output excerpt, path, sha, sha256 or note.'),
        step: stepParam,
      }),
      output: z.looseObject({
        phase: z.string().describe('The phase.'),
        step: z.string().describe('The gate the evidence was recorded for.'),
        evidence_recorded: z.boolean().describe('Always true on success.'),
        auto_validated: z.boolean().describe('Whether the gate is an evidence gate and was re-validated.'),
        gate_status: z.enum(['PASS', 'FAIL', 'PENDING']).describe('The gate after recording.'),
        message: z.string().describe('Why.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const res = await (await lib()).recordEvidence(await input(deps, args, 'record_evidence', true), deps$(deps));
      return okResult(res, `evidence recorded for ${res.phase}/${res.step}: ${res.gate_status}: ${res.message}`);
    },
  );
}
