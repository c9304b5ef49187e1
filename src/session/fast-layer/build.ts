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
import type { FastExtras } from '../context/fast-reply.js';
import {
  CHECKLIST_PENDING_CAP,
  planClockInChecklist,
  type ChecklistState,
  type ItemOwner,
} from '../rules/checklist.js';

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
  /** STEP_6: how the layer was synthesised, and what the provider added (validated, one line each). */
  synthesis?: 'ai' | 'deterministic';
  extras?: FastExtras['focus'] | undefined;
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
    SYNTHESIS: input.synthesis ?? 'deterministic',
    ...(input.extras?.SUMMARY ? { SUMMARY: oneLine(input.extras.SUMMARY) } : {}),
    ...(input.extras?.NEXT_STEPS ? { NEXT_STEPS: input.extras.NEXT_STEPS.map(oneLine) } : {}),
    ...(input.extras?.RISKS ? { RISKS: input.extras.RISKS.map(oneLine) } : {}),
  });
}

function ownerValue(owner: ItemOwner): string[] {
  if (owner.kind === 'session') return ['session', owner.session_id, owner.focus];
  if (owner.kind === 'focus') return ['focus', owner.focus];
  return [];
}

function ownerOf(value: OctaveValue | undefined): ItemOwner {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return { kind: 'none' };
  const [kind, a, b] = value as string[];
  if (kind === 'session' && a !== undefined && b !== undefined) return { kind: 'session', session_id: a, focus: b };
  if (kind === 'focus' && a !== undefined) return { kind: 'focus', focus: a };
  return { kind: 'none' };
}

/**
 * Reads a checklist document: `PENDING` (the texts), `OWNERS` (one entry per pending item, by position:
 * `[session, id, focus]`, `[focus, focus]`, or `[]` for a line a person wrote) and `DONE`. A person may
 * edit `PENDING` by hand: an item without a matching `OWNERS` entry belongs to nobody and is kept.
 */
export function checklistState(doc: OctaveDocument | null): ChecklistState {
  if (doc === null) return { pending: [], done: [] };
  const pendingValue = getValue(doc, 'PENDING');
  const pendingTexts = Array.isArray(pendingValue)
    ? pendingValue.map((v) => strings(v).join(' '))
    : strings(pendingValue);
  const owners = getValue(doc, 'OWNERS');
  return {
    pending: pendingTexts
      .map((text, i) => ({ text, owner: ownerOf(Array.isArray(owners) ? owners[i] : undefined) }))
      .filter((item) => item.text !== ''),
    done: unique(strings(getValue(doc, 'DONE'))),
  };
}

/** `checklist.oct.md` from a checklist state (items, their owners, DONE, what was carried forward, the cap). */
export function checklistDocument(input: {
  state: ChecklistState;
  sessionId: string;
  updatedAt: string;
  carried: readonly string[];
}): OctaveDocument {
  const one = (owner: ItemOwner): ItemOwner =>
    owner.kind === 'session'
      ? { kind: 'session', session_id: oneLine(owner.session_id), focus: oneLine(owner.focus) }
      : owner.kind === 'focus'
        ? { kind: 'focus', focus: oneLine(owner.focus) }
        : owner;
  return octaveDocument('CHECKLIST', {
    META: meta('checklist'),
    SESSION_ID: oneLine(input.sessionId),
    UPDATED_AT: oneLine(input.updatedAt),
    CAP: String(CHECKLIST_PENDING_CAP),
    PENDING: input.state.pending.map((i) => oneLine(i.text)),
    OWNERS: input.state.pending.map((i) => ownerValue(one(i.owner))),
    DONE: input.state.done.map(oneLine),
    CARRIED_FORWARD: input.carried.map(oneLine),
  });
}

/**
 * The checklist at clock-in (`checklistDocument` writes it): the session task and proposed items, the items
 * carried forward for its focus, everything else kept, capped (see rules/checklist.ts); with what was carried
 * and dropped.
 */
export function planChecklist(input: {
  previous: OctaveDocument | null;
  session: SessionRecord;
  extraItems: readonly string[];
  /** Ids of the live sessions of the worktree (default: none besides this one). */
  live?: ReadonlySet<string>;
}): { state: ChecklistState; sessionId: string; updatedAt: string; carried: string[]; dropped: string[] } {
  const s = input.session;
  const plan = planClockInChecklist({
    previous: checklistState(input.previous),
    session: { session_id: oneLine(s.session_id), focus: oneLine(s.focus) },
    live: input.live ?? new Set(),
    items: input.extraItems.map(oneLine).filter((i) => i !== ''),
  });
  return { ...plan, sessionId: s.session_id, updatedAt: s.context_generated_at };
}

/** `blockers.oct.md`: unresolved blockers kept, resolved ones dropped, the session's context added. */
export function buildBlockers(input: {
  previous: OctaveDocument | null;
  session: SessionRecord;
  /** STEP_6: possible blockers the provider named (never replaces ACTIVE). */
  potential?: readonly string[] | undefined;
}): OctaveDocument {
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
    ...(input.potential ? { POTENTIAL: input.potential.map(oneLine) } : {}),
  });
}

/** clock-out: the current focus marked ENDED, or null when the file belongs to another session. */
export function markFocusEnded(current: OctaveDocument, sessionId: string, endedAt: string): OctaveDocument | null {
  if (getValue(current, 'SESSION_ID') !== sessionId) return null;
  const obj = toObject(current) as OctaveObjectInput & Record<string, unknown>;
  return octaveDocument(current.name, { ...obj, STATUS: 'ENDED', ENDED_AT: endedAt });
}
