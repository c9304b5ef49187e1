import type { WorkspacePaths } from '../../paths.js';
import type { SessionRecord } from '../../records/session.js';
import { CHECKLIST_PENDING_CAP } from '../rules/checklist.js';
import { buildBlockers, buildCurrentFocus, checklistDocument, planChecklist } from './build.js';
import { readFastDoc, writeFastDocs } from './io.js';
import { buildCurrentState } from './current-state.js';
import type { FastSynthesis } from '../context/fast-synth.js';
import type { GeneratedContext } from '../generate.js';

export interface FastLayerUpdate {
  written: string[];
  carried_forward: number;
  /** STEP_6: `ai` when the provider's validated reply was used, else `deterministic` with the reason. */
  synthesis: FastSynthesis;
  /** The checklist after this clock-in: pending count, the cap, items adopted for the focus, items the cap dropped. */
  checklist: { pending: number; cap: number; carried_forward: string[]; dropped: string[] };
}

/**
 * CI-I4 and STEP_8: rewrites current-focus, current-state (the gathered context), checklist (see rules/checklist.ts: owned items, carried forward for the
 * focus, capped) and blockers (unresolved kept) for a session. Seed §8's "OCTAVE validation fails → retry
 * with simpler content" is met before writing rather than after: every value is reduced to one line
 * (`oneLine`), so a generated document is always valid OCTAVE (a property test holds this for any text),
 * and a previous file that is not valid OCTAVE is moved aside and started afresh, reported in `warnings`
 * (`readFastDoc`). `live`: the ids of the other live sessions of the worktree (their checklist items stay
 * theirs).
 */
export function updateFastLayer(
  paths: WorkspacePaths,
  session: SessionRecord,
  generated: GeneratedContext,
  live: ReadonlySet<string>,
  warnings: string[],
): FastLayerUpdate {
  const { gathered, fast } = generated;
  const selected = generated.selection.selected.map((s) => s.path);
  const selection = generated.selection.selection.method;
  const previousChecklist = readFastDoc(paths.checklist, session.context_generated_at, warnings);
  const previousBlockers = readFastDoc(paths.blockers, session.context_generated_at, warnings);
  // Regenerated whole, but a person may have written in them: a file that is not OCTAVE is kept aside too.
  readFastDoc(paths.currentFocus, session.context_generated_at, warnings);
  readFastDoc(paths.currentState, session.context_generated_at, warnings);
  const checklist = planChecklist({
    previous: previousChecklist,
    session,
    extraItems: generated.selection.checklist,
    live,
  });
  if (checklist.dropped.length > 0)
    warnings.push(
      `the checklist holds at most ${CHECKLIST_PENDING_CAP} pending items: dropped the ${checklist.dropped.length} oldest of other sessions and focuses (${checklist.dropped.slice(0, 3).join('; ')}${checklist.dropped.length > 3 ? '; …' : ''})`,
    );
  const docs = [
    {
      file: paths.currentFocus,
      doc: buildCurrentFocus({
        session,
        selected,
        selection,
        synthesis: fast.synthesis.method,
        extras: fast.extras?.focus,
      }),
    },
    { file: paths.checklist, doc: checklistDocument(checklist) },
    {
      file: paths.blockers,
      doc: buildBlockers({ previous: previousBlockers, session, potential: fast.extras?.blockers.POTENTIAL }),
    },
    {
      file: paths.currentState,
      doc: buildCurrentState({
        session,
        gathered,
        selected,
        selection,
      }),
    },
  ];
  writeFastDocs(docs);
  return {
    written: docs.map((d) => d.file),
    carried_forward: checklist.carried.length,
    synthesis: fast.synthesis,
    checklist: {
      pending: checklist.state.pending.length,
      cap: CHECKLIST_PENDING_CAP,
      carried_forward: checklist.carried,
      dropped: checklist.dropped,
    },
  };
}
