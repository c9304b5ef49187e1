import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOctave, toObject, validateOctave, writeOctave, octaveDocument } from '../../../src/octave/index.js';
import {
  buildBlockers,
  buildCurrentFocus,
  checklistDocument,
  markFocusEnded,
  oneLine,
  planChecklist,
} from '../../../src/session/fast-layer/build.js';
import { buildArchiveDocument, archiveFileName, readArchiveEndedAt } from '../../../src/session/archive-doc.js';
import type { SessionRecord } from '../../../src/records/session.js';
import { runs } from '../../helpers/property.js';

const session: SessionRecord = {
  version: 1,
  session_id: '0b6f6d1e-1111-4222-8333-444455556666',
  role: 'implementation-lead',
  focus: 'implement clock_in, "fast"',
  focus_source: 'explicit',
  branch: 'feat/clock',
  working_dir: '/repo',
  model: null,
  started_at: '2026-01-10T10:00:00.000Z',
  context_generated_at: '2026-01-10T10:00:00.000Z',
  last_activity: '2026-01-10T10:00:00.000Z',
  state: 'ACTIVE',
  starting_commit: 'abc',
  ownership_log: [],
  acknowledgments: [],
};

const roundTrip = (doc: ReturnType<typeof checklistDocument>) => toObject(parseOctave(writeOctave(doc)));

describe('FAST layer documents (CI-I4)', () => {
  it('current-focus carries session, role, focus, branch and timestamp, and is valid OCTAVE', () => {
    const doc = buildCurrentFocus({ session, selected: ['src/a.ts'], selection: 'deterministic' });
    const obj = roundTrip(doc);
    expect(doc.name).toBe('CURRENT_FOCUS');
    expect(obj).toMatchObject({
      SESSION_ID: session.session_id,
      ROLE: 'implementation-lead',
      FOCUS: 'implement clock_in, "fast"',
      FOCUS_SOURCE: 'explicit',
      BRANCH: 'feat/clock',
      CONTEXT_GENERATED_AT: session.context_generated_at,
      STATUS: 'ACTIVE',
      SELECTED_CONTEXT: ['src/a.ts'],
    });
    expect((obj['META'] as Record<string, unknown>)['TYPE']).toBe('FAST_LAYER');
  });

  it('checklist keeps items a human wrote and the done ones, and records who owns each item', () => {
    const previous = parseOctave(
      writeOctave(
        octaveDocument('CHECKLIST', {
          PENDING: ['old task', 'session task: implement clock_in, "fast"'],
          DONE: ['finished'],
        }),
      ),
    );
    const obj = roundTrip(
      checklistDocument(planChecklist({ previous, session, extraItems: ['write the failing test', 'old task'] })),
    );
    expect(obj['PENDING']).toEqual(['session task: implement clock_in, "fast"', 'write the failing test', 'old task']);
    expect(obj['OWNERS']).toEqual([
      ['session', session.session_id, 'implement clock_in, "fast"'],
      ['session', session.session_id, 'implement clock_in, "fast"'],
      [],
    ]);
    expect(obj['DONE']).toEqual(['finished']);
  });

  it('checklist without a previous file holds the session task only', () => {
    const obj = roundTrip(checklistDocument(planChecklist({ previous: null, session, extraItems: [] })));
    expect(obj['PENDING']).toEqual(['session task: implement clock_in, "fast"']);
  });

  it('blockers keep unresolved ones, drop resolved ones and add session context', () => {
    const previous = parseOctave(
      writeOctave(octaveDocument('BLOCKERS', { ACTIVE: ['CI is red'], RESOLVED: ['flaky test'] })),
    );
    const obj = roundTrip(buildBlockers({ previous, session }));
    expect(obj['ACTIVE']).toEqual(['CI is red']);
    expect(obj['RESOLVED']).toEqual([]);
    expect(obj['SESSION_CONTEXT']).toMatchObject({
      SESSION_ID: session.session_id,
      ROLE: session.role,
      FOCUS: session.focus,
    });
  });

  it('clock-out marks the current focus as ended only for its own session', () => {
    const current = buildCurrentFocus({ session, selected: [], selection: 'deterministic' });
    const ended = markFocusEnded(current, session.session_id, '2026-01-10T12:00:00.000Z');
    expect(ended && toObject(ended)).toMatchObject({ STATUS: 'ENDED', ENDED_AT: '2026-01-10T12:00:00.000Z' });
    expect(markFocusEnded(current, 'another', '2026-01-10T12:00:00.000Z')).toBeNull();
  });
});

