/** Structure rules: envelope markers, the four sections and nothing else, stray lines. Pure. */
import { LEGACY_SECTIONS, SECTIONS, VECTOR_CLOSE, VECTOR_OPEN, type SectionName } from '../constants.js';
import type { ParsedVector } from '../vector.js';
import type { Violation } from './types.js';

/**
 * Which sections a submission must hold: the whole vector, the Amendment-01 vector (seed 003: no ARM, the
 * server injects its own), the context-stage or the proof-stage payload.
 */
export type VectorPart = 'vector' | 'amended' | 'bind' | 'proof';

export const PART_SECTIONS: Record<VectorPart, readonly SectionName[]> = {
  vector: SECTIONS,
  amended: ['BIND', 'TENSION', 'COMMIT'],
  bind: ['BIND'],
  proof: ['TENSION', 'COMMIT'],
};

const PART_LABEL: Record<VectorPart, string> = {
  vector: 'the vector',
  amended: 'the vector (## ARM may be left to the server)',
  bind: 'the context-stage payload (## BIND alone)',
  proof: 'the proof-stage payload (## TENSION and ## COMMIT)',
};

/** Checks markers (whole vector only), allowed, missing and duplicate sections, and lines outside sections. */
export function checkStructure(parsed: ParsedVector, part: VectorPart): Violation[] {
  const out: Violation[] = [];
  const allowed = PART_SECTIONS[part];
  if (part === 'vector' || part === 'amended') {
    if (parsed.open === null) {
      out.push({
        rule: 'STRUCTURE_MARKERS',
        section: 'STRUCTURE',
        message:
          parsed.openText === null
            ? `missing the opening marker ${VECTOR_OPEN}`
            : `opening marker ${parsed.openText} is not ${VECTOR_OPEN}`,
        fix: `Start the vector with the line ${VECTOR_OPEN} (schema v4.0).`,
      });
    }
    if (parsed.close === null) {
      out.push({
        rule: 'STRUCTURE_MARKERS',
        section: 'STRUCTURE',
        message: `missing the closing marker ${VECTOR_CLOSE}`,
        fix: `End the vector with the line ${VECTOR_CLOSE}.`,
      });
    }
  }
  const seen = new Map<string, number>();
  for (const section of parsed.sections) {
    const first = seen.get(section.name);
    if (first !== undefined) {
      out.push({
        rule: 'STRUCTURE_DUPLICATE_SECTION',
        section: 'STRUCTURE',
        line: section.line,
        message: `line ${section.line}: section ## ${section.name} appears twice (first on line ${first})`,
        fix: `Merge the two ## ${section.name} sections into one.`,
      });
      continue;
    }
    seen.set(section.name, section.line);
    if ((allowed as readonly string[]).includes(section.name)) continue;
    const legacy = (LEGACY_SECTIONS as readonly string[]).includes(section.name);
    const known = (SECTIONS as readonly string[]).includes(section.name);
    out.push({
      rule: 'STRUCTURE_EXTRA_SECTION',
      section: 'STRUCTURE',
      line: section.line,
      message: `line ${section.line}: section ## ${section.name} is not allowed in ${PART_LABEL[part]}${
        legacy
          ? ' (legacy section of the 6-section schema; v4.0 absorbed it)'
          : known
            ? ''
            : ` (allowed: ${allowed.join(', ')})`
      }`,
      fix: legacy
        ? `Remove ## ${section.name}: authority goes in BIND AUTHORITY, hazards and sources in TENSION CTX citations.`
        : `Remove ## ${section.name}; ${PART_LABEL[part]} holds only ${allowed.map((s) => `## ${s}`).join(', ')}.`,
    });
  }
  for (const name of allowed) {
    if (!seen.has(name)) {
      out.push({
        rule: 'STRUCTURE_MISSING_SECTION',
        section: 'STRUCTURE',
        message: `section ## ${name} is missing from ${PART_LABEL[part]} (a header counts only at column 0)`,
        fix: `Add a "## ${name}" header at the start of a line, followed by its lines.`,
      });
    }
  }
  for (const stray of parsed.outside) {
    out.push({
      rule: 'STRUCTURE_STRAY_LINE',
      section: 'STRUCTURE',
      line: stray.line,
      message: `line ${stray.line}: ${JSON.stringify(stray.text.trim().slice(0, 60))} is outside every section`,
      fix: 'Put every line under a "## SECTION" header, inside the vector markers.',
    });
  }
  return out;
}
