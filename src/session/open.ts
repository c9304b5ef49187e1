import { blockedError, usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { isLive, readSession, type SessionRecord } from '../records/session.js';
import { requireSessionChoice, type Surface } from '../records/resolve.js';

/**
 * Resolves (the one rule of resolve.ts: refuses to guess between several sessions, exit 2 with the
 * candidates) and reads the session to act on; exit 2 when it does not exist, exit 1 when it is closed and
 * `live` is required.
 */
export function openSession(
  paths: WorkspacePaths,
  explicit: string | undefined,
  env: NodeJS.ProcessEnv,
  options: { live: boolean; surface?: Surface },
): SessionRecord {
  const surface = options.surface ?? 'cli';
  const { session_id: id } = requireSessionChoice(paths, { explicit, env, surface });
  const record = readSession(paths, id);
  if (record === null) {
    throw usageError(`no active session ${id} in ${paths.root}`, {
      code: 'NO_SESSION',
      remedy:
        surface === 'mcp'
          ? 'Pass the session_id clock_in returned (the session may have been clocked out), or call clock_in to start one.'
          : 'Pass --session with an id from "hestai status" (or fix HESTAI_SESSION), or run "hestai clock-in --role <role>" first.',
    });
  }
  if (options.live && !isLive(record)) {
    throw blockedError(`session ${record.session_id} is ${record.state}`, {
      code: 'SESSION_CLOSED',
      remedy:
        surface === 'mcp'
          ? 'Call clock_in to start a new session.'
          : 'Clock in again to start a new session ("hestai clock-in --role <role>").',
    });
  }
  return record;
}
