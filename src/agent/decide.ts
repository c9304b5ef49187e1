import fs from 'node:fs';
import path from 'node:path';
import { hasValidAnchor } from '../records/anchor.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { judgeSession } from '../hooks/session-verdict.js';
import type { WorkspacePaths } from '../paths.js';
import { isLive, readSession } from '../records/session.js';
import { classifyToolUse, insideRoot, protectedEntry, type ToolUse } from './tool-use.js';

/** Why a tool call was allowed or refused. */
export type ToolUseCode =
  | 'READ'
  | 'OUTSIDE_WORKTREE'
  | 'ALLOWED'
  | 'PROTECTED_PATH'
  | 'NO_SESSION'
  | 'SESSION_GONE'
  | 'NO_ANCHOR'
  | 'TERMINAL'
  | 'STALE'
  | 'PROTOCOL';

export interface ToolUseDecision {
  allow: boolean;
  code: ToolUseCode;
  /** One sentence: what was decided and why. */
  reason: string;
  /** The exact MCP tool call or command that fixes a refusal (null when allowed). */
  fix: string | null;
  /** The hestai session judged, when there was one. */
  session_id: string | null;
  /** What was recognised as a write (`Edit`, `git commit`, `> out.txt`, ...), or `read`. */
  what: string;
}

export interface ToolUseInput {
  paths: WorkspacePaths;
  /** The directory relative paths in the call are resolved against (the agent's cwd). */
  cwd: string;
  use: ToolUse;
  /** The agent's own hestai session (its binding or an explicit id), or null when it has none. */
  sessionId: string | null;
  /** The fix when the agent has no session: runtime-specific (Claude Code: its SessionStart binds one). */
  noSessionFix: string;
  config: WorkspaceConfig;
  now: Date;
  /** How a command line calls hestai here (`hestai`, or `node '/path/dist/cli/bin.js'`). */
  cli: string;
  /** The environment (the protocol's command-trust check reads it). */
  env: NodeJS.ProcessEnv;
}

