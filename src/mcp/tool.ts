import type { McpServer, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { McpContext } from './deps.js';
import { auditPathTraversal } from '../security.js';
import { CancelledError, throwIfCancelled, withCancellation } from '../util/cancel.js';
import { errorResult, type ToolResult } from './result.js';
import { advertised } from './schemas.js';
import { mcpWorded } from './wording.js';
import { PROTOCOL_OPEN_TOOLS, requireProtocolStartGates } from './protocol-gate.js';
import type { HestaiMcpTool } from '../util/agent-tools.js';

/**
 * How one tool is declared: zod schemas with described fields, and annotations that are true. No `title`:
 * its name says as much, and tools/list stays within 10 KB.
 */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  description: string;
  input: I;
  output: O;
  annotations: Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;
}

/**
 * Registers a tool whose handler returns a `ToolResult` or throws. Whatever it throws becomes an
 * `isError` result (a `HestaiError` keeps its remedy; anything else is logged to stderr), so one failing
 * call never takes the server down. A refused path traversal is also recorded as a security event in the
 * audit log of the server's workspace (`auditPathTraversal`). Before the handler, a tool the protocol holds
 * waits for the blocking start gates of the session protocol (`requireProtocolStartGates`, protocol.enforce).
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  server: McpServer,
  deps: McpContext,
  name: HestaiMcpTool,
  spec: ToolSpec<I, O>,
  handler: (args: z.infer<I>) => Promise<ToolResult>,
): void {
  server.registerTool(
    name,
    {
      description: spec.description,
      inputSchema: advertised(spec.input, 'input'),
      outputSchema: advertised(spec.output, 'output'),
      annotations: spec.annotations,
    },
    (async (args: z.infer<I>, ctx?: { mcpReq?: { signal?: AbortSignal } }) => {
      const signal = ctx?.mcpReq?.signal;
      try {
        // A cancelled request stops before any write it has not made (issue 26): here, and in every lock wait.
        return await withCancellation(signal, async () => {
          throwIfCancelled(name);
          await deps.connection.rootsSettled(); // the client's roots, when it declared some (client-roots.ts)
          throwIfCancelled(name);
          if (!PROTOCOL_OPEN_TOOLS.has(name)) await requireProtocolStartGates(deps, name, args);
          throwIfCancelled(name);
          return mcpWorded(await handler(args));
        });
      } catch (error) {
        if (error instanceof CancelledError) {
          deps.log(`hestai mcp: ${name} ${error.message} (the client cancelled the request)`);
          return mcpWorded(errorResult(error, deps.log));
        }
        const audited = auditPathTraversal(error, () => deps.cwd, `mcp:${name}`, deps.clock);
        if (audited.auditLog !== null)
          deps.log(`hestai mcp: security: path traversal refused (mcp:${name}), recorded in ${audited.auditLog}`);
        return mcpWorded(errorResult(audited.error, deps.log));
      }
    }) as never,
  );
}
