import { stripControl } from '../../util/text.js';

/** An architecture decision record found in the repository, reduced to what constrains work. */
export interface AdrConstraint {
  path: string;
  title: string;
  status: string | null;
  /** The first line of its Decision section. */
  decision: string | null;
}

const IN_ADR_DIR = /(^|\/)(adrs?|decisions|decision-records|architecture-decisions)\/[^/]+\.(md|markdown)$/i;
const ADR_NAME = /(^|\/)adr[-_ ]?\d+[^/]*\.(md|markdown)$/i;
const NOT_A_RECORD = /(^|\/)(readme|index|template)[^/]*$/i;

/** Pure: the tracked files that are ADRs (in an `adr/`, `decisions/` directory, or named `ADR-NNNN...`). */
export function findAdrFiles(files: readonly string[]): string[] {
  return files.filter((f) => (IN_ADR_DIR.test(f) || ADR_NAME.test(f)) && !NOT_A_RECORD.test(f)).sort();
}

function cut(text: string): string {
  const line = stripControl(text);
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** The first non-empty, non-heading line after a `## NAME` heading. */
function sectionFirstLine(lines: readonly string[], name: RegExp): string | null {
  const at = lines.findIndex((l) => /^#{2,}\s*/.test(l) && name.test(l.replace(/^#{2,}\s*/, '')));
  if (at === -1) return null;
  for (const line of lines.slice(at + 1)) {
    if (/^#/.test(line)) return null;
    if (line.trim() !== '') return cut(line);
  }
  return null;
}

/** Pure: title (first `#` heading), status (`Status: X` or a Status section) and first decision line. */
export function parseAdr(path: string, text: string): AdrConstraint {
  const lines = text.split(/\r?\n/);
  const heading = lines.find((l) => /^#\s+\S/.test(l));
  const statusLine = /^\s*(?:[-*]\s*)?(?:\*\*)?status(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.+?)\s*$/im.exec(text);
  return {
    path,
    title: heading ? cut(heading.replace(/^#\s+/, '')) : path,
    status: statusLine ? cut(statusLine[1]!.replace(/\*\*/g, '')) : sectionFirstLine(lines, /^status\b/i),
    decision: sectionFirstLine(lines, /^decision\b/i),
  };
}
