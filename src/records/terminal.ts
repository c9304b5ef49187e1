/**
 * Terminal handshakes need a person (seed 001 HARD_FAIL; issue 12 item 8). When the last allowed retry of a
 * stage fails, the pending handshake says `terminal: true` AND a durable lock is written for the role in
 * this worktree: `.hestai/sessions/terminal/{role}.json`. The lock outlives the pending directory (deleted by
 * hand, or by cleanup after a clock-out) and every new session of the role: while it exists, no session of
 * that role in this worktree may run the handshake, commit, or pass MCP gating. Only `hestai anchor reset`
 * (audited, published to `hestai/anchors`) removes it.
 */
import path from 'node:path';
import { relativeToRoot, type WorkspacePaths } from '../paths.js';
import { isHestaiError } from '../errors.js';
import {
  listDir,
  parseJsonState,
  readJsonIfExists,
  readTextIfExists,
  removeStatePath,
  writeJsonAtomic,
  type Validate,
} from '../state/store.js';
import * as z from 'zod/mini';
import { isoDate, isRecord, recordChecker, UUID_V4 } from '../util/validate.js';
import { handshakeFile, RETRY_STAGES, type RetryStage } from './handshake.js';
import { readSession, ROLE_PATTERN } from './session.js';
import { hasValidAnchor } from './anchor.js';

export interface TerminalLock {
  version: 1;
  role: string;
  /** The session whose handshake went terminal. */
  session_id: string;
  stage: RetryStage;
  failures: number;
  at: string;
}

/** Why a session is locked: its own handshake, or its role's durable lock (possibly left by another session). */
export interface TerminalState {
  role: string | null;
  /** The session whose handshake went terminal (null when the lock file is unreadable). */
  session_id: string | null;
  stage: RetryStage | null;
  at: string | null;
  source: 'handshake' | 'role';
  /** Workspace-relative path of the lock file (or the handshake) that says so. */
  file: string;
}

export function terminalLockFile(paths: WorkspacePaths, role: string): string {
  return path.join(paths.terminal, `${role}.json`);
}

export const validateTerminalLock: Validate<TerminalLock> = recordChecker(
  z.looseObject({
    version: z.literal(1),
    role: z.string().check(z.regex(ROLE_PATTERN)),
    session_id: z.string().check(z.regex(UUID_V4)),
    stage: z.enum(RETRY_STAGES),
    failures: z.int(),
    at: isoDate,
  }),
);

/** The lock of a role, or null. A corrupt file throws (exit 2, names the file). */
export function readTerminalLock(paths: WorkspacePaths, role: string): TerminalLock | null {
  if (!ROLE_PATTERN.test(role)) return null;
  return readJsonIfExists(terminalLockFile(paths, role), validateTerminalLock);
}

/** Writes (atomically) the lock of a role. */
export function writeTerminalLock(paths: WorkspacePaths, lock: TerminalLock): void {
  writeJsonAtomic(terminalLockFile(paths, lock.role), lock);
}

/** Removes the lock of a role (`hestai anchor reset` only). */
export function removeTerminalLock(paths: WorkspacePaths, role: string): void {
  if (ROLE_PATTERN.test(role)) removeStatePath(terminalLockFile(paths, role));
}

/** Every role lock of this worktree (unreadable files are skipped: `terminalState` fails closed on them). */
export function listTerminalLocks(paths: WorkspacePaths): TerminalLock[] {
  const locks: TerminalLock[] = [];
  for (const name of listDir(paths.terminal).sort()) {
    const role = name.endsWith('.json') ? name.slice(0, -5) : '';
    try {
      const lock = readTerminalLock(paths, role);
      if (lock) locks.push(lock);
    } catch {
      /* corrupt: reported where it is judged */
    }
  }
  return locks;
}

/**
 * Is this session locked by a terminal handshake? Its own pending handshake says terminal, or its role
 * (`role`, else the session's, else the handshake's) has a durable lock in this worktree — unless the lock is
 * another session's and this one holds a valid anchor made before it. A lock file that cannot be read locks
 * too (fail closed). Reads state, writes nothing; null when not locked.
 */
export function terminalState(paths: WorkspacePaths, sessionId: string, role?: string | null): TerminalState | null {
  // Read leniently: only `terminal` matters here, and a partly written record that says terminal still locks.
  const hsFile = handshakeFile(paths, sessionId);
  const text = UUID_V4.test(sessionId) ? readTextIfExists(hsFile) : null;
  const hs = text === null ? null : parseJsonState(hsFile, text);
  const field = (key: string) => (isRecord(hs) && typeof hs[key] === 'string' ? (hs[key] as string) : null);
  if (isRecord(hs) && hs['terminal'] === true)
    return {
      role: field('role'),
      session_id: sessionId,
      stage: RETRY_STAGES.find((s) => s === hs['terminal_stage']) ?? null,
      at: field('updated_at'),
      source: 'handshake',
      file: relativeToRoot(paths, hsFile),
    };
  const who = role ?? (UUID_V4.test(sessionId) ? readSession(paths, sessionId)?.role : null) ?? field('role');
  if (who === null || !ROLE_PATTERN.test(who)) return null;
  const file = terminalLockFile(paths, who);
  let lock: TerminalLock | null;
  try {
    lock = readTerminalLock(paths, who);
  } catch (error) {
    if (!isHestaiError(error)) throw error;
    return { role: who, session_id: null, stage: null, at: null, source: 'role', file: relativeToRoot(paths, file) };
  }
  if (lock === null) return null;
  // Another session's lock never locks a session validly anchored before it (issue 26): one agent's failed
  // handshakes must not stop another agent's work. A session anchored after the lock, or not at all (a
  // spare or a fresh clock-in of the role), stays locked: that escape stays closed.
  if (lock.session_id !== sessionId && UUID_V4.test(sessionId)) {
    const anchor = hasValidAnchor(paths, sessionId);
    if (anchor.valid && Date.parse(anchor.anchor.validated_at) < Date.parse(lock.at)) return null;
  }
  return {
    role: who,
    session_id: lock.session_id,
    stage: lock.stage,
    at: lock.at,
    source: 'role',
    file: relativeToRoot(paths, file),
  };
}
