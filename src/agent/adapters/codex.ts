import { toolUseFromClaude, type ToolUse } from '../tool-use.js';
import { claudeCodeAdapter } from './claude-code.js';
import type { RuntimeAdapter } from './types.js';

// Codex's parser trims each line (Rust's char::is_whitespace: a JavaScript \s and U+0085) before it reads a header.
const HEADER = /^[\s\u0085]*\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+)$/gm;

/**
 * The files an `apply_patch` body adds, updates, deletes or moves (`*** Update File: path`, `*** Move to: path`),
 * its headers read as Codex reads them: after any leading whitespace.
 */
export function patchedFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(HEADER)) {
    const file = (match[1] ?? '').replace(/^[\s\u0085]+|[\s\u0085]+$/g, '');
    if (file !== '' && !files.includes(file)) files.push(file);
  }
  return files;
}

// The shell forms Codex applies itself (invocation.rs): `apply_patch <<EOF`, optionally after `cd <path> &&`.
const SHELL_FORM = /^\s*(?:cd\s+('[^']*'|"[^"]*"|[^\s;&|]+)\s*&&\s*)?(?:apply_patch|applypatch)\b/;

function patchUse(patch: string, dir: string | null): ToolUse {
  const use: ToolUse = { tool: 'apply_patch', paths: [], command: null, kind: 'write' };
  if (dir !== null && /[$`*?[{]/.test(dir))
    return {
      ...use,
      refuse: {
        reason: `its \`cd ${dir}\` names a directory hestai cannot resolve, so its files are unknown`,
        fix: 'give `cd` a plain directory (no $, `, *, ?, [ or {), or leave the cd out',
      },
    };
  const files = patchedFiles(patch);
  if (files.length === 0)
    return {
      ...use,
      refuse: {
        reason:
          'its patch names no file hestai can read (no `*** Add File:`, `*** Update File:`, `*** Delete File:` or `*** Move to:` header), so it may write any file',
        fix: 'name every file the patch writes with a `*** Add File: <path>`, `*** Update File: <path>` or `*** Delete File: <path>` line',
      },
    };
  const under = dir === null || dir === '.' ? null : dir.replace(/\/+$/, '');
  return {
    ...use,
    paths: files.map((f) => (under === null || f.startsWith('/') || f.startsWith('~') ? f : `${under}/${f}`)),
  };
}

/**
 * Codex CLI's hooks (`.codex/hooks.json`): the payload is Claude Code's shape (`hook_event_name`,
 * `session_id`, `cwd`, `tool_name`, `tool_input`) and so are the answers (exit 2 and stderr block a tool call
 * and send the agent back at Stop). Its PreToolUse sees shell calls as `Bash` with `tool_input.command`, its
 * `apply_patch` tool as `apply_patch` with the raw patch as `tool_input.command` (an `apply_patch <<'EOF'`
 * shell command, optionally after `cd <dir> &&`, is the same edit), read here as a write of the files its patch
 * names (a patch that names none is refused: fail closed), and MCP tools as
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
    if (use.tool === 'apply_patch') return patchUse(use.command ?? '', null);
    const shell = use.tool === 'Bash' ? SHELL_FORM.exec(use.command ?? '') : null;
    if (shell !== null) return patchUse(use.command ?? '', shell[1]?.replace(/^(['"])(.*)\1$/, '$2') ?? null);
    return use;
  },
  // Codex offers an MCP server's tools as the namespace mcp__<server>; its hooks see mcp__<server>__<tool>
  mcpTool: claudeCodeAdapter.mcpTool,
  envFileVar: null,
};
