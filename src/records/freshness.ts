import { DAY_MS, HOUR_MS } from '../clock.js';
import { isAcknowledged, isLive, type SessionRecord } from './session.js';

export { isLive };

/** Pure: has the session had no activity for more than `staleHours` (seed 000 §7, default 72)? */
export function isInactive(session: SessionRecord, now: Date, staleHours: number): boolean {
  const last = Date.parse(session.last_activity);
  return !Number.isNaN(last) && now.getTime() - last > staleHours * HOUR_MS;
}

/** Pure: the live sessions that must be marked STALE now. */
export function sessionsToMarkStale(
  sessions: readonly SessionRecord[],
  now: Date,
  staleHours: number,
): SessionRecord[] {
  return sessions.filter((s) => isLive(s) && isInactive(s, now, staleHours));
}

/** Pure: is an archive that ended at `endedAt` older than `retentionDays`? Unreadable dates never expire. */
export function isArchiveExpired(endedAt: string, now: Date, retentionDays: number): boolean {
  const ended = Date.parse(endedAt);
  return !Number.isNaN(ended) && now.getTime() - ended > retentionDays * DAY_MS;
}

/** Pure: hours since the session's context was generated (clock-in or refresh). */
export function contextAgeHours(session: SessionRecord, now: Date): number {
  return (now.getTime() - Date.parse(session.context_generated_at)) / HOUR_MS;
}

/** Pure: is the context older than `maxAgeHours` (acknowledged or not)? The one threshold every surface uses. */
export function isContextOld(session: SessionRecord, now: Date, maxAgeHours: number): boolean {
  return now.getTime() - Date.parse(session.context_generated_at) > maxAgeHours * HOUR_MS;
}

/** Pure (CI-I2): is the context older than `maxAgeHours` with no acknowledgment of this generation? */
export function isContextStale(session: SessionRecord, now: Date, maxAgeHours: number): boolean {
  return isContextOld(session, now, maxAgeHours) && !isAcknowledged(session);
}
