import { describe, expect, it } from 'vitest';
import {
  CHECKLIST_DONE_CAP,
  planClockInChecklist,
  planClockOutChecklist,
  sessionTaskText,
  type ChecklistItem,
  type ChecklistState,
} from '../../../src/session/rules/checklist.js';

const S1 = { session_id: '11111111-1111-4111-8111-111111111111', focus: 'login' };
const S2 = { session_id: '22222222-2222-4222-8222-222222222222', focus: 'billing' };
const own = (s: typeof S1, text: string): ChecklistItem => ({
  text,
  owner: { kind: 'session', session_id: s.session_id, focus: s.focus },
});
const human = (text: string): ChecklistItem => ({ text, owner: { kind: 'none' } });
const empty: ChecklistState = { pending: [], done: [] };

describe('planClockInChecklist at its edges', () => {
  it('the session task is listed once even when proposed, and empty proposals are left out', () => {
    const plan = planClockInChecklist({
      previous: empty,
      session: S1,
      live: new Set(),
      items: [sessionTaskText('login'), '', 'write the test', 'write the test'],
    });
    expect(plan.state.pending).toEqual([own(S1, 'session task: login'), own(S1, 'write the test')]);
  });

  it('when the new session alone exceeds the cap, its first items stay and every other item is dropped', () => {
    const plan = planClockInChecklist({
      previous: { pending: [human('old 1'), human('old 2')], done: [] },
      session: S1,
      live: new Set(),
      items: ['a', 'b', 'c'],
      cap: 2,
    });
    expect(plan.state.pending.map((i) => i.text)).toEqual(['session task: login', 'a']);
    expect(plan.dropped).toEqual(['b', 'c', 'old 1', 'old 2']);
  });

  it('a proposal that repeats an item of another owner stays that owner’s', () => {
    const plan = planClockInChecklist({
      previous: { pending: [own(S2, 'shared step')], done: [] },
      session: S1,
      live: new Set([S2.session_id]),
      items: ['shared step'],
    });
    expect(plan.state.pending).toEqual([own(S1, 'session task: login'), own(S2, 'shared step')]);
    expect(plan.carried).toEqual([]);
  });

  it(`keeps at most ${CHECKLIST_DONE_CAP} DONE items, newest first`, () => {
    const done = Array.from({ length: 25 }, (_, i) => `done ${i}`);
    const plan = planClockInChecklist({ previous: { pending: [], done }, session: S1, live: new Set(), items: [] });
    expect(plan.state.done).toEqual(done.slice(0, CHECKLIST_DONE_CAP));
  });
});

describe('planClockOutChecklist at its edges', () => {
  const previous: ChecklistState = {
    pending: [own(S1, 'session task: login'), own(S1, 'write the test'), human('migrate')],
    done: ['write the test', 'older'],
  };

  it('an item done again is listed once in DONE, newest first', () => {
    const plan = planClockOutChecklist({ previous, session: S1, carry: [] });
    expect(plan.state.done).toEqual(['session task: login', 'write the test', 'older']);
    expect(plan.unknown).toEqual([]);
  });

  it('names each unknown carry request once, and carry all has none', () => {
    const plan = planClockOutChecklist({ previous, session: S1, carry: ['nope', 'nope', 'migrate', 'write the test'] });
    expect(plan.unknown).toEqual(['nope', 'migrate']);
    expect(plan.carried).toEqual(['write the test']);
    expect(planClockOutChecklist({ previous, session: S1, carry: 'all' }).unknown).toEqual([]);
  });

  it('a session with no items changes nothing but the cap on DONE', () => {
    const plan = planClockOutChecklist({ previous, session: S2, carry: [] });
    expect(plan).toEqual({
      state: { pending: previous.pending, done: previous.done },
      done: [],
      carried: [],
      unknown: [],
    });
  });
});
