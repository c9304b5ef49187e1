import { tryParseOctave, validateOctave, writeOctave, type OctaveDocument } from '../../octave/index.js';
import { readTextIfExists, renameStatePath, storageError, writeFileAtomic } from '../../state/store.js';

/**
 * Reads a FAST-layer file. A file that is not valid OCTAVE is moved aside to `<file>.corrupt-<stamp>`
 * (nothing is lost) and reported in `warnings`; the caller then starts that file afresh.
 */
export function readFastDoc(file: string, at: string, warnings: string[]): OctaveDocument | null {
  let text: string | null;
  try {
    text = readTextIfExists(file);
  } catch (error) {
    throw storageError(file, error);
  }
  if (text === null) return null;
  const parsed = tryParseOctave(text);
  if (parsed.ok) return parsed.doc;
  const aside = `${file}.corrupt-${at.replace(/[-:.]/g, '')}`;
  renameStatePath(file, aside);
  warnings.push(
    `${file} was not valid OCTAVE (line ${parsed.errors[0]?.line}: ${parsed.errors[0]?.message}); moved it to ${aside} and started afresh`,
  );
  return null;
}

/** Writes FAST-layer documents: each is serialised, validated as OCTAVE, then written atomically. */
export function writeFastDocs(entries: readonly { file: string; doc: OctaveDocument }[]): void {
  const texts = entries.map(({ file, doc }) => {
    const text = writeOctave(doc);
    const problems = validateOctave(text);
    if (problems.length > 0)
      throw new Error(`internal: generated OCTAVE for ${file} does not validate: ${problems[0]!.message}`);
    return { file, text };
  });
  for (const { file, text } of texts) writeFileAtomic(file, text);
}
