import { toolUseFromClaude, type ToolUse } from '../tool-use.js';
import { claudeCodeAdapter } from './claude-code.js';
import type { RuntimeAdapter } from './types.js';

/** The files an `apply_patch` body adds, updates, deletes or moves (`*** Update File: path`, `*** Move to: path`). */
export function patchedFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) {
    const file = (match[1] ?? match[2] ?? '').trim();
    if (file !== '' && !files.includes(file)) files.push(file);
  }
  return files;
}

/**
 * Codex CLI's hooks (`.codex/hooks.json`): the payload is Claude Code's shape (`hook_event_name`,
 * `session_id`, `cwd`, `tool_name`, `tool_input`) and so are the answers (exit 2 and stderr block a tool call
 * and send the agent back at Stop). Its PreToolUse sees shell calls as `Bash` with `tool_input.command`, its
 * `apply_patch` tool as `apply_patch` with the raw patch as `tool_input.command` (an `apply_patch <<'EOF'`
 * shell command is the same edit), read here as a write of the files its patch names, and MCP tools as
 * `mcp__<server>__<tool>`.
 * Codex has no file the agent's shell sources.
 */
export const codexAdapter: RuntimeAdapter = {
  ...claudeCodeAdapter,
  runtime: 'codex',
  label: 'Codex',
  toolUse: (payload): ToolUse => {
    const use = toolUseFromClaude(payload['tool_name'], payload['tool_input']);
    // its apply_patch tool (tool_name apply_patch, the raw patch as the command), or the shell form
    const patch =
      use.tool === 'apply_patch' || (use.tool === 'Bash' && /^\s*apply_patch\b/.test(use.command ?? ''))
        ? (use.command ?? '')
        : null;
    if (patch !== null) return { tool: 'apply_patch', paths: patchedFiles(patch), command: null, kind: 'write' };
    return use;
  },
  // Codex offers an MCP server's tools as the namespace mcp__<server>; its hooks see mcp__<server>__<tool>
  mcpTool: claudeCodeAdapter.mcpTool,
  envFileVar: null,
};
