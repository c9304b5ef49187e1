import { hasValidAnchor } from '../anchor/record.js';
import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { UUID_V4 } from '../util/validate.js';
import { listActiveSessions } from './record.js';

/** Which session a command acts on, and why. */
export interface SessionChoice {
  session_id: string;
  source: 'explicit' | 'env' | 'anchored' | 'recent';
}

function checkId(id: string, where: string): string {
  if (!UUID_V4.test(id)) {
    throw usageError(`${where} ${JSON.stringify(id)} is not a session id (a UUID v4 as returned by clock-in)`, {
      code: 'SESSION_INVALID',
      remedy: 'Pass the session_id printed by "hestai clock-in", or run "hestai status" to list the sessions.',
    });
  }
  return id;
}

/**
 * Picks the session to act on: the explicit id, else `HESTAI_SESSION`, else the live session of this
 * worktree anchored most recently (by the anchor's `validated_at`), else the live session started most
 * recently; null when there is none. Light enough for the hook path (no zod, no yaml).
 */
export function resolveSessionChoice(paths: WorkspacePaths, explicit: string | undefined, env: NodeJS.ProcessEnv): SessionChoice | null {
  if (explicit !== undefined && explicit !== '') return { session_id: checkId(explicit, 'session'), source: 'explicit' };
  const fromEnv = env['HESTAI_SESSION'];
  if (fromEnv !== undefined && fromEnv !== '') return { session_id: checkId(fromEnv, 'HESTAI_SESSION'), source: 'env' };
  const live = listActiveSessions(paths).sessions.filter((s) => s.state === 'CREATED' || s.state === 'ACTIVE');
  let anchored: { id: string; at: number } | null = null;
  for (const s of live) {
    const check = hasValidAnchor(paths, s.session_id);
    if (!check.valid) continue;
    const ms = Date.parse(check.anchor.validated_at);
    if (anchored === null || ms > anchored.at) anchored = { id: s.session_id, at: ms };
  }
  if (anchored) return { session_id: anchored.id, source: 'anchored' };
  const recent = [...live].sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at))[0];
  return recent ? { session_id: recent.session_id, source: 'recent' } : null;
}

/** The id of the session to act on (see {@link resolveSessionChoice}), or null. */
export function resolveSessionId(paths: WorkspacePaths, explicit?: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return resolveSessionChoice(paths, explicit, env)?.session_id ?? null;
}
