import { describe, expect, it } from 'vitest';
import {
  CHECKLIST_DONE_CAP,
  CHECKLIST_PENDING_CAP,
  planClockInChecklist,
  planClockOutChecklist,
  type ChecklistItem,
  type ChecklistState,
} from '../../../src/session/rules/checklist.js';

const S1 = { session_id: '11111111-1111-4111-8111-111111111111', focus: 'login' };
const S2 = { session_id: '22222222-2222-4222-8222-222222222222', focus: 'billing' };
const S3 = { session_id: '33333333-3333-4333-8333-333333333333', focus: 'login' };

const own = (s: typeof S1, text: string): ChecklistItem => ({
  text,
  owner: { kind: 'session', session_id: s.session_id, focus: s.focus },
});
const empty: ChecklistState = { pending: [], done: [] };

describe('planClockInChecklist: items belong to a session or a focus', () => {
  it('adds the session task and the proposed items, owned by the new session', () => {
    const plan = planClockInChecklist({ previous: empty, session: S1, live: new Set(), items: ['write the test'] });
    expect(plan.state.pending).toEqual([own(S1, 'session task: login'), own(S1, 'write the test')]);
    expect(plan.carried).toEqual([]);
    expect(plan.dropped).toEqual([]);
  });

  it('keeps the items of a live neighbour as theirs', () => {
    const previous: ChecklistState = { pending: [own(S2, 'session task: billing')], done: [] };
    const plan = planClockInChecklist({ previous, session: S1, live: new Set([S2.session_id]), items: [] });
    expect(plan.state.pending).toEqual([own(S1, 'session task: login'), own(S2, 'session task: billing')]);
  });

  it('adopts the items carried forward for its focus, and keeps those of other focuses with their focus', () => {
    const previous: ChecklistState = {
      pending: [
        { text: 'finish the form', owner: { kind: 'focus', focus: 'Login ' } },
        { text: 'invoice totals', owner: { kind: 'focus', focus: 'billing' } },
      ],
      done: [],
    };
    const plan = planClockInChecklist({ previous, session: S3, live: new Set(), items: [] });
    expect(plan.state.pending).toEqual([
      own(S3, 'session task: login'),
      own(S3, 'finish the form'),
      { text: 'invoice totals', owner: { kind: 'focus', focus: 'billing' } },
    ]);
    expect(plan.carried).toEqual(['finish the form']);
  });

  it('hands the items of a session that ended without clocking out to its focus', () => {
    const previous: ChecklistState = { pending: [own(S2, 'session task: billing'), own(S1, 'a login step')], done: [] };
    const plan = planClockInChecklist({ previous, session: S3, live: new Set(), items: [] });
    expect(plan.state.pending).toEqual([
      own(S3, 'session task: login'),
      { text: 'session task: billing', owner: { kind: 'focus', focus: 'billing' } },
      own(S3, 'a login step'),
    ]);
    expect(plan.carried).toEqual(['a login step']);
  });

  it('keeps items a human wrote (no owner), and never lists one text twice', () => {
    const previous: ChecklistState = {
      pending: [{ text: 'migrate store', owner: { kind: 'none' } }, own(S1, 'session task: login')],
      done: ['shipped'],
    };
    const plan = planClockInChecklist({ previous, session: S3, live: new Set(), items: ['migrate store'] });
    expect(plan.state.pending.map((i) => i.text)).toEqual(['session task: login', 'migrate store']);
    expect(plan.state.done).toEqual(['shipped']);
  });

  it(`caps the pending list at ${CHECKLIST_PENDING_CAP}: the oldest items of others go first, the new session's stay`, () => {
    const previous: ChecklistState = {
      pending: Array.from({ length: 70 }, (_, i) => ({ text: `item ${i}`, owner: { kind: 'none' as const } })),
      done: [],
    };
    const plan = planClockInChecklist({ previous, session: S1, live: new Set(), items: ['a', 'b'] });
    expect(plan.state.pending).toHaveLength(CHECKLIST_PENDING_CAP);
    expect(plan.state.pending.slice(0, 3).map((i) => i.text)).toEqual(['session task: login', 'a', 'b']);
    expect(plan.dropped).toEqual(Array.from({ length: 23 }, (_, i) => `item ${47 + i}`));
  });

  it('stays bounded over many clock-ins that never clock out', () => {
    let state: ChecklistState = empty;
    for (let i = 0; i < 200; i++) {
      const s = { session_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, focus: `focus ${i % 7}` };
      state = planClockInChecklist({ previous: state, session: s, live: new Set(), items: ['x', `y ${i}`] }).state;
      expect(state.pending.length).toBeLessThanOrEqual(CHECKLIST_PENDING_CAP);
    }
  });
});

describe('planClockOutChecklist: DONE, or carried forward explicitly', () => {
  const previous: ChecklistState = {
    pending: [own(S1, 'session task: login'), own(S1, 'write the test'), own(S2, 'session task: billing')],
    done: ['old'],
  };

  it("marks the session's own items DONE by default and leaves the others", () => {
    const plan = planClockOutChecklist({ previous, session: S1, carry: [] });
    expect(plan.done).toEqual(['session task: login', 'write the test']);
    expect(plan.carried).toEqual([]);
    expect(plan.state.pending).toEqual([own(S2, 'session task: billing')]);
    expect(plan.state.done).toEqual(['session task: login', 'write the test', 'old']);
  });

  it('carries the named items forward to its focus, the rest DONE', () => {
    const plan = planClockOutChecklist({ previous, session: S1, carry: ['write the test'] });
    expect(plan.done).toEqual(['session task: login']);
    expect(plan.carried).toEqual(['write the test']);
    expect(plan.state.pending).toEqual([
      { text: 'write the test', owner: { kind: 'focus', focus: 'login' } },
      own(S2, 'session task: billing'),
    ]);
  });

  it('carries everything with carry: all, and names an item that is not the session’s', () => {
    expect(planClockOutChecklist({ previous, session: S1, carry: 'all' }).carried).toEqual([
      'session task: login',
      'write the test',
    ]);
    expect(planClockOutChecklist({ previous, session: S1, carry: ['session task: billing'] }).unknown).toEqual([
      'session task: billing',
    ]);
  });

  it(`caps DONE at ${CHECKLIST_DONE_CAP}, newest first`, () => {
    const many: ChecklistState = {
      pending: Array.from({ length: 30 }, (_, i) => own(S1, `step ${i}`)),
      done: [],
    };
    const plan = planClockOutChecklist({ previous: many, session: S1, carry: [] });
    expect(plan.state.done).toHaveLength(CHECKLIST_DONE_CAP);
    expect(plan.state.done[0]).toBe('step 0');
  });
});
