import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { AnchorHandshakeResult } from '../../anchor/results.js';
import type { ClockInPort } from '../../anchor/handshake.js';
import type { McpContext as McpDeps } from '../deps.js';
import { failedResult, okResult } from '../result.js';
import { LIMITS, role, strictInput, workingDir } from '../schemas.js';
import { defineTool } from '../tool.js';

const strictness = z.enum(['quick', 'default', 'deep']);

/** AnchorHandshakeResult (seed 001), every field described. */
const output = z.looseObject({
  success: z.boolean().describe('Whether this stage passed.'),
  stage: z.enum(['identity', 'context', 'proof']).describe('The stage that was run.'),
  token: z.string().nullable().describe('The handshake token (= session id); null in untracked mode before a session exists.'),
  mode: z.enum(['full', 'lite', 'untracked']).describe('full or lite are tracked on disk; untracked writes nothing and never unlocks tools.'),
  strictness: strictness.describe('How many tensions the proof needs: quick 1, default 2, deep 3 (deep: every CTX with a line range).'),
  constitution_path: z.string().nullable().describe('The role constitution (.hestai-sys/agents/{role}.oct.md) to read.'),
  constitution_excerpt: z.string().nullable().describe('An excerpt of the constitution.'),
  server_arm: z.string().nullable().describe('The server-authoritative ARM section (PHASE, BRANCH, FILES, FOCUS), from the context stage on.'),
  anchor: z.string().nullable().describe('The canonical RAPH v4.0 anchor, after a passed proof.'),
  next_step: z.string().describe('What to do next.'),
  template: z.string().nullable().describe('The payload template for the next stage, or the corrected template after a failure.'),
  errors: z.array(z.string()).describe('One line per problem: CODE: message.'),
  guidance: z.string().describe('How to fix the payload and retry.'),
  terminal: z.boolean().describe('True after the last allowed retry failed: the session stays locked until a human runs `hestai anchor reset`.'),
  retries_left: z.number().nullable().describe('Retries left for this stage; null when nothing is counted.'),
  warnings: z.array(z.string()).describe('Non-blocking remarks.'),
  work_permit: z
    .looseObject({
      token: z.string().describe('The anchored session.'),
      role: z.string().describe('The bound role.'),
      tier: z.string().describe('The strictness the proof passed.'),
      anchor_file: z.string().describe('Workspace-relative path of the promoted anchor.json.'),
      anchor_digest: z.string().describe('The HestAI-Anchor trailer value.'),
      validated_at: z.string().describe('When the proof passed (ISO-8601).'),
    })
    .nullable()
    .describe('What a passed proof grants: the anchor that unlocks commits and privileged tools; null otherwise.'),
});

/** The readable text of a handshake result: verdict, errors, guidance, template, next step. */
export function handshakeText(result: AnchorHandshakeResult): string {
  const lines = [`anchor ${result.stage}: ${result.success ? 'passed' : 'FAILED'}${result.token ? ` (token ${result.token})` : ''}`];
  for (const error of result.errors) lines.push(`  - ${error}`);
  if (!result.success && result.guidance) lines.push(`guidance: ${result.guidance}`);
  if (result.terminal) lines.push('terminal: this session stays locked until a human runs `hestai anchor reset --token <token>`.');
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
      title: 'Odyssean Anchor handshake (staged)',
      description:
        'The v5 staged binding handshake. identity: pass role and the session_id from clock_in as token; returns the constitution and the BIND template. ' +
        'context: payload = the "## BIND" section; returns the server-authoritative ARM. proof: payload = "## TENSION" and "## COMMIT"; ' +
        'a pass writes active/{token}/anchor.json, which unlocks privileged tools. A failed stage is an isError result with errors, guidance and a ' +
        'corrected template; retries are counted by the server and after the last one the result is terminal.',
      input: strictInput({
        stage: z.enum(['identity', 'context', 'proof']).describe('identity, then context, then proof.'),
        working_dir: workingDir,
        role: role.optional().describe('The agent role (identity stage; a constitution .hestai-sys/agents/{role}.oct.md must exist).'),
        mode: z.enum(['full', 'lite', 'untracked']).optional().describe('Identity stage: full (default) or lite are tracked; untracked writes nothing and never unlocks tools.'),
        strictness: strictness.optional().describe('Identity stage: quick, default or deep (tensions required: 1, 2, 3).'),
        topic: z.string().max(LIMITS.text).optional().describe('Identity stage without a token: the focus of the session it clocks in first.'),
        token: z.string().max(LIMITS.id).optional().describe('The session_id from clock_in (identity), or the token the identity stage returned (context, proof).'),
        payload: z.string().max(LIMITS.payload).optional().describe('context: the "## BIND" section. proof: the "## TENSION" and "## COMMIT" sections. ASCII <-> and -> are accepted.'),
      }),
      output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const { anchor } = await import('../../anchor/handshake.js');
      const clockIn: ClockInPort = async (input, d) => (await import('../../session/clock-in.js')).clockIn(input, d);
      const { root } = deps.connection.workspace(args.working_dir);
      // Without a token every stage uses this connection's session; identity clocks in only when it has none.
      const own = deps.connection.defaultSession(root);
      const token = args.token !== undefined && args.token !== '' ? args.token : (own ?? undefined);
      const result = await anchor({ ...args, ...(token === undefined ? {} : { token }) }, { clock: deps.clock, env: deps.env, pinned: true, clockIn });
      if (result.token !== null && result.mode !== 'untracked') {
        if (args.stage === 'identity' && token === undefined && result.success) deps.connection.started_(result.token, root);
        if (args.stage === 'proof' && result.success) deps.connection.bound_(result.token, root);
      }
      return result.success ? okResult(result, handshakeText(result)) : failedResult(result, handshakeText(result));
    },
  );
}
