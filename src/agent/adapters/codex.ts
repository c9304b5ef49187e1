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
 * and send the agent back at Stop). Its PreToolUse sees shell calls only, as `Bash` with `tool_input.command`;
 * a file edit arrives as an `apply_patch` command, read here as a write of the files its patch names.
 * Codex has no file the agent's shell sources.
 */
export const codexAdapter: RuntimeAdapter = {
  ...claudeCodeAdapter,
  runtime: 'codex',
  label: 'Codex',
  toolUse: (payload): ToolUse => {
    const use = toolUseFromClaude(payload['tool_name'], payload['tool_input']);
    if (use.tool === 'Bash' && use.command !== null && /^\s*apply_patch\b/.test(use.command))
      return { tool: 'apply_patch', paths: patchedFiles(use.command), command: null, kind: 'write' };
    return use;
  },
  // Codex offers an MCP server's tools as the namespace mcp__<server>; its hooks see mcp__<server>__<tool>
  mcpTool: claudeCodeAdapter.mcpTool,
  envFileVar: null,
};
