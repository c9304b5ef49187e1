import { DAY_MS, HOUR_MS } from '../clock.js';
import { isAcknowledged, isLive, type SessionRecord } from './session.js';

/** Pure: has the session had no activity for more than `staleHours` (seed 000 §7, default 72)? */
export function isInactive(session: SessionRecord, now: Date, staleHours: number): boolean {
  const last = Date.parse(session.last_activity);
  return !Number.isNaN(last) && now.getTime() - last > staleHours * HOUR_MS;
}

/**
 * Pure: the live sessions that must be marked STALE now: inactive for more than `staleHours`, unless
 * `stillValid` says the session could still commit (a valid anchor, context fresh or acknowledged now):
 * one clock-in after a long absence never marks a neighbour STALE within its own validity.
 */
export function sessionsToMarkStale(
  sessions: readonly SessionRecord[],
  now: Date,
  staleHours: number,
  stillValid: (session: SessionRecord) => boolean = () => false,
): SessionRecord[] {
  return sessions.filter((s) => isLive(s) && isInactive(s, now, staleHours) && !stillValid(s));
}

/**
 * The `stillValid` of `sessionsToMarkStale` for a worktree: the session holds a valid anchor and its context
 * is fresh or acknowledged at `now` under `freshness.max_age_hours`.
 */
export function anchoredAndFresh(
  hasValidAnchor: (sessionId: string) => boolean,
  now: Date,
  maxAgeHours: number,
): (session: SessionRecord) => boolean {
  return (s) => !isContextStale(s, now, maxAgeHours) && hasValidAnchor(s.session_id);
}

/** Pure: is an archive that ended at `endedAt` older than `retentionDays`? Unreadable dates never expire. */
export function isArchiveExpired(endedAt: string, now: Date, retentionDays: number): boolean {
  const ended = Date.parse(endedAt);
  return !Number.isNaN(ended) && now.getTime() - ended > retentionDays * DAY_MS;
}

/** Pure: hours from a context generation (an ISO instant) to `atMs`. */
export function ageHoursAt(generatedAt: string, atMs: number): number {
  return (atMs - Date.parse(generatedAt)) / HOUR_MS;
}

/**
 * Pure: is a context generated (or an anchor validated) at `generatedAt` older than `maxAgeHours` at `atMs`
 * (exactly `maxAgeHours` is not)? The one window every surface uses, for freshness.max_age_hours and
 * anchor.valid_hours alike: the hooks, status, the protocol, MCP and verify's anchor rule.
 */
export function isOlderAt(generatedAt: string, atMs: number, maxAgeHours: number): boolean {
  return atMs - Date.parse(generatedAt) > maxAgeHours * HOUR_MS;
}

/** Pure: hours since the session's context was generated (clock-in or refresh). */
export function contextAgeHours(session: SessionRecord, now: Date): number {
  return ageHoursAt(session.context_generated_at, now.getTime());
}

/** Pure: is the context older than `maxAgeHours` (acknowledged or not)? See {@link isOlderAt}. */
export function isContextOld(session: SessionRecord, now: Date, maxAgeHours: number): boolean {
  return isOlderAt(session.context_generated_at, now.getTime(), maxAgeHours);
}

/**
 * Pure (CI-I2): is the context older than `maxAgeHours` with no acknowledgment covering this generation now
 * (one acknowledgment covers one period: `ackCovers`)?
 */
export function isContextStale(session: SessionRecord, now: Date, maxAgeHours: number): boolean {
  return isContextOld(session, now, maxAgeHours) && !isAcknowledged(session, now, maxAgeHours);
}
