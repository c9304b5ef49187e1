import { z } from 'zod';
import { agentHestaiCommand } from '../../agent/invocation.js';
import type { McpContext as McpDeps } from '../deps.js';
import { LIMITS } from '../schemas.js';

// What the six tools of the session protocol (seed 004; ./protocol.ts registers them) share. The
// seed's parameters and results; where a result field has no meaning here docs/mcp.md says what it maps to.
// The output schemas validate every result; their descriptions document the fields here, while tools/list
// shows only {type: "object"} (advertised() in ../schemas.ts keeps the whole list within 10 KB).

export const lib = () => import('../../protocol/operations.js');
export const deps$ = (deps: McpDeps) => ({ clock: deps.clock, env: deps.env, cli: agentHestaiCommand });

/**
 * A tool's arguments with the worktree (working_dir, validated and cached by the connection) and the session it
 * acts on: the session_id argument, else the connection's own session, else the only live unpinned one.
 */
export async function input<A extends { working_dir: string; session_id?: string | undefined }>(
  deps: McpDeps,
  args: A,
  tool: string,
  owned = false,
): Promise<A & { working_dir: string; session_id: string }> {
  const { paths, root } = await deps.connection.workspace(args.working_dir);
  const id = deps.connection.chooseSession(paths, args.session_id).session_id;
  if (owned) deps.connection.requireOwned(id, tool);
  return { ...args, working_dir: root, session_id: id };
}

export const level = z.enum(['MUST', 'SHOULD', 'MAY']).describe('RFC 2119 requirement level, from protocol.yaml only.');
const checklistItem = z.looseObject({
  req: level,
  step: z.string().describe('The checklist wording of the gate.'),
  status: z.enum(['x', ' ']).describe('"x" when the gate passes, " " otherwise.'),
  evidence: z.string().nullable().describe('What proved it, or null.'),
  phase: z.string().describe('The phase id.'),
  gate: z.string().describe('The gate id (the step to pass to record_evidence / validate_gate).'),
  result: z.enum(['PASS', 'FAIL', 'SKIPPED', 'PENDING']).describe('The gate verdict.'),
  blocking: z.boolean().describe('Whether an unmet gate blocks advance_phase.'),
});
export const checklist = z
  .looseObject({
    start: z.array(checklistItem).describe('Gates of the start phases (the binding ceremony).'),
    work: z.array(checklistItem).describe('Gates of the work phases.'),
    end: z.array(checklistItem).describe('Gates of the end phases (the end duties).'),
  })
  .describe('The RFC 2119 checklist: start, work and end lists, each item with its status and evidence.');
export const gateResult = z.looseObject({
  phase: z.string().describe('The phase id.'),
  gate: z.string().describe('The gate id.'),
  step: z.string().describe('The checklist wording.'),
  requirement_level: level,
  status: z.enum(['PASS', 'FAIL', 'SKIPPED', 'PENDING']).describe('PENDING: no evidence or command result yet.'),
  evidence: z.string().nullable().describe('Verification evidence, or null.'),
  blocking: z.boolean().describe('Whether this gate blocks the next phase.'),
  message: z.string().describe('Human-readable status.'),
});
export const violation = z.looseObject({
  session_id: z.string().describe('The session that skipped the requirement.'),
  timestamp: z.string().describe('When (ISO-8601).'),
  phase: z.string().describe('The phase of the skipped gate.'),
  requirement: z.string().describe('Level, step, PHASE/gate and why it was unmet.'),
  severity: z.enum(['CRITICAL', 'WARNING']).describe('CRITICAL for MUST gates.'),
  recovery: z.string().describe('What satisfies the requirement.'),
});
export const phaseParam = z.string().max(LIMITS.id).describe('Phase id of .hestai/protocol.yaml.');
export const stepParam = z.string().max(LIMITS.text).optional().describe('Gate id in the phase.');
