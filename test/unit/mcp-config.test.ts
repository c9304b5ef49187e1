import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedBinPath, MCP_CONFIG_FILE, mcpJsonFor, mergeMcpJson } from '../../src/setup/mcp-json.js';

const BIN = '/home/me/project/node_modules/hestai-hooks/dist/cli/bin.js';

describe('mcpJsonFor: the .mcp.json that registers the server for Claude Code', () => {
  it('runs the installed entrypoint by absolute path over stdio', () => {
    expect(MCP_CONFIG_FILE).toBe('.mcp.json');
    expect(mcpJsonFor(BIN)).toEqual({
      mcpServers: { hestai: { type: 'stdio', command: 'node', args: [BIN, 'mcp'], env: {} } },
    });
  });

  it('points at the built dist/cli/bin.js from the sources too (tsx, tests), not at src/cli/bin.js', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    expect(installedBinPath()).toBe(path.join(root, 'dist/cli/bin.js'));
  });

  it('takes a project-relative entrypoint (a dependency: the file a team commits), never one that leaves the project', () => {
    const relative = 'node_modules/hestai-hooks/dist/cli/bin.js';
    expect(mcpJsonFor(relative).mcpServers.hestai.args).toEqual([relative, 'mcp']);
    expect(() => mcpJsonFor('../elsewhere/dist/cli/bin.js')).toThrow(/absolute path nor a plain path inside/);
    expect(() => mcpJsonFor('node_modules/x y/bin.js')).toThrow(/absolute path nor a plain path inside/);
  });

  it('adds the server to an existing .mcp.json and keeps the other servers and keys', () => {
    const existing = JSON.stringify({ mcpServers: { other: { command: 'other-server', args: [] } }, note: 'kept' });
    const merged = JSON.parse(mergeMcpJson(existing, BIN, '/p/.mcp.json')) as Record<string, unknown>;
    expect(merged).toEqual({
      mcpServers: {
        other: { command: 'other-server', args: [] },
        hestai: { type: 'stdio', command: 'node', args: [BIN, 'mcp'], env: {} },
      },
      note: 'kept',
    });
  });

  it('replaces a stale hestai entry and ends the file with a newline', () => {
    const existing = JSON.stringify({ mcpServers: { hestai: { command: 'node', args: ['/old/bin.js', 'mcp'] } } });
    const text = mergeMcpJson(existing, BIN, '/p/.mcp.json');
    expect(text.endsWith('}\n')).toBe(true);
    expect((JSON.parse(text) as { mcpServers: { hestai: { args: string[] } } }).mcpServers.hestai.args).toEqual([
      BIN,
      'mcp',
    ]);
  });

  it('writes a fresh file when there is none', () => {
    expect(JSON.parse(mergeMcpJson(null, BIN, '/p/.mcp.json'))).toEqual(mcpJsonFor(BIN));
  });

  it('refuses to overwrite a .mcp.json that is not valid JSON, naming the file', () => {
    expect(() => mergeMcpJson('{"mcpServers": ', BIN, '/p/.mcp.json')).toThrow(/\/p\/\.mcp\.json.*not valid JSON/);
    expect(() => mergeMcpJson('{"mcpServers": []}', BIN, '/p/.mcp.json')).toThrow(/mcpServers/);
  });
});

describe('the package root exports the MCP adapter', () => {
  it('exports createServer, serveMcpStdio and the .mcp.json helpers', async () => {
    const api = await import('../../src/index.js');
    expect(typeof api.createServer).toBe('function');
    expect(typeof api.serveMcpStdio).toBe('function');
    expect(api.mcpJsonFor(BIN).mcpServers.hestai.args).toEqual([BIN, 'mcp']);
    expect(typeof api.mergeMcpJson).toBe('function');
  });
});
