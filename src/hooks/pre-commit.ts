import { HOUR_MS, type Clock } from '../clock.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { workspacePaths } from '../paths.js';
import { isAcknowledged } from '../session/record.js';
import { EMPTY_BYPASS_LINES, readBypass } from './bypass.js';
import { handshakeIsTerminal } from './handshake.js';
import type { HookOutcome } from './outcome.js';
import { anchorRemedy, resolveCommitSession } from './session.js';

export interface PreCommitInput {
  /** The worktree root (git runs hooks there). */
  root: string;
  config: WorkspaceConfig;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

const blocked = (lines: string[], session_id: string | null = null): HookOutcome => ({ exitCode: 1, lines, audit: [], session_id });

/**
 * The pre-commit decision (DESIGN.md §1, rules 1 and 2): the committing session must hold a valid anchor,
 * its handshake must not be terminal, and its context must be fresh or acknowledged for this generation.
 * `HESTAI_BYPASS="reason"` lets the commit through, loudly and audited. Reads state, writes nothing.
 */
export function checkPreCommit(input: PreCommitInput): HookOutcome {
  const { config, env, clock } = input;
  const paths = workspacePaths(input.root);
  if (!config.hooks.pre_commit) return { exitCode: 0, lines: [], audit: [], session_id: null };
  const bypass = readBypass(env);
  if (bypass.kind === 'empty') return blocked(EMPTY_BYPASS_LINES);
  if (bypass.kind === 'reason') {
    const resolved = resolveCommitSession(paths, env);
    const session_id = resolved.found ? resolved.session.session_id : null;
    return {
      exitCode: 0,
      lines: [`hestai: WARNING: pre-commit checks bypassed (HESTAI_BYPASS="${bypass.reason}"); recorded in the audit log and listed by hestai verify.`],
      audit: [{ event: 'bypass', hook: 'pre-commit', session_id, reason: bypass.reason }],
      session_id,
    };
  }
  if (!config.anchor.required) return { exitCode: 0, lines: [], audit: [], session_id: null };

  const resolved = resolveCommitSession(paths, env);
  if (!resolved.found) return blocked([`hestai: commit blocked: ${resolved.reason}.`, `hint: ${resolved.remedy}`]);
  const { session, anchor, source } = resolved;
  const token = session.session_id;
  const using = `hestai: checking session ${token} (role ${session.role}; ${source})`;
  if (!anchor.valid) {
    return blocked([using, `hestai: commit blocked: session ${token} has no valid anchor: ${anchor.reason}.`, `hint: ${anchorRemedy(anchor, session)}`], token);
  }
  if (handshakeIsTerminal(paths, token)) {
    return blocked(
      [
        using,
        `hestai: commit blocked: the anchor handshake of session ${token} is terminal (locked after failed retries).`,
        `hint: a human must review and reset it: hestai anchor reset --token ${token} --reason "..." (audited), then anchor again.`,
      ],
      token,
    );
  }
  const ageMs = clock().getTime() - Date.parse(session.context_generated_at);
  const limitH = config.freshness.max_age_hours;
  if (ageMs > limitH * HOUR_MS && !isAcknowledged(session)) {
    const hours = Math.floor(ageMs / HOUR_MS);
    return blocked(
      [
        using,
        `hestai: commit blocked: the context of session ${token} was generated ${hours} h ago (${session.context_generated_at}), older than freshness.max_age_hours (${limitH} h), and is not acknowledged.`,
        `hint: regenerate it: hestai refresh --session ${token}  — or, if it is still right, acknowledge it (audited): hestai ack --session ${token} --reason "..."`,
      ],
      token,
    );
  }
  return { exitCode: 0, lines: [`${using}: anchored, context ${Math.max(0, Math.floor(ageMs / HOUR_MS))} h old: ok`], audit: [], session_id: token };
}
