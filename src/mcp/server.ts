import { McpServer } from '@modelcontextprotocol/server';
import { VERSION } from '../version.js';
import { followClientRoots } from './client-roots.js';
import { Connection } from './connection.js';
import { resolveDeps, type McpContext, type McpDeps } from './deps.js';
import { registerResources } from './register-resources.js';
import { registerAnchor } from './tools/anchor.js';
import { registerAnchorStatus } from './tools/anchor-status.js';
import { registerClockIn } from './tools/clock-in.js';
import { registerClockOut } from './tools/clock-out.js';
import { registerResolveConflict } from './tools/resolve-conflict.js';
import { registerOdysseanAnchor } from './tools/odyssean-anchor.js';
import { registerProtocolTools } from './tools/protocol.js';

export type { McpDeps } from './deps.js';

/**
 * Builds the hestai MCP server: every tool and resource, over any transport. No side effects at import
 * or construction (no stdio, no timers), so tests link it to a client in-process; `hestai mcp`
 * (src/mcp/stdio.ts) serves it over stdio. The tools are thin adapters over the library.
 */
export function createServer(deps: Partial<McpDeps> = {}): McpServer {
  const base = resolveDeps(deps);
  const resolved: McpContext = { ...base, connection: new Connection(base.cwd, base.env, base.served) };
  const server = new McpServer(
    { name: 'hestai', version: VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'hestai holds agents to a verifiable discipline. Start every session with clock_in, then anchor ' +
        '(stage identity → context → proof) with the session_id it returns. Privileged tools stay locked until ' +
        'the session is anchored (anchor_status says why). Read hestai://session/current for the current session; the session protocol (session_start, validate_gate, advance_phase, record_evidence, get_blocked_reason, session_end) is read through session://state.',
    },
  );
  resolved.connection.clientName = () => server.server.getClientVersion()?.name ?? null;
  followClientRoots(server, resolved.connection, resolved.log);
  registerClockIn(server, resolved);
  registerAnchor(server, resolved);
  registerOdysseanAnchor(server, resolved);
  registerAnchorStatus(server, resolved);
  registerClockOut(server, resolved);
  registerResolveConflict(server, resolved);
  registerProtocolTools(server, resolved);
  registerResources(server, resolved);
  return server;
}
