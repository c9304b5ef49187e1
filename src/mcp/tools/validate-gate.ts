import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';
import { deps$, gateResult, input, level, lib, phaseParam, stepParam } from './protocol-schemas.js';

export function registerValidateGate(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'validate_gate',
    {
      description: "Check and record a phase's gates (or one step): PASS, FAIL or SKIPPED each.",
      input: strictInput({
        working_dir: workingDir,
        session_id: optionalSessionId,
        phase: phaseParam,
        step: stepParam,
      }),
      output: z.looseObject({
        phase: z.string().describe('The phase checked.'),
        step: z.string().optional().describe('The gate checked, when one was asked for.'),
        requirement_level: level,
        status: z.enum(['PASS', 'FAIL', 'SKIPPED']).describe('FAIL when a blocking or MUST gate is unmet.'),
        evidence: z.string().nullable().describe('Verification evidence, or null.'),
        blocking: z.boolean().describe('Whether the phase has blocking gates.'),
        message: z.string().describe('Human-readable status.'),
        gates: z.array(gateResult).describe('One result per gate.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      const res = await (await lib()).validateGate(await input(deps, args, 'validate_gate', true), deps$(deps));
      return okResult(
        res,
        `${res.status} ${res.phase}${res.step ? `/${res.step}` : ''} (${res.requirement_level}): ${res.message}`,
      );
    },
  );
}