describe('session archive (OCTAVE)', () => {
  it('records role, focus, times, duration, summary, commits and anchor digest', () => {
    const doc = buildArchiveDocument(session, {
      ended_at: '2026-01-10T11:30:05.000Z',
      summary: 'done',
      commits: [{ sha: 'a'.repeat(40), header: 'feat: x' }],
      anchor_digest: 'sha256:0123456789abcdef',
      final_state: 'COMPLETED',
    });
    const text = writeOctave(doc);
    const obj = toObject(parseOctave(text));
    expect(obj).toMatchObject({
      SESSION_ID: session.session_id,
      ROLE: session.role,
      FOCUS: session.focus,
      STARTED_AT: session.started_at,
      ENDED_AT: '2026-01-10T11:30:05.000Z',
      DURATION: '1h 30m 5s',
      DURATION_SECONDS: '5405',
      SUMMARY: 'done',
      COMMITS: [`${'a'.repeat(40)} feat: x`],
      ANCHOR: 'sha256:0123456789abcdef',
      STATE: 'COMPLETED',
    });
    expect(readArchiveEndedAt(text)).toBe('2026-01-10T11:30:05.000Z');
    expect(readArchiveEndedAt('garbage')).toBeNull();
    expect(archiveFileName(session, '2026-01-10T11:30:05.000Z')).toBe(`20260110T113005Z-${session.session_id}.oct.md`);
  });
});

// Seed §8 "OCTAVE validation fails → retry with simpler content". Generated FAST documents reduce every
// value to one line first (`oneLine`), so no text, from a focus, a branch, a carried item or an AI proposal,
// can make the generated OCTAVE invalid; the one failure left, an existing file that is not valid OCTAVE, is
// moved aside and started afresh (see the clock-in integration tests).
describe('FAST layer documents from any text', () => {
  const anyText = fc.string({ unit: 'binary', maxLength: 40 });
  it('are always writable, valid OCTAVE, and read back as the one-line form of their input', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.option(anyText, { nil: null }),
        fc.array(anyText, { maxLength: 4 }),
        fc.array(anyText, { maxLength: 4 }),
        fc.array(anyText, { minLength: 4, maxLength: 4 }),
        (focus, branch, carried, extra, [role, startedAt, generatedAt, id]) => {
          // Values refresh and clock-out read back from session.json, whose validator only checks their types.
          const s: SessionRecord = {
            ...session,
            focus,
            branch,
            role: role!,
            started_at: startedAt!,
            context_generated_at: generatedAt!,
            session_id: id!,
          };
          const previousChecklist = octaveDocument('CHECKLIST', { PENDING: carried });
          const previousBlockers = octaveDocument('BLOCKERS', { ACTIVE: carried });
          const docs = [
            buildCurrentFocus({ session: s, selected: extra, selection: 'ai' }),
            checklistDocument(planChecklist({ previous: previousChecklist, session: s, extraItems: extra })),
            buildBlockers({ previous: previousBlockers, session: s }),
          ];
          for (const doc of docs) {
            const text = writeOctave(doc);
            expect(validateOctave(text)).toEqual([]);
            const obj = toObject(parseOctave(text)) as Record<string, unknown>;
            if (doc.name === 'CURRENT_FOCUS') expect(obj['FOCUS']).toBe(oneLine(focus));
          }
        },
      ),
      runs(300),
    );
  });
});
