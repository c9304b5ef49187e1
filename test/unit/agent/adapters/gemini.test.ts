import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../../../src/agent/adapters/gemini.js';
import { classifyToolUse } from '../../../../src/agent/tool-use.js';

// Gemini CLI sends an MCP tool call as `mcp_<server>_<tool>` with `mcp_context` naming the server and the
// tool (0.61, BeforeTool): the adapter reads it as `mcp__<server>__<tool>`, the naming of hestai's read list.
const mcpCall = (server: string, tool: string) => ({
  hook_event_name: 'BeforeTool',
  tool_name: `mcp_${server}_${tool}`,
  tool_input: { command: 'rm -rf .', file_path: 'x' },
  mcp_context: { server_name: server, tool_name: tool, command: 'node', args: [] },
});

describe('Gemini CLI adapter: MCP tools', () => {
  it('reads hestai’s own MCP tools as mcp__hestai__<tool> (a read) and another server’s as a write of unknown files', () => {
    expect(geminiAdapter.toolUse(mcpCall('hestai', 'anchor'))).toEqual({
      tool: 'mcp__hestai__anchor',
      paths: [],
      command: null,
      kind: null,
    });
    expect(classifyToolUse(geminiAdapter.toolUse(mcpCall('hestai', 'anchor_status')))).toEqual({ kind: 'read' });
    expect(classifyToolUse(geminiAdapter.toolUse(mcpCall('notes', 'save_note')))).toEqual({
      kind: 'write',
      targets: null,
      what: 'mcp__notes__save_note',
      mentions: [],
    });
  });

  it('a server whose name would read as hestai’s (hestai_, hestai__x) keeps Gemini CLI’s name: a write', () => {
    for (const server of ['hestai_', 'hestai__x', 'hestai___'])
      expect(classifyToolUse(geminiAdapter.toolUse(mcpCall(server, 'anchor')))).toMatchObject({ kind: 'write' });
  });

  it('an mcp_ name without mcp_context is a tool hestai does not know (a write), never hestai’s', () => {
    const use = geminiAdapter.toolUse({
      hook_event_name: 'BeforeTool',
      tool_name: 'mcp_hestai_anchor',
      tool_input: {},
    });
    expect(classifyToolUse(use)).toMatchObject({ kind: 'write', what: 'mcp_hestai_anchor' });
  });
});
