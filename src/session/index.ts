/** The session API (seed 000): clock_in, refresh, ack, clock_out, cleanup, status and session resolution. */
export {
  clockIn,
  CLOCK_IN_INSTRUCTION,
  type ClockInInput,
  type ClockInResponse,
  type ClockInConflict,
} from './clock-in.js';
export { refreshSession, type RefreshResponse } from './refresh.js';
export { acknowledgeStale, type AcknowledgeResponse } from './ack.js';
export { clockOut, type ClockOutResponse } from './clock-out.js';
export { cleanupSessions, type CleanupResponse } from './cleanup.js';
export { sessionStatus, type SessionStatus, type SessionStatusEntry } from './status.js';
export { resolveSessionId, resolveSessionChoice, type SessionChoice } from '../records/resolve.js';
export type { SessionDeps } from './deps.js';
export type { ContextPaths, SessionContext } from './response.js';
export type { SelectionInfo } from './context/select.js';
export type { GithubContext, GithubIssue, GithubPr } from './context/github.js';
export { resolveFocus, focusFromBranch, type ResolvedFocus } from './rules/focus.js';
export { detectConflicts, type SessionConflict } from './rules/conflict.js';
export {
  isInactive,
  isArchiveExpired,
  isContextStale,
  contextAgeHours,
  sessionsToMarkStale,
} from '../records/freshness.js';
export { validateRole, ROLE_PATTERN, type ConflictResolution } from './rules/input.js';
export { rankContext, type ContextCandidate, type SelectedContext } from './context/rank.js';
