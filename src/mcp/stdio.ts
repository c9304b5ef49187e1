import { format } from 'node:util';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { resolveWorkspace } from '../workspace.js';
import { resolveDeps, type McpDeps } from './deps.js';
import { GatedStdioTransport } from './stdio-transport.js';
import { createServer } from './server.js';

/**
 * The repository `hestai mcp` serves: the worktree of the directory it was started in (Claude Code starts it
 * in the project). Its tools act only there (issue 26, item 6). Started outside any repository (a global
 * client that names working_dir per call), it is not restricted.
 */
export function servedRoots(cwd: string): string[] | null {
  try {
    return [resolveWorkspace(cwd).root];
  } catch {
    return null;
  }
}

/** One diagnostic line for stderr: SDK errors (e.g. a zod dump for a malformed message) can be huge. */
function oneLine(text: string, max = 400): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * `hestai mcp`: serves the MCP server over stdio. stdout carries only the protocol: diagnostics go to
 * stderr, and `console.log` (which writes to stdout) is redirected there too, so a stray log line from
 * any module cannot corrupt the stream. The process exits when the client closes stdin.
 *
 * stdin is read by a `LineGate` first (in {@link GatedStdioTransport}): a line that is not JSON is reported on
 * stderr (one line) and answered with `-32700` (id null); a line over 10 MiB is dropped as it streams in (never
 * buffered whole), reported, and answered with `-32600` (with the request id when its edges show one); the
 * server keeps serving either way. Only JSON lines become messages, each parsed once.
 *
 * `serveStdio` (rather than a hand-wired `server.connect(new StdioServerTransport())`) answers both
 * the 2025 `initialize` opening that today's clients send and the 2026-07-28 `server/discover` opening.
 */
export function serveMcpStdio(
  deps: Partial<McpDeps> = {},
  io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): StdioServerHandle {
  const resolved = {
    ...resolveDeps(deps),
    served: deps.served === undefined ? servedRoots(deps.cwd ?? process.cwd()) : deps.served,
  };
  const toStderr = (...args: unknown[]) => resolved.log(format(...args));
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const stdin = (io.stdin ?? process.stdin) as NodeJS.ReadableStream & { pause(): unknown };
  const stdout = (io.stdout ?? process.stdout) as NodeJS.WritableStream & import('node:stream').Writable;
  const answer = (id: string | number | null, code: number, message: string) => {
    transport
      .send({ jsonrpc: '2.0', id, error: { code, message } } as never)
      .catch((error: Error) => resolved.log(`hestai mcp: ${oneLine(error.message)}`));
  };
  const transport = new GatedStdioTransport(stdin, stdout, {
    notJson: (preview, bytes, reason) => {
      resolved.log(`hestai mcp: ignored a line that is not JSON (${bytes} bytes, ${oneLine(reason, 120)}): ${preview}`);
      answer(null, -32700, `Parse error: the line is not a JSON-RPC message (${oneLine(reason, 120)})`);
    },
    oversized: (bytes, id) => {
      resolved.log(
        `hestai mcp: dropped a line of ${bytes} bytes, over the 10 MiB limit${id === null ? '' : ` (request id ${JSON.stringify(id)})`}`,
      );
      answer(
        id,
        -32600,
        `Invalid Request: the message is ${bytes} bytes, over the 10 MiB limit of this server; send smaller arguments`,
      );
    },
  });
  return serveStdio(() => createServer(resolved), {
    transport,
    onerror: (error) => resolved.log(`hestai mcp: ${oneLine(error.message)}`),
  });
}
