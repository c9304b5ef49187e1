import path from 'node:path';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config/load.js';
import { isHestaiError, usageError } from '../errors.js';
import { workspacePaths } from '../paths.js';
import { UUID_V4 } from '../util/validate.js';
import { decideToolUse, hestaiBins, refusalText, type ToolUseDecision } from './decide.js';
import { agentCliFor, findProjectRoot } from './project-root.js';
import { TOOL_ALIASES } from '../util/agent-tools.js';
import { classifyToolUse, toolUseFromClaude, type ToolUse } from './tool-use.js';

export interface ToolUseCheckIo {
  stdin: () => Promise<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Where the worktree is looked for (`--cwd`, else the current directory). */
  cwd: string;
  packageRoot: string;
  /** `--json`: one JSON document on stdout. */
  json: boolean;
  /** The exit code of a refusal: 1 (hestai's "blocked", the default) or 2 (runtimes where 2 blocks). */
  denyExit: 1 | 2;
}

const fail = (what: string) =>
  usageError(`tool-use input: ${what}`, {
    code: 'AGENT_INPUT_INVALID',
    remedy:
      'Send one JSON object on stdin: {"tool": "Edit", "paths": ["src/a.ts"], "command": null, "kind": null, "hestai_session": "<session id>", "cwd": "/abs/dir"} (README "Agent runtimes").',
  });

/**
 * Pure: the documented stdin of `hestai check tool-use` as a ToolUse, its hestai session and its cwd.
 * `tool` (or a runtime's `tool_name`) is required; `paths`, `command` and `kind` may come flat or, as
 * Claude Code and Gemini CLI send them, inside `tool_input`. The session is `hestai_session`, never the
 * runtime's own `session_id`.
 */
export function parseToolUseInput(text: string): { use: ToolUse; hestaiSession: string | null; cwd: string | null } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw fail(`not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail('not a JSON object');
  const input = value as Record<string, unknown>;
  const tool = input['tool'] ?? input['tool_name'];
  if (typeof tool !== 'string' || tool === '') throw fail('"tool" (a tool name, e.g. "Edit" or "Bash") is required');
  const fromRuntime = toolUseFromClaude(tool, input['tool_input']);
  const paths = input['paths'];
  if (paths !== undefined && !(Array.isArray(paths) && paths.every((p) => typeof p === 'string')))
    throw fail('"paths" must be a list of strings');
  const command = input['command'];
  if (command !== undefined && command !== null && typeof command !== 'string')
    throw fail('"command" must be a string or null');
  const kind = input['kind'];
  if (kind !== undefined && kind !== null && kind !== 'read' && kind !== 'write')
    throw fail('"kind" must be "read", "write" or null');
  const session = input['hestai_session'];
  if (session !== undefined && session !== null && !(typeof session === 'string' && UUID_V4.test(session)))
    throw fail('"hestai_session" must be a session id (UUID v4) as clock-in returns it');
  const cwd = input['cwd'];
  if (cwd !== undefined && cwd !== null && !(typeof cwd === 'string' && path.isAbsolute(cwd)))
    throw fail('"cwd" must be an absolute path');
  return {
    use: {
      tool: TOOL_ALIASES[tool] ?? tool,
      paths: (paths as string[] | undefined) ?? fromRuntime.paths,
      command: (command as string | null | undefined) ?? fromRuntime.command,
      kind: (kind as 'read' | 'write' | null | undefined) ?? null,
    },
    hestaiSession: (session as string | null | undefined) ?? null,
    cwd: (cwd as string | null | undefined) ?? null,
  };
}

/**
 * `hestai check tool-use`: the edit-time rule for any agent runtime. Reads the documented JSON on stdin,
 * answers allow (exit 0) or deny (exit 1, or `denyExit`) with the reason and fix on stderr (`--json`: the
 * decision on stdout). Bad input or a failure is exit 2 — except for a call recognised as a read, which is
 * allowed (reads fail open); callers must treat any other non-zero exit as a refusal.
 */
export async function runToolUseCheck(io: ToolUseCheckIo): Promise<number> {
  let use: ToolUse | null = null;
  try {
    const parsed = parseToolUseInput(await io.stdin());
    use = parsed.use;
    const cwd = parsed.cwd ?? io.cwd;
    let decision: ToolUseDecision;
    if (classifyToolUse(use, hestaiBins(io.packageRoot)).kind === 'read') {
      decision = {
        allow: true,
        code: 'READ',
        reason: 'reads are never gated',
        fix: null,
        session_id: null,
        what: 'read',
      };
    } else {
      const root = findProjectRoot(io.cwd);
      if (root === null)
        throw usageError(`${io.cwd} is not inside a git work tree or a directory with .hestai/`, {
          code: 'NOT_A_REPO',
          remedy: 'Run it in the repository, or pass --cwd.',
        });
      const pinned = io.env['HESTAI_SESSION']?.trim();
      const { config } = await loadConfig(root);
      const cli = agentCliFor(root, io.packageRoot);
      decision = await decideToolUse({
        paths: workspacePaths(root),
        cwd,
        use,
        sessionId: parsed.hestaiSession ?? (pinned && UUID_V4.test(pinned) ? pinned : null),
        noSessionFix: `clock in (${cli} clock-in --role <role> --json) and pass its session_id as "hestai_session" in the input, or set HESTAI_SESSION for the runtime`,
        config,
        now: systemClock(), // agent-runtime hooks ignore HESTAI_NOW (docs/configuration.md)
        cli,
        env: io.env,
        packageRoot: io.packageRoot,
      });
    }
    if (io.json) io.stdout(`${JSON.stringify(decision, null, 2)}\n`);
    if (decision.allow) return 0;
    io.stderr(refusalText(decision));
    return io.denyExit;
  } catch (error) {
    const why = isHestaiError(error)
      ? `${error.message}${error.remedy ? `\nhint: ${error.remedy}` : ''}`
      : error instanceof Error
        ? error.message
        : String(error);
    const read = use !== null && classifyToolUse(use, hestaiBins(io.packageRoot)).kind === 'read';
    if (io.json)
      io.stdout(
        `${JSON.stringify({ allow: read, code: 'ERROR', reason: why.split('\n')[0], fix: null, session_id: null, what: read ? 'read' : 'unknown' }, null, 2)}\n`,
      );
    io.stderr(`hestai: check tool-use failed: ${why}\n`);
    return read ? 0 : 2;
  }
}
