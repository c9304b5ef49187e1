import { blockedError, usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { readSession, type SessionRecord } from './record.js';
import { resolveSessionId } from './resolve.js';

/** Resolves and reads the session to act on; exit 2 when there is none, exit 1 when it is closed and `live` is required. */
export function openSession(paths: WorkspacePaths, explicit: string | undefined, env: NodeJS.ProcessEnv, options: { live: boolean }): SessionRecord {
  const id = resolveSessionId(paths, explicit, env);
  const record = id === null ? null : readSession(paths, id);
  if (record === null) {
    throw usageError(id === null ? `no active session in ${paths.root}` : `no active session ${id} in ${paths.root}`, {
      code: 'NO_SESSION',
      remedy: 'Run "hestai clock-in --role <role>" first, or pass --session with an id from "hestai status".',
    });
  }
  if (options.live && record.state !== 'CREATED' && record.state !== 'ACTIVE') {
    throw blockedError(`session ${record.session_id} is ${record.state}`, {
      code: 'SESSION_CLOSED',
      remedy: 'Clock in again to start a new session ("hestai clock-in --role <role>").',
    });
  }
  return record;
}
