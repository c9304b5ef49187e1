import type { Clock } from '../clock.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { workspacePaths } from '../paths.js';
import { EMPTY_BYPASS_LINES, readBypass } from './bypass.js';
import type { HookOutcome } from './outcome.js';
import { judgeSession, verdictCode } from './session-verdict.js';
import { anchorRemedy, resolveCommitSession } from './session.js';

export interface PreCommitInput {
  /** The worktree root (git runs hooks there). */
  root: string;
  config: WorkspaceConfig;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

const blocked = (lines: string[], session_id: string | null = null): HookOutcome => ({
  exitCode: 1,
  lines,
  audit: [],
  session_id,
});

/**
 * The pre-commit decision (docs/design.md §1, rules 1 and 2): the committing session must hold a valid anchor,
 * its handshake must not be terminal, and its context must be fresh or acknowledged for this generation.
 * `HESTAI_BYPASS="reason"` lets the commit through, loudly and audited. A refusal ends with `verdict: CODE`,
 * the reason code `hestai status` and MCP `anchor_status` report (src/hooks/session-verdict.ts). Reads state,
 * writes nothing.
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
      lines: [
        `hestai: WARNING: pre-commit checks bypassed (HESTAI_BYPASS="${bypass.reason}"); recorded in the audit log and listed by hestai verify.`,
      ],
      audit: [{ event: 'bypass', hook: 'pre-commit', session_id, reason: bypass.reason }],
      session_id,
    };
  }
  if (!config.anchor.required) return { exitCode: 0, lines: [], audit: [], session_id: null };

  const resolved = resolveCommitSession(paths, env);
  if (!resolved.found)
    return blocked([
      `hestai: commit blocked: ${resolved.reason}.`,
      ...resolved.details.map((d) => `  - ${d}`),
      `hint: ${resolved.remedy}`,
      'verdict: NO_SESSION',
    ]);
  const { session, anchor, source } = resolved;
  const token = session.session_id;
  const using = `hestai: checking session ${token} (role ${session.role}; ${source})`;
  const verdict = judgeSession(paths, session, anchor, config, clock());
  if (!verdict.ok && verdict.code === 'NO_ANCHOR') {
    return blocked(
      [
        using,
        `hestai: commit blocked: session ${token} has no valid anchor: ${verdict.anchor.reason}.`,
        `hint: ${anchorRemedy(verdict.anchor, session)}`,
        `verdict: ${verdictCode(verdict)}`,
      ],
      token,
    );
  }
  if (!verdict.ok && verdict.code === 'TERMINAL') {
    return blocked(
      [
        using,
        `hestai: commit blocked: the anchor handshake of session ${token} is terminal (locked after failed retries).`,
        `hint: a human must review and reset it: hestai anchor reset --token ${token} --reason "..." (audited), then anchor again.`,
        'verdict: TERMINAL',
      ],
      token,
    );
  }
  if (!verdict.ok) {
    return blocked(
      [
        using,
        `hestai: commit blocked: the context of session ${token} was generated ${Math.floor(verdict.ageHours)} h ago (${session.context_generated_at}), older than freshness.max_age_hours (${verdict.limitHours} h), and is not acknowledged.`,
        `hint: regenerate it: hestai refresh --session ${token}  — or, if it is still right, acknowledge it (audited): hestai ack --session ${token} --reason "..."`,
        'verdict: STALE',
      ],
      token,
    );
  }
  return {
    exitCode: 0,
    lines: [`${using}: anchored, context ${Math.max(0, Math.floor(verdict.ageHours))} h old: ok`],
    audit: [],
    session_id: token,
  };
}