/** `target` with symbolic links of its existing ancestors resolved (a link into `.hestai/` is `.hestai/`). */
function realTarget(cwd: string, target: string): string {
  let existing = path.resolve(cwd, target);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return path.resolve(cwd, target);
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

const deny = (
  code: ToolUseCode,
  reason: string,
  fix: string,
  session_id: string | null,
  what: string,
): ToolUseDecision => ({ allow: false, code, reason, fix, session_id, what });

/**
 * The edit-time rule (issue 16): a tool call that writes inside the worktree needs the agent's own session
 * to be allowed to change it — the same `judgeSession` the pre-commit hook asks (valid anchor, handshake
 * not terminal, context fresh or acknowledged). Reads are always allowed; writes outside the worktree are
 * not hestai's business; `PROTECTED_PATHS` (hestai's own state, human-authored config, these hooks) are
 * refused to agents whatever their session. With `protocol.enforce`, no blocking start gate of the session
 * protocol may be unmet either (`judgeAgentProtocol`, the protocol's own rule). Reads state, writes nothing.
 */
export async function decideToolUse(input: ToolUseInput): Promise<ToolUseDecision> {
  const { paths, use, cli } = input;
  const cls = classifyToolUse(use);
  if (cls.kind === 'read')
    return { allow: true, code: 'READ', reason: 'reads are never gated', fix: null, session_id: null, what: 'read' };
  const what = cls.what;
  const root = paths.root;
  if (cls.targets !== null) {
    const inside: string[] = [];
    for (const target of cls.targets) {
      const rel = insideRoot(root, input.cwd, realTarget(input.cwd, target)) ?? insideRoot(root, input.cwd, target);
      if (rel === null) continue;
      const entry = protectedEntry(rel);
      if (entry !== null) {
        return deny(
          'PROTECTED_PATH',
          `${rel} is under ${entry}, which agents never write: ${entry === '.hestai/' ? 'it holds the sessions, anchors and audit log hestai keeps about you' : entry === '.hestai_workspace.yaml' ? 'its rules are set by humans' : 'it holds the hooks that check your edits'}`,
          entry === '.hestai/'
            ? `change hestai state only through hestai: the MCP tools (clock_in, anchor, clock_out) or ${cli} (refresh, ack, clock-out)`
            : `ask a human to change ${rel}`,
          input.sessionId,
          what,
        );
      }
      inside.push(rel);
    }
    if (inside.length === 0)
      return {
        allow: true,
        code: 'OUTSIDE_WORKTREE',
        reason: 'writes outside the worktree are not gated',
        fix: null,
        session_id: null,
        what,
      };
  }

  const token = input.sessionId;
  if (token === null) return deny('NO_SESSION', 'this agent has no hestai session', input.noSessionFix, null, what);
  const session = readSession(paths, token);
  if (session === null || !isLive(session)) {
    return deny(
      'SESSION_GONE',
      `your hestai session ${token} is ${session === null ? 'no longer active (clocked out or cleaned up)' : session.state}`,
      input.noSessionFix,
      token,
      what,
    );
  }
  const role = session.role;
  const anchorCall = `call the MCP tool anchor (mcp__hestai__anchor) with {"stage":"identity","role":"${role}","token":"${token}"}, then stage "context" (your ## BIND) and stage "proof" (## TENSION + ## COMMIT) with the same token — or run ${cli} anchor --stage identity --role ${role} --token ${token} (then --stage context and --stage proof)`;
  const verdict = judgeSession(paths, session, hasValidAnchor(paths, token), input.config, input.now);
  if (verdict.ok) {
    if (input.config.protocol.enforce) {
      const { judgeAgentProtocol } = await import('../protocol/agent-gate.js');
      const gate = await judgeAgentProtocol(paths, input.config, session, input.env, input.now, 'edit');
      if (!gate.ok) {
        const first = gate.unmet[0];
        const gates = gate.unmet.map((u) => `${u.result.phase}/${u.result.gate} (${u.result.step})`).join('; ');
        return deny(
          'PROTOCOL',
          gates === '' ? gate.reason : `${gate.reason}: ${gates}`,
          first ? `call the MCP tool ${first.mcp} — or run ${first.cli}` : gate.remedy,
          token,
          what,
        );
      }
    }
    return {
      allow: true,
      code: 'ALLOWED',
      reason: `session ${token} is anchored and its context ${Math.floor(verdict.ageHours)} h old`,
      fix: null,
      session_id: token,
      what,
    };
  }
  switch (verdict.code) {
    case 'NO_ANCHOR': {
      const broken =
        verdict.anchor.code === 'TAMPERED' ||
        verdict.anchor.code === 'TOKEN_MISMATCH' ||
        verdict.anchor.code === 'CORRUPT';
      return deny(
        'NO_ANCHOR',
        `session ${token} (role ${role}) has no valid anchor: ${verdict.anchor.reason}`,
        broken ? `do not edit .hestai/; anchor again: ${anchorCall}` : anchorCall,
        token,
        what,
      );
    }
    case 'TERMINAL':
      return deny(
        'TERMINAL',
        `the anchor handshake of session ${token} is terminal (locked after failed retries)`,
        `stop and ask a human to review and reset it: ${cli} anchor reset --token ${token} --reason "..." (audited; an agent must not run it), then anchor again`,
        token,
        what,
      );
    case 'STALE':
      return deny(
        'STALE',
        `the context of session ${token} was generated ${Math.floor(verdict.ageHours)} h ago (${session.context_generated_at}), older than freshness.max_age_hours (${verdict.limitHours} h), and is not acknowledged`,
        `regenerate it and re-read it: ${cli} refresh --session ${token} — or, if a human confirms it is still right: ${cli} ack --session ${token} --reason "..." (audited)`,
        token,
        what,
      );
  }
}

/** The lines a refusal prints (stderr; Claude Code shows them to the model). */
export function refusalText(decision: ToolUseDecision): string {
  return `hestai: ${decision.what} blocked: ${decision.reason}.\nfix: ${decision.fix ?? ''}\n`;
}
