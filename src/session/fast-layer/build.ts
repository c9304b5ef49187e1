import { stripControl } from '../../util/text.js';
import {
  getValue,
  octaveDocument,
  toObject,
  type OctaveDocument,
  type OctaveObjectInput,
  type OctaveValue,
} from '../../octave/index.js';
import type { SessionRecord } from '../../records/session.js';

/** Replaces characters OCTAVE cannot hold in a value (control characters, line separators) by spaces. */
export function oneLine(text: string): string {
  return stripControl(text.replace(/[\uD800-\uDFFF]/gu, ' '));
}

function strings(value: OctaveValue | undefined): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return value.trim() === '' ? [] : [oneLine(value)];
  return value.flatMap((v) => strings(v)).filter((s) => s !== '');
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

function meta(file: string): OctaveObjectInput {
  return { TYPE: 'FAST_LAYER', FILE: file, VERSION: '1', GENERATED_BY: 'hestai' };
}

/** `current-focus.oct.md`: session id, role, focus, branch and timestamps (CI-I4). */
export function buildCurrentFocus(input: {
  session: SessionRecord;
  selected: readonly string[];
  selection: 'ai' | 'deterministic';
}): OctaveDocument {
  const s = input.session;
  return octaveDocument('CURRENT_FOCUS', {
    META: meta('current-focus'),
    SESSION_ID: oneLine(s.session_id),
    ROLE: oneLine(s.role),
    FOCUS: oneLine(s.focus),
    FOCUS_SOURCE: oneLine(s.focus_source),
    BRANCH: s.branch === null ? '(detached)' : oneLine(s.branch),
    STARTED_AT: oneLine(s.started_at),
    CONTEXT_GENERATED_AT: oneLine(s.context_generated_at),
    STATUS: 'ACTIVE',
    SELECTION: input.selection,
    SELECTED_CONTEXT: input.selected.map(oneLine),
  });
}

/** The session's own checklist item. */
export function sessionTask(session: SessionRecord): string {
  return `session task: ${oneLine(session.focus)}`;
}

/** `checklist.oct.md`: the session task, incomplete items carried forward, then new items. */
export function buildChecklist(input: {
  previous: OctaveDocument | null;
  session: SessionRecord;
  extraItems: readonly string[];
}): OctaveDocument {
  const task = sessionTask(input.session);
  const carried = unique(strings(input.previous ? getValue(input.previous, 'PENDING') : undefined)).filter(
    (i) => i !== task,
  );
  return octaveDocument('CHECKLIST', {
    META: meta('checklist'),
    SESSION_ID: oneLine(input.session.session_id),
    UPDATED_AT: oneLine(input.session.context_generated_at),
    PENDING: unique([task, ...carried, ...input.extraItems.map(oneLine).filter((i) => i !== '')]),
    DONE: [],
    CARRIED_FORWARD: carried,
  });
}

/** `blockers.oct.md`: unresolved blockers kept, resolved ones dropped, the session's context added. */
export function buildBlockers(input: { previous: OctaveDocument | null; session: SessionRecord }): OctaveDocument {
  const s = input.session;
  return octaveDocument('BLOCKERS', {
    META: meta('blockers'),
    ACTIVE: unique(strings(input.previous ? getValue(input.previous, 'ACTIVE') : undefined)),
    RESOLVED: [],
    SESSION_CONTEXT: {
      SESSION_ID: oneLine(s.session_id),
      ROLE: oneLine(s.role),
      FOCUS: oneLine(s.focus),
      BRANCH: s.branch === null ? '(detached)' : oneLine(s.branch),
      AT: oneLine(s.context_generated_at),
    },
  });
}

/** clock-out: the current focus marked ENDED, or null when the file belongs to another session. */
export function markFocusEnded(current: OctaveDocument, sessionId: string, endedAt: string): OctaveDocument | null {
  if (getValue(current, 'SESSION_ID') !== sessionId) return null;
  const obj = toObject(current) as OctaveObjectInput & Record<string, unknown>;
  return octaveDocument(current.name, { ...obj, STATUS: 'ENDED', ENDED_AT: endedAt });
}
