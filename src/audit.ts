import type { WorkspacePaths } from './paths.js';
import { appendJsonl } from './state/store.js';

/** One line of `.hestai/audit/audit.jsonl`: what happened, to which session, when, and any details. */
export interface AuditRecord {
  event: string;
  session_id: string | null;
  /** ISO-8601; defaults to now (pass the injected clock's reading). */
  at?: string;
  [key: string]: unknown;
}

/** Appends an audit line (append-only JSONL; one write per line, so concurrent writers do not interleave). */
export function appendAudit(paths: WorkspacePaths, record: AuditRecord): void {
  const { event, session_id, at, ...rest } = record;
  appendJsonl(paths.auditLog, { at: at ?? new Date().toISOString(), event, session_id, ...rest });
}
