import { format } from 'node:util';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { resolveDeps, type McpDeps } from './deps.js';
import { createServer } from './server.js';

/** One diagnostic line for stderr: SDK errors (e.g. a zod dump for a malformed message) can be huge. */
function oneLine(text: string, max = 400): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * `hestai mcp`: serves the MCP server over stdio. stdout carries only the protocol: diagnostics go to
 * stderr, and `console.log` (which writes to stdout) is redirected there too, so a stray log line from
 * any module cannot corrupt the stream. A malformed message is reported on stderr and the server keeps
 * serving; the process exits when the client closes stdin.
 *
 * `serveStdio` (rather than a hand-wired `server.connect(new StdioServerTransport())`) answers both
 * the 2025 `initialize` opening that today's clients send and the 2026-07-28 `server/discover` opening.
 */
export function serveMcpStdio(deps: Partial<McpDeps> = {}): StdioServerHandle {
  const resolved = resolveDeps(deps);
  const toStderr = (...args: unknown[]) => resolved.log(format(...args));
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return serveStdio(() => createServer(resolved), {
    onerror: (error) => resolved.log(`hestai mcp: ${oneLine(error.message)}`),
  });
}
