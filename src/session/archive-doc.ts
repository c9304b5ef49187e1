import { getValue, octaveDocument, tryParseOctave, type OctaveDocument } from '../octave/index.js';
import { oneLine } from './fast-layer/build.js';
import type { SessionRecord, SessionState } from '../records/session.js';

export interface ArchiveFacts {
  ended_at: string;
  summary: string;
  commits: readonly { sha: string; header: string }[];
  anchor_digest: string | null;
  /** The session's final state; `ABORTED` only in an archive (a session withdrawn after a focus conflict, CI-I5). */
  final_state: SessionState | 'ABORTED';
}

/** Pure: `1h 30m 5s` (leading zero units left out). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [h > 0 ? `${h}h` : '', h > 0 || m > 0 ? `${m}m` : '', `${s % 60}s`].filter((p) => p !== '');
  return parts.join(' ');
}

/** Pure: the archived session in OCTAVE (seed 000 §7: role, focus, times, duration, summary, commits, anchor). */
export function buildArchiveDocument(session: SessionRecord, facts: ArchiveFacts): OctaveDocument {
  const seconds = Math.max(0, (Date.parse(facts.ended_at) - Date.parse(session.started_at)) / 1000);
  return octaveDocument('SESSION_ARCHIVE', {
    META: { TYPE: 'SESSION_ARCHIVE', VERSION: '1' },
    SESSION_ID: session.session_id,
    ROLE: session.role,
    FOCUS: oneLine(session.focus),
    FOCUS_SOURCE: session.focus_source,
    BRANCH: session.branch === null ? '(detached)' : oneLine(session.branch),
    MODEL: session.model === null ? 'none' : oneLine(session.model),
    STARTED_AT: session.started_at,
    ENDED_AT: facts.ended_at,
    DURATION: formatDuration(seconds),
    DURATION_SECONDS: String(Math.round(seconds)),
    CONTEXT_GENERATED_AT: session.context_generated_at,
    LAST_ACTIVITY: session.last_activity,
    STATE: facts.final_state,
    SUMMARY: oneLine(facts.summary),
    STARTING_COMMIT: session.starting_commit ?? 'none',
    COMMITS: facts.commits.map((c) => oneLine(`${c.sha} ${c.header}`)),
    ANCHOR: facts.anchor_digest ?? 'none',
    // How the session ended up bound: a session can be closed without ever being anchored (its own MCP
    // connection may always close it), and the archive says so.
    BINDING: facts.anchor_digest === null ? 'unanchored' : 'anchored',
    OWNERSHIP: session.ownership_log.map((e) => `${e.at} ${e.event} ${e.other_session_id}`),
    ACKNOWLEDGMENTS: session.acknowledgments.map((a) => oneLine(`${a.at} ${a.context_generated_at} ${a.reason}`)),
  });
}

/** Pure: `20260110T113005Z-<session id>.oct.md` (sorts by end time). */
export function archiveFileName(session: SessionRecord, endedAt: string): string {
  const stamp = new Date(endedAt)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `${stamp}-${session.session_id}.oct.md`;
}

/** Pure: the `ENDED_AT` of an archive's text, or null when it cannot be read. */
export function readArchiveEndedAt(text: string): string | null {
  const parsed = tryParseOctave(text);
  return parsed.ok ? archiveEndedAt(getValue(parsed.doc, 'ENDED_AT')) : null;
}

/** Pure: an archive's `ENDED_AT` value when it is an instant, else null (the one reading: sweep and MCP). */
export function archiveEndedAt(value: unknown): string | null {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : null;
}
