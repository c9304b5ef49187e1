import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import { hestaiCommand } from '../../agent/invocation.js';
import type { McpContext as McpDeps } from '../deps.js';
import { failedResult, okResult } from '../result.js';
import { LIMITS, optionalSessionId, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

// The six tools of the session protocol (seed 004), thin adapters over src/protocol/operations.ts. The
// seed's parameters and results; where a result field has no meaning here docs/mcp.md says what it maps to.
// The output schemas validate every result; their descriptions document the fields here, while tools/list
// shows only {type: "object"} (advertised() in ../schemas.ts keeps the whole list within 10 KB).

const lib = () => import('../../protocol/operations.js');
const deps$ = (deps: McpDeps) => ({ clock: deps.clock, env: deps.env, cli: hestaiCommand });

/**
 * A tool's arguments with the worktree (working_dir, validated and cached by the connection) and the session it
 * acts on: the session_id argument, else the connection's own session, else the only live unpinned one.
 */
async function input<A extends { working_dir: string; session_id?: string | undefined }>(
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

const level = z.enum(['MUST', 'SHOULD', 'MAY']).describe('RFC 2119 requirement level, from protocol.yaml only.');
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
const checklist = z
  .looseObject({
    start: z.array(checklistItem).describe('Gates of the start phases (the binding ceremony).'),
    work: z.array(checklistItem).describe('Gates of the work phases.'),
    end: z.array(checklistItem).describe('Gates of the end phases (the end duties).'),
  })
  .describe('The RFC 2119 checklist: start, work and end lists, each item with its status and evidence.');
const gateResult = z.looseObject({
  phase: z.string().describe('The phase id.'),
  gate: z.string().describe('The gate id.'),
  step: z.string().describe('The checklist wording.'),
  requirement_level: level,
  status: z.enum(['PASS', 'FAIL', 'SKIPPED', 'PENDING']).describe('PENDING: no evidence or command result yet.'),
  evidence: z.string().nullable().describe('Verification evidence, or null.'),
  blocking: z.boolean().describe('Whether this gate blocks the next phase.'),
  message: z.string().describe('Human-readable status.'),
});
const violation = z.looseObject({
  session_id: z.string().describe('The session that skipped the requirement.'),
  timestamp: z.string().describe('When (ISO-8601).'),
  phase: z.string().describe('The phase of the skipped gate.'),
  requirement: z.string().describe('Level, step, PHASE/gate and why it was unmet.'),
  severity: z.enum(['CRITICAL', 'WARNING']).describe('CRITICAL for MUST gates.'),
  recovery: z.string().describe('What satisfies the requirement.'),
});
const phaseParam = z.string().max(LIMITS.id).describe('Phase id of .hestai/protocol.yaml.');
const stepParam = z.string().max(LIMITS.text).optional().describe('Gate id in the phase.');

export function registerProtocolTools(server: McpServer, deps: McpDeps): void {
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
