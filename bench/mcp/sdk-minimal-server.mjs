// The MCP SDK's own minimal stdio server: one trivial tool and one trivial resource, nothing else. The baseline for `hestai mcp`.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const server = new McpServer({ name: 'bench-minimal', version: '1.0.0' });
server.registerTool('ping', { description: 'Answers pong.' }, async () => ({
  content: [{ type: 'text', text: 'pong' }],
}));
server.registerResource('static', 'bench://static', { mimeType: 'application/json' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: '{}' }],
}));
await server.connect(new StdioServerTransport());
