import type { WorkspacePaths } from '../../paths.js';
import type { SessionRecord } from '../../records/session.js';
import { buildBlockers, buildChecklist, buildCurrentFocus } from './build.js';
import { readFastDoc, writeFastDocs } from './io.js';

export interface FastLayerUpdate {
  written: string[];
  carried_forward: number;
}

/**
 * CI-I4: rewrites current-focus, checklist (incomplete items carried forward) and blockers (unresolved
 * kept) for a session. Seed §8's "OCTAVE validation fails → retry with simpler content" is met before
 * writing rather than after: every value is reduced to one line (`oneLine`), so a generated document is
 * always valid OCTAVE (a property test holds this for any text), and a previous file that is not valid
 * OCTAVE is moved aside and started afresh, reported in `warnings` (`readFastDoc`).
 */
export function updateFastLayer(
  paths: WorkspacePaths,
  session: SessionRecord,
  input: { selected: readonly string[]; selection: 'ai' | 'deterministic'; checklistItems: readonly string[] },
  warnings: string[],
): FastLayerUpdate {
  const previousChecklist = readFastDoc(paths.checklist, session.context_generated_at, warnings);
  const previousBlockers = readFastDoc(paths.blockers, session.context_generated_at, warnings);
  const docs = [
    {
      file: paths.currentFocus,
      doc: buildCurrentFocus({ session, selected: input.selected, selection: input.selection }),
    },
    {
      file: paths.checklist,
      doc: buildChecklist({ previous: previousChecklist, session, extraItems: input.checklistItems }),
    },
    { file: paths.blockers, doc: buildBlockers({ previous: previousBlockers, session }) },
  ];
  writeFastDocs(docs);
  const carried = docs[1]!.doc.entries.find((e) => e.key === 'CARRIED_FORWARD');
  return {
    written: docs.map((d) => d.file),
    carried_forward: carried && 'value' in carried && Array.isArray(carried.value) ? carried.value.length : 0,
  };
}
