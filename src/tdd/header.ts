/** A parsed Conventional Commit header (`type(scope)!: subject`). */
export interface ConventionalHeader {
  /** The type in lower case (Conventional Commits 1.0.0 §15: types are not case sensitive). */
  type: string;
  /** The type as written (`Feat` for `Feat: x`). */
  rawType: string;
  scope: string | null;
  breaking: boolean;
  subject: string;
}

// The description is any text up to the end of the line: `[^\n]`, not `.`, which in JavaScript also stops at
// CR, U+2028 and U+2029 (a CRLF message kept verbatim ends its header in CR; U+2028 is text to git).
const HEADER = /^([A-Za-z][A-Za-z0-9-]*)(?:\(([^()\r\n]*[^()\s][^()\r\n]*)\))?(!)?: (\S[^\n]*)$/;

/** Parses a Conventional Commit header; null when the line is not one. Nothing is trimmed first. */
export function parseConventionalHeader(header: string): ConventionalHeader | null {
  const match = HEADER.exec(header);
  if (!match) return null;
  const [, rawType = '', scope, bang, subject = ''] = match;
  return {
    type: rawType.toLowerCase(),
    rawType,
    scope: scope === undefined ? null : scope.trim(),
    breaking: bang === '!',
    subject: subject.trimEnd(),
  };
}

/** Why a header is not a Conventional Commit header, with the clause of Conventional Commits 1.0.0 that decides it. */
export function headerProblem(header: string): { problem: string; clause: string } {
  if (header === '') return { problem: 'the header (first line) is empty', clause: 'CC 1.0.0 §1' };
  if (header.startsWith('\uFEFF')) {
    return {
      problem: 'the header starts with a byte order mark (U+FEFF), which git stores; parsers then see no type',
      clause: 'CC 1.0.0 §1',
    };
  }
  if (/^\s/.test(header))
    return {
      problem: 'the header starts with whitespace, which git stores; parsers then see no type',
      clause: 'CC 1.0.0 §1',
    };
  if (/^[A-Za-z][A-Za-z0-9-]*\(\s*\)!?:/.test(header)) return { problem: 'the scope is empty', clause: 'CC 1.0.0 §4' };
  if (/^[A-Za-z][A-Za-z0-9-]*(?:\([^()]*\))?!?:\s*$/.test(header))
    return { problem: 'the description after ": " is empty', clause: 'CC 1.0.0 §5' };
  if (/^[A-Za-z][A-Za-z0-9-]*(?:\([^()]*\))?!?:(?! )/.test(header))
    return { problem: 'the colon is not followed by one space', clause: 'CC 1.0.0 §1' };
  if (/^[A-Za-z][A-Za-z0-9-]*(?:\([^()]*\))?!?: \s/.test(header))
    return { problem: 'the description must follow ": " immediately', clause: 'CC 1.0.0 §5' };
  return { problem: 'it has no "type: " prefix', clause: 'CC 1.0.0 §1' };
}
