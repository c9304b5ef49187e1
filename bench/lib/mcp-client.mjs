// An MCP client over stdio (the SDK's own client), used in-process by the runner to time servers.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { performance } from 'node:perf_hooks';
import { peakRssOf } from './measure.mjs';

/** Spawns a stdio server and connects (initialize handshake); returns `{client, transport, pid}`. */
export async function connect({ command, args, cwd, env }) {
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'hestai-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`MCP server ${[command, ...args].join(' ')} failed to start: ${error.message}\n${stderr}`);
  }
  return { client, transport, pid: transport.pid, stderr: () => stderr };
}

/** Calls a tool and throws when the result is an error (a failing call is never a fast sample). */
export async function callTool(session, name, args = {}) {
  const result = await session.client.callTool({ name, arguments: args });
  if (result.isError) {
    throw new Error(`MCP tool ${name} failed: ${JSON.stringify(result.content).slice(0, 2000)}\n${session.stderr()}`);
  }
  return result;
}

/** Cold start: spawn, initialize, one tool call, measured to the first tool result. Returns wall ms and the server's peak RSS. */
export async function coldRoundTrip(server, tool, args = {}) {
  const start = performance.now();
  const session = await connect(server);
  await callTool(session, tool, args);
  const wallMs = performance.now() - start;
  const rssKb = peakRssOf(session.pid);
  await session.client.close();
  return { wallMs, rssKb };
}
