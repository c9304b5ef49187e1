import path from 'node:path';
import { appendAudit } from '../audit.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config/load.js';
import { isHestaiError } from '../errors.js';
import { workspacePaths } from '../paths.js';
import { UUID_V4 } from '../util/validate.js';
import { isLive, readSession } from '../records/session.js';
import { checkRuntimeSessionId, readBinding } from './binding.js';
import type { AgentRuntime } from '../setup/runtime-settings.js';
import { shellQuote } from '../util/quote.js';
import { decideToolUse, hestaiBins, refusalText } from './decide.js';
import { agentCliFor, findProjectRoot } from './project-root.js';
import { classifyToolUse, type ToolUse } from './tool-use.js';
import { claudeCodeAdapter } from './adapters/claude-code.js';
import type { HookAnswer, RuntimeAdapter } from './adapters/types.js';

/** How long the hook may take before it gives up (and fails closed for edits); Claude Code's own limit is longer. */
export const HOOK_DEADLINE_MS = 5_000;

export interface ClaudeHookIo {
  stdin: () => Promise<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The installed package root (where hooks/ and dist/ are). */
  packageRoot: string;
  /** Loads the SessionStart handler (it clocks in, which the PreToolUse path never needs). */
  loadSessionStart: () => Promise<typeof import('./session-start.js')>;
  /** The runtime whose hook this is (default Claude Code): reads its payloads, says the answers its way. */
  adapter?: RuntimeAdapter;
  /** The event the hook command names (`hooks/agent-hook copilot preToolUse`), for a payload that does not say it. */
  event?: string | null;
}

class HookInputError extends Error {}

