import { hasValidAnchor, type AnchorCheck } from '../anchor/record.js';
import type { WorkspacePaths } from '../paths.js';
import { listActiveSessions, readSession, type SessionRecord } from '../session/record.js';

/** The session a commit is checked against, and how it was chosen. */
export type CommitSession =
  | { found: true; session: SessionRecord; anchor: AnchorCheck; source: 'HESTAI_SESSION' | 'most recently anchored' | 'most recent (not anchored)' }
  | { found: false; reason: string; remedy: string };

/**
 * Which session a hook checks (DESIGN.md §4): `HESTAI_SESSION` when set, else the active session with the
 * most recent valid anchor (`validated_at`), else the most recently active unanchored session (so the
 * message can say what that session still has to do).
 */
export function resolveCommitSession(paths: WorkspacePaths, env: NodeJS.ProcessEnv): CommitSession {
  const explicit = env['HESTAI_SESSION']?.trim();
  if (explicit) {
    const session = readSession(paths, explicit);
    if (session === null) {
      return {
        found: false,
        reason: `HESTAI_SESSION=${explicit} names no active session in this worktree (${paths.active})`,
        remedy: 'Unset HESTAI_SESSION to use the most recently anchored session, or clock in: hestai clock-in --role <role>.',
      };
    }
    return { found: true, session, anchor: hasValidAnchor(paths, explicit), source: 'HESTAI_SESSION' };
  }
  const { sessions } = listActiveSessions(paths);
  let best: { session: SessionRecord; anchor: AnchorCheck & { valid: true } } | null = null;
  for (const session of sessions) {
    const anchor = hasValidAnchor(paths, session.session_id);
    if (anchor.valid && (best === null || anchor.anchor.validated_at > best.anchor.anchor.validated_at)) best = { session, anchor };
  }
  if (best) return { found: true, session: best.session, anchor: best.anchor, source: 'most recently anchored' };
  const open = sessions.filter((s) => s.state === 'ACTIVE' || s.state === 'CREATED').sort((a, b) => b.last_activity.localeCompare(a.last_activity));
  const latest = open[0];
  if (latest) return { found: true, session: latest, anchor: hasValidAnchor(paths, latest.session_id), source: 'most recent (not anchored)' };
  return {
    found: false,
    reason: `no active session in this worktree (${paths.active})`,
    remedy: 'Start one: hestai clock-in --role <role>, then anchor it: hestai anchor --stage identity --role <role> --token <session_id> (then --stage context and --stage proof).',
  };
}

/** What to run next for an anchor that is not valid, by its reason code. */
export function anchorRemedy(check: AnchorCheck & { valid: false }, session: SessionRecord): string {
  const token = session.session_id;
  const anchorCmd = `hestai anchor --stage identity --role ${session.role} --token ${token}`;
  switch (check.code) {
    case 'NO_ANCHOR':
    case 'NOT_VALIDATED':
      return `Complete the handshake: ${anchorCmd} (then --stage context and --stage proof with --token ${token}).`;
    case 'TAMPERED':
    case 'TOKEN_MISMATCH':
    case 'CORRUPT':
      return `Do not edit .hestai/ by hand. Run the handshake again: ${anchorCmd} (then the context and proof stages).`;
    default:
      return `Start a new session: hestai clock-in --role ${session.role}, then anchor it.`;
  }
}
