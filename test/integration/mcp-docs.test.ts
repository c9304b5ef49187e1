// Docs that stay true (issue 27 item 9): docs/mcp.md's tool tables name exactly the tools the server lists,
// each with the arguments its input schema has (optional ones written `name?`), and the resources it serves.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectInProcess } from '../helpers/mcp.js';

const DOC = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8');

/** The rows of the tool tables: tool name → the arguments written before the first top-level `→`. */
function documentedTools(): Map<string, string[]> {
  const tools = new Map<string, string[]>();
  for (const m of DOC.matchAll(/^\| `([a-z_]+)` \| (.*?) \| [^|]* \|$/gm)) {
    // Parentheses explain an argument (`stage` (`identity` → `context` → `proof`)): not arguments themselves.
    const cell = m[2]!.replace(/\([^()]*\)/g, '');
    const before = cell.includes('→') ? cell.slice(0, cell.indexOf('→')) : '';
    tools.set(
      m[1]!,
      [...before.matchAll(/`([a-z_]+\??)`/g)].map((a) => a[1]!),
    );
  }
  return tools;
}

describe('docs/mcp.md names exactly the MCP server', () => {
  it('has a row for every tool, with its arguments and which are optional', async () => {
    const mcp = await connectInProcess();
    const { tools } = await mcp.client.listTools();
    const documented = documentedTools();
    expect([...documented.keys()].sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of tools) {
      const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
      const required = new Set(schema.required ?? []);
      // Every tool takes working_dir, and the protocol tools an optional session_id (said above their table).
      const args = Object.keys(schema.properties ?? {})
        .filter((name) => name !== 'working_dir')
        .filter(
          (name) => !(name === 'session_id' && documented.get(tool.name)!.every((a) => !a.startsWith('session_id'))),
        )
        .map((name) => (required.has(name) ? name : `${name}?`));
      expect(documented.get(tool.name)!.sort(), tool.name).toEqual(args.sort());
    }
  });

  it('names every resource the server serves', async () => {
    const mcp = await connectInProcess();
    const uris = [
      ...(await mcp.client.listResources()).resources.map((r) => r.uri),
      ...(await mcp.client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate),
    ];
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) expect(DOC, uri).toContain(`\`${uri}\``);
  });
});
