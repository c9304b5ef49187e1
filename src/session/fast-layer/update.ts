import { isHestaiError } from '../../errors.js';
import type { WorkspacePaths } from '../../paths.js';
import type { SessionRecord } from '../record.js';
import { buildBlockers, buildChecklist, buildCurrentFocus } from './build.js';
import { readFastDoc, writeFastDocs } from './io.js';

export interface FastLayerUpdate {
  written: string[];
  carried_forward: number;
}

/**
 * CI-I4: rewrites current-focus, checklist (incomplete items carried forward) and blockers (unresolved
 * kept) for a session. If a document cannot be written as OCTAVE, it retries with simpler content (the
 * previous files' items left out) and says so in `warnings`.
 */
export function updateFastLayer(
  paths: WorkspacePaths,
  session: SessionRecord,
  input: { selected: readonly string[]; selection: 'ai' | 'deterministic'; checklistItems: readonly string[] },
  warnings: string[],
): FastLayerUpdate {
  const previousChecklist = readFastDoc(paths.checklist, session.context_generated_at, warnings);
  const previousBlockers = readFastDoc(paths.blockers, session.context_generated_at, warnings);
  const build = (simple: boolean) => {
    const checklist = buildChecklist({ previous: simple ? null : previousChecklist, session, extraItems: simple ? [] : input.checklistItems });
    return [
      { file: paths.currentFocus, doc: buildCurrentFocus({ session, selected: simple ? [] : input.selected, selection: input.selection }) },
      { file: paths.checklist, doc: checklist },
      { file: paths.blockers, doc: buildBlockers({ previous: simple ? null : previousBlockers, session }) },
    ];
  };
  let docs = build(false);
  try {
    writeFastDocs(docs);
  } catch (error) {
    if (!isHestaiError(error) || error.code !== 'OCTAVE_UNWRITABLE') throw error;
    warnings.push(`FAST layer: ${error.message}; wrote simpler content instead`);
    docs = build(true);
    writeFastDocs(docs);
  }
  const carried = docs[1]!.doc.entries.find((e) => e.key === 'CARRIED_FORWARD');
  return {
    written: docs.map((d) => d.file),
    carried_forward: carried && 'value' in carried && Array.isArray(carried.value) ? carried.value.length : 0,
  };
}
