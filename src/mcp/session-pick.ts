import { hasValidAnchor } from '../anchor/record.js';
import type { WorkspacePaths } from '../paths.js';
import { listActiveSessions, type SessionRecord } from '../session/record.js';

/** Which session a resource describes, and why that one. */
export interface PickedSession {
  session: SessionRecord | null;
  selected_by: 'HESTAI_SESSION' | 'most_recently_anchored' | 'most_recent' | null;
}

/**
 * The session the resources describe, by the rule of DESIGN.md §4: HESTAI_SESSION if set, else the most
 * recently anchored active session, else the most recently started one.
 */
export function pickSession(paths: WorkspacePaths, sessions: SessionRecord[], env: NodeJS.ProcessEnv): PickedSession {
  const explicit = env['HESTAI_SESSION'];
  if (explicit !== undefined && explicit !== '') {
    return { session: sessions.find((s) => s.session_id === explicit) ?? null, selected_by: 'HESTAI_SESSION' };
  }
  let best: { session: SessionRecord; at: string } | null = null;
  for (const session of sessions) {
    const check = hasValidAnchor(paths, session.session_id);
    if (check.valid && (best === null || check.anchor.validated_at > best.at)) best = { session, at: check.anchor.validated_at };
  }
  if (best) return { session: best.session, selected_by: 'most_recently_anchored' };
  const recent = [...sessions].sort((a, b) => b.started_at.localeCompare(a.started_at))[0];
  return recent ? { session: recent, selected_by: 'most_recent' } : { session: null, selected_by: null };
}
