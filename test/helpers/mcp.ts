import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach } from 'vitest';
import { createServer, type McpDeps } from '../../src/mcp/server.js';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

/** What a tool call returns, narrowed to what the tests read. */
export interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

export interface InProcess {
  client: Client;
  /** Lines the server wrote to its diagnostic log (stderr in production). */
  logs: string[];
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  read(uri: string): Promise<unknown>;
}

/**
 * The server under test, in this process, linked to the SDK's real client by an in-memory transport
 * pair (no stdio, no child process). Closed after the test.
 */
export async function connectInProcess(deps: Partial<McpDeps> = {}): Promise<InProcess> {
  const logs: string[] = [];
  const server = createServer({ log: (line) => logs.push(line), ...deps });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'hestai-test', version: '1.0.0' });
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return {
    client,
    logs,
    async call(name, args) {
      return (await client.callTool({ name, arguments: args })) as ToolResult;
    },
    async read(uri) {
      const result = await client.readResource({ uri });
      const first = result.contents[0] as { text?: string; mimeType?: string } | undefined;
      if (!first || typeof first.text !== 'string') throw new Error(`resource ${uri} returned no text`);
      return first.mimeType === 'application/json' ? (JSON.parse(first.text) as unknown) : first.text;
    },
  };
}

/** The readable text of a tool result (all text blocks joined). */
export function textOf(result: ToolResult): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}
