import fs from 'node:fs';
import { hasValidAnchor } from '../records/anchor.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config/load.js';
import { usageError } from '../errors.js';
import { judgeSession } from '../hooks/session-verdict.js';
import { contextAgeHours } from '../records/freshness.js';
import { workspacePaths } from '../paths.js';
import { clockIn } from '../session/clock-in.js';
import { isLive, readSession, type SessionRecord } from '../records/session.js';
import { contextPaths } from '../session/response.js';
import { processChain } from '../util/proc.js';
import { payloadModel } from '../records/attribution.js';
import { shellQuote } from '../util/quote.js';
import { hooksDirAsync } from '../git/async.js';
import { checkRuntimeSessionId, readBinding, writeBinding } from './binding.js';
import { anchorStep } from './decide.js';
import { agentCliFor } from './project-root.js';
import type { RuntimeAdapter } from './adapters/types.js';

/** The role SessionStart clocks in as when `HESTAI_ROLE` does not name one. */
export const DEFAULT_AGENT_ROLE = 'implementation-lead';

export interface SessionStartInput {
  root: string;
  cwd: string;
  payload: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  packageRoot: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The runtime (its binding namespace, its name, how its context is said and its shell's env file). */
  adapter: RuntimeAdapter;
}

const live = (s: SessionRecord | null): s is SessionRecord => s !== null && isLive(s);

/**
 * Claude Code's SessionStart: the hestai session bound to this runtime session (`session_id` of the input)
 * is resumed while it is live (so `resume`, `clear` and `compact` keep it); otherwise the agent is clocked
 * in (role `HESTAI_ROLE`, default implementation-lead; `on_conflict: continue`, so agents work side by side)
 * and the binding written under `.hestai/sessions/bindings/claude-code/`. `export HESTAI_SESSION=<id>` is
 * appended to `CLAUDE_ENV_FILE`, so every command the agent's shell runs — `git commit` above all — is
 * judged under its own session. stdout (the model reads it) says which session, its context and the next
 * step of the ceremony.
 */
export async function sessionStart(input: SessionStartInput): Promise<number> {
  const { root, env } = input;
  const paths = workspacePaths(root);
  const clock = systemClock; // agent-runtime hooks ignore HESTAI_NOW: nothing records it (docs/configuration.md)
  const runtimeId = checkRuntimeSessionId(input.payload['session_id']);
  const binding = readBinding(paths, input.adapter.runtime, runtimeId);
  let session = binding ? readSession(paths, binding.session_id) : null;
  const resumed = live(session);
  let staleLeft: string[] = [];
  if (!live(session)) {
    const role = env['HESTAI_ROLE']?.trim() || DEFAULT_AGENT_ROLE;
    // Pinned (issue 26): the session is this agent's; a person's plain `git commit` never falls back to it.
    // A hook cannot ask: stale neighbours are left as they are (nothing lost) and named below.
    const response = await clockIn(
      {
        working_dir: root,
        role,
        on_conflict: 'continue',
        on_stale: 'continue',
        pinned: true,
        // Attribution (issue 42): the runtime, and the model where its payload names one.
        agent: { runtime: input.adapter.runtime, model: payloadModel(input.payload['model']) },
      },
      { clock, env },
    );
    staleLeft = response.stale_sessions.map((s) => s.session_id);
    session = readSession(paths, response.session_id);
    if (!live(session))
      throw usageError(`clock-in returned session ${response.session_id}, which is not active`, {
        code: 'STATE_CORRUPT',
      });
  }
  // (Re)bound at every start: a resumed runtime is a new process, and its MCP server finds the session by it.
  writeBinding(paths, {
    version: 1,
    runtime: input.adapter.runtime,
    runtime_session_id: runtimeId,
    session_id: session.session_id,
    bound_at: clock().toISOString(),
    runtime_processes: processChain(process.ppid, 2),
  });
  const token = session.session_id;
  const envVar = input.adapter.envFileVar;
  const envFile = envVar === null ? undefined : env[envVar];
  if (envFile) fs.appendFileSync(envFile, `export HESTAI_SESSION=${token}\n`);
  const git =
    input.adapter.shellGitHooksOff === true ? `git -c core.hooksPath=${shellWord(await hooksDirAsync(root))}` : 'git';

  const { config } = await loadConfig(root);
  const cli = agentCliFor(root, input.packageRoot);
  const now = clock();
  const verdict = judgeSession(paths, session, hasValidAnchor(paths, token), config, now);
  const files = contextPaths(paths, config);
  const read = [
    files.project_context,
    files.current_state,
    files.current_focus,
    files.checklist,
    files.blockers,
    files.negatives,
    ...files.additional,
  ].filter((f): f is string => f !== null);
  // The context's age by the one definition (records/freshness.ts), at the instant the verdict was taken.
  const ageHours = Math.max(0, Math.floor(contextAgeHours(session, now)));
  let protocolStep: string | null = null;
  if (verdict.ok && config.protocol.enforce) {
    const { judgeAgentProtocol } = await import('../protocol/agent-gate.js');
    const gate = await judgeAgentProtocol(paths, config, session, env, clock(), 'edit', cli);
    const first = gate.ok ? undefined : gate.unmet[0];
    if (!gate.ok)
      protocolStep = `${gate.reason}${first ? `: ${first.result.phase}/${first.result.gate} (${first.result.step}); call the MCP tool ${first.mcp} — or run ${first.cli}` : `; ${gate.remedy}`}.`;
  }
  const next =
    protocolStep !== null
      ? protocolStep
      : verdict.ok
        ? 'you are anchored and your context is fresh: edits and commits are allowed.'
        : verdict.code === 'NO_ANCHOR'
          ? `anchor this session before any edit: ${anchorStep(root, token, session.role, cli, input.adapter.mcpTool)}.`
          : verdict.code === 'STALE'
            ? `your context is ${ageHours} h old (limit ${verdict.limitHours} h): regenerate it with ${cli} refresh --session ${token} and re-read the files above.`
            : `the anchor handshake of this session is terminal: stop and ask a human to run ${cli} anchor reset --token ${token} --reason "..." (audited).`;
  const context = input.adapter.context(
    [
      `hestai: this ${input.adapter.label} session is bound to hestai session ${token} (role ${session.role}, focus "${session.focus}"; ${resumed ? 'resumed' : 'clocked in now'}).`,
      envFile
        ? `HESTAI_SESSION=${token} is set for your shell commands, so your commits are judged under this session and carry its trailers.`
        : `${envVar ?? `${input.adapter.label} has no env file for your shell`}${envVar === null ? '' : ' is not set'}${git === 'git' ? '' : ` and runs git there with its hooks turned off (core.hooksPath emptied)`}: commit as \`HESTAI_SESSION=${token} ${git} commit ...\` so your commits are judged under this session and carry its trailers.`,
      `context: generated ${session.context_generated_at} (${ageHours} h ago; limit ${config.freshness.max_age_hours} h). Read: ${read.join(', ')}.`,
      `next: ${next}`,
      ...(staleLeft.length > 0
        ? [
            `stale sessions here (no activity beyond ${config.cleanup.stale_session_hours} h), left as they are: ${staleLeft.join(', ')}; ${cli} cleanup archives them.`,
          ]
        : []),
      "hestai refuses every tool call that may write (file edits, shell commands that write such as git commit, > and >>, tee; another MCP server's tools) inside this worktree until this session is anchored and its context fresh, and lets reads through; it never lets an agent write .hestai/.",
      '',
    ].join('\n'),
  );
  if (context.stdout !== undefined) input.stdout(context.stdout);
  if (context.stderr !== undefined) input.stderr(context.stderr);
  return context.code;
}

/** A shell word: plain when it is only safe characters, else single-quoted. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+:,=-]+$/.test(text) ? text : shellQuote(text);
}
