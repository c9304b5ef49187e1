import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { AnchorHandshakeResult } from '../../anchor/results.js';
import type { ClockInPort } from '../../anchor/handshake.js';
import type { McpContext as McpDeps } from '../deps.js';
import { failedResult, okResult } from '../result.js';
import { MAX_RETRIES } from '../../anchor/constants.js';
import { LIMITS, optionalSessionId, role, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

const strictness = z.enum(['quick', 'default', 'deep']);

/** AnchorHandshakeResult (seed 001): the fields an agent acts on; the rest passes through. */
// Validated on every result; tools/list shows only {type: "object"} (see advertised() in ../schemas.ts), field meanings: docs/mcp.md.
const output = z.looseObject({
  success: z.boolean(),
  stage: z.enum(['identity', 'context', 'proof']),
  token: z.string().nullable(),
  mode: z.enum(['full', 'lite', 'untracked']),
  strictness,
  next_step: z.string(),
  template: z.string().nullable(),
  errors: z.array(z.string()),
  guidance: z.string(),
  terminal: z.boolean(),
  retries_left: z.number().nullable(),
  work_permit: z.looseObject({ anchor_file: z.string(), anchor_digest: z.string() }).nullable(),
});

/** The readable text of a handshake result: verdict, errors, guidance, template, next step. */
export function handshakeText(result: AnchorHandshakeResult): string {
  const lines = [
    `anchor ${result.stage}: ${result.success ? 'passed' : 'FAILED'}${result.token ? ` (session_id ${result.token})` : ''}`,
  ];
  for (const error of result.errors) lines.push(`  - ${error}`);
  if (!result.success && result.guidance) lines.push(`guidance: ${result.guidance}`);
  if (result.terminal)
    lines.push(
      `TERMINAL: stop retrying. This session stays locked until a human runs \`hestai anchor reset --token ${result.token ?? '<session_id>'}\`; you can still clock_out.`,
    );
  if (result.server_arm && result.stage === 'context') lines.push(result.server_arm);
  if (result.anchor) lines.push(result.anchor);
  if (result.template) lines.push(`template:\n${result.template}`);
  lines.push(`next: ${result.next_step}`);
  return lines.join('\n');
}

export function registerAnchor(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'anchor',
    {
      description:
        'Step 2, in order: stage identity {role} returns the BIND template; context {payload: the ## BIND section} returns the ARM; ' +
        'proof {payload: ## TENSION and ## COMMIT} writes the anchor that unlocks commits. ' +
        `A failed stage is isError with guidance; ${MAX_RETRIES} retries per stage (${MAX_RETRIES + 1} failures), ` +
        'then TERMINAL: stop retrying, only a human can reset it; clock_out still works.',
      input: strictInput({
        stage: z.enum(['identity', 'context', 'proof']).describe('identity, then context, then proof.'),
        working_dir: workingDir,
        session_id: optionalSessionId,
        role: role.optional().describe('identity: needs .hestai-sys/agents/{role}.oct.md.'),
        mode: z
          .enum(['full', 'lite', 'untracked'])
          .optional()
          .describe('identity (default full; untracked unlocks nothing).'),
        tier: strictness.optional().describe('identity: tensions needed 1, 2, 3.'),
        focus: z.string().max(LIMITS.text).optional().describe('identity without a session: clocks in.'),
        payload: z.string().max(LIMITS.payload).optional().describe('context, proof: the sections.'),
      }),
      output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const { anchor } = await import('../../anchor/handshake.js');
      const agent = deps.connection.clientAgent(); // attribution of a session the identity stage clocks in
      const clockIn: ClockInPort = async (input, d) =>
        (await import('../../session/clock-in.js')).clockIn({ ...input, ...agent }, d);
      const { root } = await deps.connection.workspace(args.working_dir);
      // Without session_id every stage uses this connection's session; identity clocks in only when it has none.
      const own = deps.connection.defaultSession(root);
      const { checkSessionId } = await import('../../records/resolve.js');
      const token =
        args.session_id !== undefined && args.session_id !== ''
          ? checkSessionId(args.session_id, 'session_id', 'mcp')
          : (own ?? undefined);
      // Another agent's handshake is never this connection's to run (a failed stage counts toward TERMINAL).
      if (token !== undefined) deps.connection.requireOwned(token, 'anchor');
      const input = {
        stage: args.stage,
        working_dir: args.working_dir,
        ...(args.role === undefined ? {} : { role: args.role }),
        ...(args.mode === undefined ? {} : { mode: args.mode }),
        ...(args.tier === undefined ? {} : { strictness: args.tier }),
        ...(args.focus === undefined ? {} : { topic: args.focus }),
        ...(args.payload === undefined ? {} : { payload: args.payload }),
        ...(token === undefined ? {} : { token }),
      };
      const result = await anchor(input, { clock: deps.clock, env: deps.env, pinned: true, clockIn });
      if (result.token !== null && result.mode !== 'untracked') {
        if (args.stage === 'identity' && token === undefined && result.success)
          deps.connection.started_(result.token, root);
        if (args.stage === 'proof' && result.success) deps.connection.bound_(result.token, root);
      }
      return result.success ? okResult(result, handshakeText(result)) : failedResult(result, handshakeText(result));
    },
  );
}
