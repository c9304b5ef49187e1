/**
 * Pure rules of the FAST-layer checklist (seed 000 CI-I4, issue 18): every pending item belongs to a
 * session, to a focus, or to nobody (a line a person wrote). The list is bounded.
 *
 * - clock-in adds the session task and the provider's proposals (owned by the new session), adopts the
 *   items carried forward for its focus, hands the items of sessions that ended without clocking out to
 *   their focus, keeps everything else, and caps the pending list;
 * - clock-out marks the session's items DONE, except those it carries forward explicitly, which then
 *   belong to its focus (the next session on that focus adopts them).
 */

/** At most this many pending items; the oldest items of other owners are dropped first (reported). */
export const CHECKLIST_PENDING_CAP = 50;
/** At most this many DONE items are kept, newest first. */
export const CHECKLIST_DONE_CAP = 20;

export type ItemOwner =
  { kind: 'session'; session_id: string; focus: string } | { kind: 'focus'; focus: string } | { kind: 'none' };

export interface ChecklistItem {
  text: string;
  owner: ItemOwner;
}

export interface ChecklistState {
  pending: ChecklistItem[];
  done: string[];
}

interface Owner {
  session_id: string;
  focus: string;
}

/** The session's own checklist item. */
export function sessionTaskText(focus: string): string {
  return `session task: ${focus}`;
}

function sameFocus(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function owned(session: Owner, text: string): ChecklistItem {
  return { text, owner: { kind: 'session', session_id: session.session_id, focus: session.focus } };
}

function isOwnedBy(item: ChecklistItem, sessionId: string): boolean {
  return item.owner.kind === 'session' && item.owner.session_id === sessionId;
}

/** Pure: the checklist a clock-in writes, what it adopted (`carried`) and what the cap dropped. */
export function planClockInChecklist(input: {
  previous: ChecklistState;
  session: Owner;
  /** Ids of the sessions still live in this worktree (their items stay theirs). */
  live: ReadonlySet<string>;
  /** Proposed items (the AI provider's), in order. */
  items: readonly string[];
  cap?: number;
}): { state: ChecklistState; carried: string[]; dropped: string[] } {
  const { session } = input;
  const cap = input.cap ?? CHECKLIST_PENDING_CAP;
  const carried: string[] = [];
  const kept: ChecklistItem[] = [];
  for (const item of input.previous.pending) {
    let owner = item.owner;
    if (owner.kind === 'session' && owner.session_id !== session.session_id && !input.live.has(owner.session_id))
      owner = { kind: 'focus', focus: owner.focus };
    if (owner.kind === 'focus' && sameFocus(owner.focus, session.focus)) {
      carried.push(item.text);
      kept.push(owned(session, item.text));
    } else kept.push({ text: item.text, owner });
  }
  const previousTexts = new Set(kept.map((i) => i.text));
  const task = sessionTaskText(session.focus);
  const fresh = [task, ...input.items.filter((t) => t !== task && !previousTexts.has(t))];
  const seen = new Set<string>();
  const all: ChecklistItem[] = [];
  for (const item of [...fresh.map((t) => owned(session, t)), ...kept]) {
    if (item.text === '' || seen.has(item.text)) continue;
    seen.add(item.text);
    all.push(item);
  }
  // The new session's items come first, then the others in their order (newest first); what overflows goes.
  const mine = all.filter((i) => isOwnedBy(i, session.session_id));
  const others = all.filter((i) => !isOwnedBy(i, session.session_id));
  const keep = new Set([...mine.slice(0, cap), ...others.slice(0, Math.max(0, cap - mine.length))]);
  return {
    state: { pending: all.filter((i) => keep.has(i)), done: input.previous.done.slice(0, CHECKLIST_DONE_CAP) },
    carried,
    dropped: all.filter((i) => !keep.has(i)).map((i) => i.text),
  };
}

/**
 * Pure: the checklist a clock-out writes. The session's items are DONE unless carried (`'all'`, or by
 * exact text); carried items belong to the session's focus afterwards. `unknown` lists carry requests that
 * name none of the session's items (the caller refuses them).
 */
export function planClockOutChecklist(input: {
  previous: ChecklistState;
  session: Owner;
  carry: 'all' | readonly string[];
}): { state: ChecklistState; done: string[]; carried: string[]; unknown: string[] } {
  const { session, carry } = input;
  const mine = input.previous.pending.filter((i) => isOwnedBy(i, session.session_id)).map((i) => i.text);
  const wanted = carry === 'all' ? new Set(mine) : new Set(carry);
  const unknown = carry === 'all' ? [] : [...new Set(carry)].filter((t) => !mine.includes(t));
  const done: string[] = [];
  const carried: string[] = [];
  const pending: ChecklistItem[] = [];
  for (const item of input.previous.pending) {
    if (!isOwnedBy(item, session.session_id)) pending.push(item);
    else if (wanted.has(item.text)) {
      carried.push(item.text);
      pending.push({ text: item.text, owner: { kind: 'focus', focus: session.focus } });
    } else done.push(item.text);
  }
  const doneList = [...done, ...input.previous.done.filter((t) => !done.includes(t))].slice(0, CHECKLIST_DONE_CAP);
  return { state: { pending, done: doneList }, done, carried, unknown };
}
