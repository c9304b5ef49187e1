import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { okResult } from '../result.js';
import { LIMITS, role, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

const relPath = z.string().nullable();

/** The fields of ClockInResponse an agent acts on, described; the rest of the document passes through. */
const output = z.looseObject({
  session_id: z.string().describe('The new session id (UUID v4): the token for anchor and the session_id for the other tools.'),
  context_paths: z
    .looseObject({
      project_context: relPath.describe('Human-authored project context (PHASE:: lives here); null when missing.'),
      current_state: relPath.describe('Generated current state; null when missing.'),
      checklist: z.string().describe('FAST-layer checklist.'),
      blockers: z.string().describe('FAST-layer blockers.'),
      current_focus: z.string().describe('FAST-layer current focus.'),
      negatives: relPath.describe('Context negatives; null when missing.'),
      additional: z.array(z.string()).describe('Extra context paths from .hestai_workspace.yaml.'),
    })
    .describe('Workspace-relative paths of the context files to read before anchoring.'),
  conflict: z
    .looseObject({
      existing_session_id: z.string().describe('The live session already registered in this worktree.'),
      existing_role: z.string().describe('Its role.'),
      existing_focus: z.string().describe('Its focus.'),
      started_at: z.string().describe('When it started (ISO-8601).'),
      resolution: z.string().describe('What was done: continue, abort or takeover.'),
    })
    .nullable()
    .describe('Another live session in this worktree, or null.'),
  focus_resolved: z
    .looseObject({
      value: z.string().describe('The focus of the session.'),
      source: z.string().describe('Where it came from: explicit, github_issue, branch or default.'),
    })
    .describe('The resolved focus.'),
  instruction: z.string().describe('What to do next.'),
  context_generated_at: z.string().describe('When the context was generated; what the 24 h freshness rule measures.'),
  structure_status: z.enum(['complete', 'incomplete']).describe('incomplete when human-authored files that `hestai init` creates are missing.'),
  structure_missing: z.array(z.string()).describe('The missing human-authored files.'),
  warnings: z.array(z.string()).describe('Degradations that did not stop the clock-in (e.g. AI context selection fell back).'),
});

export function registerClockIn(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'clock_in',
    {
      title: 'Clock in',
      description:
        'Start a session (CI-I1): registers it under .hestai/sessions/active/{session_id}/, resolves its focus, gathers fresh context, ' +
        'updates the FAST layer and reports conflicts with other live sessions. Then read context_paths and call anchor with ' +
        'token = session_id (stage identity → context → proof).',
      input: strictInput({
        working_dir: workingDir,
        role: role.describe('Agent role, e.g. implementation-lead (lower-case letters, digits and hyphens); a constitution .hestai-sys/agents/{role}.oct.md should exist.'),
        focus: z.string().max(LIMITS.text).optional().describe('What the session works on. Default: from a GitHub issue or the branch name, else "general".'),
        model: z.string().max(LIMITS.model).optional().describe('AI model override for context selection. Default: from the configuration.'),
        on_conflict: z
          .enum(['continue', 'abort', 'takeover'])
          .optional()
          .describe('When another live session exists in this worktree: continue beside it (default), abort, or take it over (audited).'),
      }),
      output,
      // Creates a session and regenerates the FAST layer (generated files); a take-over only on explicit request.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args) => {
      const { clockIn } = await import('../../session/clock-in.js');
      const { root } = deps.connection.workspace(args.working_dir);
      // The session belongs to this connection: pinned, so nothing else picks it implicitly.
      const result = await clockIn({ ...args, pinned: true }, { clock: deps.clock, env: deps.env });
      deps.connection.started_(result.session_id, root);
      const lines = [
        `clocked in: session ${result.session_id} (${args.role}, focus "${result.focus_resolved.value}" from ${result.focus_resolved.source})`,
        ...(result.conflict ? [`conflict: live session ${result.conflict.existing_session_id} (${result.conflict.existing_role}) — ${result.conflict.resolution}`] : []),
        ...result.warnings.map((w) => `warning: ${w}`),
        ...(result.structure_missing.length > 0 ? [`missing: ${result.structure_missing.join(', ')} (run hestai init)`] : []),
        `next: ${result.instruction} Call anchor with stage "identity" (this connection's session is the default).`,
        `git: this session is pinned to you; run git with HESTAI_SESSION=${result.session_id} in the environment so your commits carry its anchor.`,
      ];
      return okResult(result, lines.join('\n'));
    },
  );
}
