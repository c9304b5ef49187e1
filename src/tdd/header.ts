/** A parsed Conventional Commit header (`type(scope)!: subject`). */
export interface ConventionalHeader {
  type: string;
  scope: string | null;
  breaking: boolean;
  subject: string;
}

const HEADER = /^([a-z][a-z0-9-]*)(?:\(([^()\r\n]*[^()\s][^()\r\n]*)\))?(!)?: (\S.*)$/;

/** Parses a Conventional Commit header; null when the line is not one (types are lower case). */
export function parseConventionalHeader(header: string): ConventionalHeader | null {
  const match = HEADER.exec(header);
  if (!match) return null;
  const [, type = '', scope, bang, subject = ''] = match;
  return { type, scope: scope === undefined ? null : scope.trim(), breaking: bang === '!', subject: subject.trimEnd() };
}