function parsePayload(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HookInputError(`the hook input on stdin is not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HookInputError('the hook input on stdin is not a JSON object');
  return value as Record<string, unknown>;
}

function message(error: unknown): string {
  if (isHestaiError(error))
    return `${[error.message, ...error.details].join('\n  ')}${error.remedy ? `\n  (hint: ${error.remedy})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** The command that runs this hook, for messages that tell the model how to run a step of it by hand. */
export function hookCommandFor(packageRoot: string, runtime: AgentRuntime = 'claude-code'): string {
  return runtime === 'claude-code'
    ? `node ${shellQuote(path.join(packageRoot, 'hooks', 'claude-code'))}`
    : `node ${shellQuote(path.join(packageRoot, 'hooks', 'agent-hook'))} ${runtime}`;
}

/**
 * Claude Code's hook command (`hooks/claude-code`, one command for every event; the event is in the JSON
 * on stdin). PreToolUse: exit 2 refuses the tool call and its stderr is the reason the model reads; exit 0
 * lets it through. SessionStart: clocks in or resumes, binds the runtime session, exports HESTAI_SESSION
 * through CLAUDE_ENV_FILE, and prints the context summary and next step (stdout joins the model's context).
 * A failure or a missing input within HOOK_DEADLINE_MS fails closed for an edit (exit 2, "hestai hook
 * failed: ...") and open for a read.
 */
export async function runClaudeHook(io: ClaudeHookIo): Promise<number> {
  const adapter = io.adapter ?? claudeCodeAdapter;
  let event: string | null = null;
  let tool: ToolUse | null = null;
  let seen: Record<string, unknown> = {};
  const failed = (error: unknown): number => {
    const why = message(error);
    if (event === 'PreToolUse' || event === null) {
      if (tool !== null && classifyToolUse(tool, hestaiBins(io.packageRoot)).kind === 'read') {
        io.stderr(`hestai hook failed: ${why} (a read is allowed anyway: reads fail open)\n`);
        return answer(io, adapter.allow());
      }
      return answer(
        io,
        adapter.refuse(
          `hestai hook failed: ${why}\nhestai refuses changes it cannot check (it fails closed for edits; reads still work). fix: tell a human that the hestai hook fails; they can run it by hand to see why: ${hookCommandFor(io.packageRoot, adapter.runtime)}\n`,
          seen,
        ),
      );
    }
    io.stderr(`hestai hook failed (${event}): ${why}\n`);
    return event === 'Stop' ? 0 : 1; // a failed Stop never keeps the agent working (2 would)
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<number>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          failed(
            new Error(
              `no answer within ${HOOK_DEADLINE_MS / 1000} s (${event === null ? 'the input on stdin never ended' : 'the check did not finish'})`,
            ),
          ),
        ),
      HOOK_DEADLINE_MS,
    );
  });
  const work = (async () => {
    const raw = parsePayload(await io.stdin());
    const payload = adapter.normalize ? adapter.normalize(raw, io.event ?? null) : raw;
    seen = payload;
    const name = payload['hook_event_name'];
    if (typeof name !== 'string' || name === '') {
      // Without the event hestai cannot tell what is asked: a write is refused, a listed read goes on.
      tool = adapter.toolUse(payload);
      throw new HookInputError('the hook input has no hook_event_name, so hestai cannot tell which event it is');
    }
    event = adapter.event(payload) ?? '';
    const startSession = async (stdout: (text: string) => void) => {
      clearTimeout(timer); // clocking in gathers context; Claude Code's own SessionStart timeout applies
      const { sessionStart } = await io.loadSessionStart();
      return sessionStart({
        ...rootAndCwd(io, payload),
        payload,
        env: io.env,
        packageRoot: io.packageRoot,
        stdout,
        stderr: io.stderr,
        adapter,
      });
    };
    if (event === 'PreToolUse') {
      tool = adapter.toolUse(payload);
      let started: string | null = null;
      if (adapter.bindsAtFirstCall === true && unbound(io, adapter, payload)) {
        started = '';
        await startSession((text) => (started += text));
      }
      return preToolUse(io, adapter, payload, tool, started);
    }
    if (event === 'SessionStart') return startSession(io.stdout);
    if (event === 'Stop') return stop(io, adapter, payload);
    return 0; // events hestai does not handle are let through
  })().catch(failed);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The project root, from where the runtime started the hook: its project-directory variable (Claude Code's
 * CLAUDE_PROJECT_DIR, which Gemini CLI also sets, Cursor's CURSOR_PROJECT_DIR), else the directory the hook runs
 * in (each runtime starts its hooks in the project) — never the payload's `cwd`, which says only where the call
 * runs (issue 37). `cwd`: where its relative paths are resolved, the payload's absolute `cwd` or the root.
 */
function rootAndCwd(io: ClaudeHookIo, payload: Record<string, unknown>): { root: string; cwd: string } {
  const start = io.env['CLAUDE_PROJECT_DIR'] || io.env['CURSOR_PROJECT_DIR'] || io.cwd;
  const root = findProjectRoot(start);
  if (root === null)
    throw new HookInputError(
      `${start} is not inside a git work tree or a directory with .hestai/ (the project directory the runtime started the hook in)`,
    );
  const cwd = typeof payload['cwd'] === 'string' && path.isAbsolute(payload['cwd']) ? payload['cwd'] : root;
  return { root, cwd };
}

/** True when the runtime session of a tool call is bound to no hestai session and none is pinned (HESTAI_SESSION). */
function unbound(io: ClaudeHookIo, adapter: RuntimeAdapter, payload: Record<string, unknown>): boolean {
  if (UUID_V4.test(io.env['HESTAI_SESSION']?.trim() ?? '')) return false;
  const { root } = rootAndCwd(io, payload);
  return readBinding(workspacePaths(root), adapter.runtime, checkRuntimeSessionId(payload['session_id'])) === null;
}

/** Writes a runtime's answer; resolves to its exit code. */
function answer(io: ClaudeHookIo, said: HookAnswer): number {
  if (said.stdout !== undefined) io.stdout(said.stdout);
  if (said.stderr !== undefined) io.stderr(said.stderr);
  return said.code;
}

async function preToolUse(
  io: ClaudeHookIo,
  adapter: RuntimeAdapter,
  payload: Record<string, unknown>,
  tool: ToolUse,
  started: string | null = null,
): Promise<number> {
  // an allowed first call of a session bound just now carries SessionStart's context (`bindsAtFirstCall`)
  const allow = () => (started === null ? answer(io, adapter.allow()) : (io.stdout(started), 0));
  const kind = classifyToolUse(tool, hestaiBins(io.packageRoot)).kind;
  if (kind === 'read' || kind === 'hestai') return allow();
  const { root, cwd: callCwd } = rootAndCwd(io, payload);
  const cwd = tool.dir === undefined ? callCwd : path.resolve(root, tool.dir); // Gemini CLI's dir_path
  const paths = workspacePaths(root);
  const runtimeId = checkRuntimeSessionId(payload['session_id']);
  const binding = readBinding(paths, adapter.runtime, runtimeId);
  const pinned = io.env['HESTAI_SESSION']?.trim();
  const sessionId = binding?.session_id ?? (pinned && UUID_V4.test(pinned) ? pinned : null);
  const clock = systemClock; // agent-runtime hooks ignore HESTAI_NOW: nothing records it (docs/configuration.md)
  const cli = agentCliFor(root, io.packageRoot);
  const rebind = `${hookCommandFor(io.packageRoot, adapter.runtime)} --session-start ${runtimeId}`;
  const decision = await decideToolUse({
    paths,
    cwd,
    use: tool,
    sessionId,
    noSessionFix: `this ${adapter.label} session (${runtimeId}) is bound to no live hestai session (its SessionStart hook binds one and clocks in). Bind one now by running that step: ${rebind}`,
    config: async () => (await loadConfig(root)).config,
    now: clock(),
    cli,
    env: io.env,
    packageRoot: io.packageRoot,
    mcpTool: adapter.mcpTool,
  });
  if (decision.allow) return allow();
  appendAudit(paths, {
    event: 'agent_tool_refused',
    session_id: decision.session_id,
    at: clock().toISOString(),
    runtime: adapter.runtime,
    runtime_session_id: runtimeId,
    code: decision.code,
    what: decision.what,
  });
  return answer(io, adapter.refuse(refusalText(decision), payload));
}

/**
 * Stop (with `protocol.enforce` and `agents.stop_gate`): exit 2 sends the agent back to work, its stderr
 * naming each unmet MUST end gate and how to meet it — at most once per turn: when Claude Code says a Stop
 * hook already sent it back (`stop_hook_active`), the agent may stop. Without a bound session there is
 * nothing to hold it to. A failure here never keeps the agent working (exit 1: Claude Code goes on).
 */
async function stop(io: ClaudeHookIo, adapter: RuntimeAdapter, payload: Record<string, unknown>): Promise<number> {
  if (payload['stop_hook_active'] === true) return 0;
  const { root } = rootAndCwd(io, payload);
  const { config } = await loadConfig(root);
  if (!config.protocol.enforce || !config.agents.stop_gate) return 0;
  const paths = workspacePaths(root);
  const binding = readBinding(paths, adapter.runtime, checkRuntimeSessionId(payload['session_id']));
  const session = binding === null ? null : readSession(paths, binding.session_id);
  if (session === null || !isLive(session)) return 0;
  const { judgeAgentProtocol } = await import('../protocol/agent-gate.js');
  const cli = agentCliFor(root, io.packageRoot);
  const verdict = await judgeAgentProtocol(paths, config, session, io.env, systemClock(), 'stop', cli);
  if (verdict.ok || verdict.code === 'NO_PROTOCOL') return 0;
  const lines = [`hestai: not done yet: ${verdict.reason}.`];
  for (const u of verdict.unmet)
    lines.push(
      `  - ${u.result.phase}/${u.result.gate} (${u.result.step}): ${u.result.message}`,
      `      MCP: ${u.mcp}`,
      `      run: ${u.cli}`,
    );
  lines.push(
    `fix: ${verdict.code === 'NOT_STARTED' ? verdict.remedy : `${verdict.remedy}; then ${cli} clock-out --session ${session.session_id} (MCP clock_out)`}`,
  );
  return answer(io, adapter.holdStop(`${lines.join('\n')}\n`));
}
