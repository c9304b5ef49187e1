import path from 'node:path';
import { activeDir, type WorkspacePaths } from '../paths.js';
import { isHestaiError } from '../errors.js';
import { listDir, readJsonIfExists, writeJsonAtomic, type Validate } from '../state/store.js';
import * as z from 'zod/mini';
import { isoDate, recordChecker, UUID_V4 } from '../util/validate.js';
import type { AgentIdentity } from './attribution.js';

/** Role names: lower-case alphanumerics and hyphens, starting alphanumeric, at most 64 characters. */
export const ROLE_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Session states of seed 000 §7. */
export const SESSION_STATES = ['CREATED', 'ACTIVE', 'COMPLETED', 'STALE', 'ARCHIVED'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const FOCUS_SOURCES = ['explicit', 'github_issue', 'branch', 'default'] as const;
export type FocusSource = (typeof FOCUS_SOURCES)[number];

/** One entry of a session's ownership log (CI-I5 take-over, recorded in both sessions). */
export interface OwnershipEvent {
  at: string;
  event: 'took_over' | 'taken_over';
  other_session_id: string;
}

/** An acknowledgment of stale context, valid for exactly one context generation (CI-I2). */
export interface Acknowledgment {
  at: string;
  /** The `context_generated_at` this acknowledgment covers. */
  context_generated_at: string;
  reason: string;
}

/** `.hestai/sessions/active/{session_id}/session.json`. */
export interface SessionRecord {
  version: 1;
  session_id: string;
  role: string;
  focus: string;
  focus_source: FocusSource;
  branch: string | null;
  working_dir: string;
  model: string | null;
  started_at: string;
  /** When this session's context was last generated (clock-in or refresh); what the 24 h rule measures. */
  context_generated_at: string;
  last_activity: string;
  state: SessionState;
  /** HEAD when the session started (null in a repository without commits). */
  starting_commit: string | null;
  ownership_log: OwnershipEvent[];
  acknowledgments: Acknowledgment[];
  /**
   * Started by an agent runtime (an MCP clock_in, `hestai clock-in --print-env`): used only where it is
   * named (HESTAI_SESSION, --session, session_id, its MCP connection), never picked implicitly. Absent: false.
   */
  pinned?: boolean;
  /** The agent runtime that started the session (its SessionStart hook) and the model it named; absent for a person. */
  agent?: AgentIdentity;
  /** SS-I5: the versioned prompts this session's clock-in sent to the AI provider (empty without one). */
  prompts?: PromptUse[];
}

/** One versioned prompt, as used (`source`: shipped with the package, or the user's override). */
export interface PromptUse {
  name: string;
  version: string;
  source: 'package' | 'user';
}

export const SESSION_FILE = 'session.json';

const text = (pattern?: RegExp) => (pattern ? z.string().check(z.regex(pattern)) : z.string());

/** The shape of a session record (extra keys pass: a newer hestai may add some). */
const sessionSchema = z.looseObject({
  version: z.literal(1),
  session_id: text(UUID_V4),
  role: text(ROLE_PATTERN),
  focus: z.string(),
  focus_source: z.enum(FOCUS_SOURCES),
  branch: z.nullable(z.string()),
  working_dir: z.string(),
  model: z.nullable(z.string()),
  started_at: isoDate,
  context_generated_at: isoDate,
  last_activity: isoDate,
  state: z.enum(SESSION_STATES),
  starting_commit: z.nullable(z.string()),
  ownership_log: z.array(z.unknown()),
  pinned: z.optional(z.boolean()),
  agent: z.optional(z.looseObject({ runtime: z.string(), model: z.nullable(z.string()) })),
  prompts: z.optional(
    z.array(z.looseObject({ name: z.string(), version: z.string(), source: z.enum(['package', 'user']) })),
  ),
  acknowledgments: z.array(z.looseObject({ at: isoDate, context_generated_at: isoDate, reason: z.string() })),
});
export const validateSessionRecord: Validate<SessionRecord> = recordChecker(sessionSchema);

export function sessionFile(paths: WorkspacePaths, sessionId: string): string {
  return path.join(activeDir(paths, sessionId), SESSION_FILE);
}

/** Reads an active session, or null when it does not exist. A corrupt file throws (exit 2, names the file). */
export function readSession(paths: WorkspacePaths, sessionId: string): SessionRecord | null {
  if (!UUID_V4.test(sessionId)) return null;
  return readJsonIfExists(sessionFile(paths, sessionId), validateSessionRecord);
}

/** Writes an active session atomically. */
export function writeSession(paths: WorkspacePaths, record: SessionRecord): void {
  writeJsonAtomic(sessionFile(paths, record.session_id), record);
}

/** The ids of the directories under `active/` that look like session ids. */
export function activeSessionIds(paths: WorkspacePaths): string[] {
  return listDir(paths.active).filter((name) => UUID_V4.test(name));
}

export interface ActiveSessions {
  sessions: SessionRecord[];
  /** Neighbours that could not be read: reported, never fatal, never treated as valid. */
  problems: { session_id: string; error: string }[];
}

/** Every readable active session of this worktree, plus the ones that are corrupt. */
export function listActiveSessions(paths: WorkspacePaths): ActiveSessions {
  const result: ActiveSessions = { sessions: [], problems: [] };
  for (const id of activeSessionIds(paths)) {
    try {
      const record = readSession(paths, id);
      if (record) result.sessions.push(record);
      else result.problems.push({ session_id: id, error: `${sessionFile(paths, id)} is missing` });
    } catch (error) {
      result.problems.push({ session_id: id, error: isHestaiError(error) ? error.message : String(error) });
    }
  }
  return result;
}

/**
 * Pure (CI-I2): does `ack` cover context generation `generation` at instant `atMs`? An acknowledgment covers
 * the generation it names, from when it was made, for one freshness period (`maxAgeHours`): after that the
 * context is stale again and needs a new acknowledgment or a refresh. Compared in whole seconds (git's
 * granularity), so `hestai verify` judges a commit date with the same rule as the hooks judge the clock.
 */
export function ackCovers(
  ack: Pick<Acknowledgment, 'at' | 'context_generated_at'>,
  generation: string,
  atMs: number,
  maxAgeHours: number,
): boolean {
  const made = Math.floor(Date.parse(ack.at) / 1000);
  const at = Math.floor(atMs / 1000);
  return ack.context_generated_at === generation && made <= at && at - made <= maxAgeHours * 3600;
}

/** Pure: does an acknowledgment cover the session's current context generation at `now` (see `ackCovers`)? */
export function isAcknowledged(session: SessionRecord, now: Date, maxAgeHours: number): boolean {
  return session.acknowledgments.some((ack) =>
    ackCovers(ack, session.context_generated_at, now.getTime(), maxAgeHours),
  );
}

const LIVE_STATES: ReadonlySet<string> = new Set(['CREATED', 'ACTIVE']);

/** Pure: is the session open (CREATED or ACTIVE)? The one definition every command, hook and tool uses. */
export function isLive(session: SessionRecord): boolean {
  return LIVE_STATES.has(session.state);
}
