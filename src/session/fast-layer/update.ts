import type { WorkspacePaths } from '../../paths.js';
import type { SessionRecord } from '../../records/session.js';
import { CHECKLIST_PENDING_CAP } from '../rules/checklist.js';
import { buildBlockers, buildCurrentFocus, checklistDocument, planChecklist } from './build.js';
import { readFastDoc, writeFastDocs } from './io.js';
import { buildCurrentState } from './current-state.js';
import type { GatheredContext } from '../context/gather.js';
import type { FastSynthesis } from '../context/fast-synth.js';
import type { FastExtras } from '../context/fast-reply.js';

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
 * (`readFastDoc`).
 */
export function updateFastLayer(
  paths: WorkspacePaths,
  session: SessionRecord,
  input: {
    selected: readonly string[];
    selection: 'ai' | 'deterministic';
    checklistItems: readonly string[];
    /** Ids of the other live sessions of the worktree (their checklist items stay theirs). */
    live: ReadonlySet<string>;
    /** The gathered context, written as `current-state.oct.md` (STEP_8). */
    gathered: GatheredContext;
    /** STEP_6: how the layer was synthesised and what the provider added. */
    fast: { synthesis: FastSynthesis; extras: FastExtras | null };
  },
  warnings: string[],
): FastLayerUpdate {
  const previousChecklist = readFastDoc(paths.checklist, session.context_generated_at, warnings);
  const previousBlockers = readFastDoc(paths.blockers, session.context_generated_at, warnings);
  const checklist = planChecklist({
    previous: previousChecklist,
    session,
    extraItems: input.checklistItems,
    live: input.live,
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
        selected: input.selected,
        selection: input.selection,
        synthesis: input.fast.synthesis.method,
        extras: input.fast.extras?.focus,
      }),
    },
    { file: paths.checklist, doc: checklistDocument(checklist) },
    {
      file: paths.blockers,
      doc: buildBlockers({ previous: previousBlockers, session, potential: input.fast.extras?.blockers.POTENTIAL }),
    },
    {
      file: paths.currentState,
      doc: buildCurrentState({
        session,
        gathered: input.gathered,
        selected: input.selected,
        selection: input.selection,
      }),
    },
  ];
  writeFastDocs(docs);
  return {
    written: docs.map((d) => d.file),
    carried_forward: checklist.carried.length,
    synthesis: input.fast.synthesis,
    checklist: {
      pending: checklist.state.pending.length,
      cap: CHECKLIST_PENDING_CAP,
      carried_forward: checklist.carried,
      dropped: checklist.dropped,
    },
  };
}
