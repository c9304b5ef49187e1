import { hasValidAnchor, type AnchorCheck } from '../records/anchor.js';
import type { WorkspacePaths } from '../paths.js';
import { isHestaiError } from '../errors.js';
import { readSession, type SessionRecord } from '../records/session.js';
import { clockInHint, describeRefusal, resolveSession } from '../records/resolve.js';
import { availableRoles } from '../records/roles.js';

/** The session a commit is checked against, and how it was chosen. */
export type CommitSession =
  | { found: true; session: SessionRecord; anchor: AnchorCheck; source: 'HESTAI_SESSION' | 'the only live session' }
  | { found: false; reason: string; details: string[]; remedy: string };

/**
 * Which session a hook checks: the one rule of src/session/resolve.ts (`HESTAI_SESSION`, else the only
 * live session that is not pinned to an agent). Several candidates, or only pinned ones, block the commit
 * with the list and how to name yours; a commit never borrows another agent's anchor.
 */
export function resolveCommitSession(paths: WorkspacePaths, env: NodeJS.ProcessEnv): CommitSession {
  let resolution: ReturnType<typeof resolveSession>;
  try {
    resolution = resolveSession(paths, { env, surface: 'hook' });
  } catch (error) {
    if (!isHestaiError(error)) throw error;
    return {
      found: false,
      reason: error.message,
      details: [],
      remedy: error.remedy ?? 'Unset HESTAI_SESSION or set it to the session_id clock-in printed.',
    };
  }
  if (resolution.kind !== 'chosen') {
    const refusal = describeRefusal(resolution, paths, 'hook');
    return { found: false, reason: refusal.reason, details: refusal.details, remedy: refusal.remedy };
  }
  const id = resolution.choice.session_id;
  const session = readSession(paths, id);
  if (session === null) {
    return {
      found: false,
      reason: `HESTAI_SESSION=${id} names no active session in this worktree (${paths.active})`,
      details: [],
      remedy: `Set HESTAI_SESSION to your session (\`hestai status\` lists them), or ${clockInHint('hook', availableRoles(paths))}.`,
    };
  }
  return {
    found: true,
    session,
    anchor: hasValidAnchor(paths, id),
    source: resolution.choice.source === 'env' ? 'HESTAI_SESSION' : 'the only live session',
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
    case 'EXPIRED':
      return `Anchor again (a new proof record): ${anchorCmd} (then --stage context and --stage proof with --token ${token}).`;
    case 'TAMPERED':
    case 'TOKEN_MISMATCH':
    case 'CORRUPT':
      return `Do not edit .hestai/ by hand. Run the handshake again: ${anchorCmd} (then the context and proof stages).`;
    default:
      return `Start a new session: hestai clock-in --role ${session.role}, then anchor it.`;
  }
}
