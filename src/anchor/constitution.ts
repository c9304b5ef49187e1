/**
 * Role constitutions: `.hestai-sys/agents/{role}.oct.md`. The identity stage returns the path and an
 * excerpt; BIND's COGNITION must match what the constitution declares. `installConstitutions` copies the
 * defaults shipped in `templates/agents/` (used by `hestai init`), keeping files that already exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageError } from '../errors.js';
import { getValue } from '../octave/model.js';
import { tryParseOctave } from '../octave/parse.js';
import { relativeToRoot, type WorkspacePaths } from '../paths.js';
import { readTextIfExists, writeFileAtomic } from '../state/store.js';
import type { DeclaredCognition } from './rules/types.js';
import { quoteInput } from '../util/quote.js';
import { availableRoles, CONSTITUTION_SUFFIX, ROLE_NAME, upperCaseRole } from '../records/roles.js';

export { availableRoles };

/** The default constitutions shipped with the package. */
export const TEMPLATE_AGENTS_DIR = fileURLToPath(new URL('../../templates/agents/', import.meta.url));

const SUFFIX = CONSTITUTION_SUFFIX;

/** Refuses a role name that is not kebab-case (it becomes a file name: no `/`, no `..`). */
export function assertRoleName(role: unknown): string {
  const cased = typeof role === 'string' ? upperCaseRole(role) : null;
  if (cased !== null) {
    throw usageError(`role ${quoteInput(role)} is not a role name: ${cased.reason}`, {
      code: 'ROLE_INVALID',
      remedy: `Use "${cased.lower}": hestai clock-in --role ${cased.lower}`,
    });
  }
  if (typeof role !== 'string' || !ROLE_NAME.test(role) || role.length > 64) {
    throw usageError(`role ${quoteInput(role)} is not a role name`, {
      code: 'ROLE_INVALID',
      remedy: 'Pass a kebab-case role such as implementation-lead (the name of a file in .hestai-sys/agents/).',
    });
  }
  return role;
}

export function constitutionFile(paths: WorkspacePaths, role: string): string {
  return path.join(paths.agents, `${assertRoleName(role)}${SUFFIX}`);
}

export interface Constitution {
  role: string;
  /** Absolute path. */
  file: string;
  /** Workspace-relative path, for messages and results. */
  relative: string;
  text: string;
  /** What BIND must match, or null when the file does not declare it (or is not valid OCTAVE). */
  cognition: DeclaredCognition | null;
}

/** Pure: the COGNITION.TYPE and COGNITION.ARCHETYPES a constitution declares. */
export function declaredCognition(text: string): DeclaredCognition | null {
  const parsed = tryParseOctave(text);
  if (!parsed.ok) return null;
  const type = getValue(parsed.doc, 'COGNITION.TYPE');
  const archetypes = getValue(parsed.doc, 'COGNITION.ARCHETYPES');
  const t = typeof type === 'string' && type !== '' ? type : null;
  const a = Array.isArray(archetypes)
    ? archetypes.filter((x): x is string => typeof x === 'string')
    : typeof archetypes === 'string'
      ? [archetypes]
      : [];
  return t === null && a.length === 0 ? null : { type: t, archetypes: a };
}

/** Reads a role's constitution, or null when the file does not exist. */
export function readConstitution(paths: WorkspacePaths, role: string): Constitution | null {
  const file = constitutionFile(paths, role);
  const text = readTextIfExists(file);
  if (text === null) return null;
  return { role, file, relative: relativeToRoot(paths, file), text, cognition: declaredCognition(text) };
}

/** The packaged default constitution of a role (`templates/agents/{role}.oct.md`), or null when none ships. */
export function packagedConstitution(role: string, source: string = TEMPLATE_AGENTS_DIR): string | null {
  return readTextIfExists(path.join(source, `${assertRoleName(role)}${SUFFIX}`));
}

/**
 * Seed 001 STAGE_IDENTITY "Ensure .hestai-sys injection is present": the role's constitution, installing
 * the packaged default first when the file is missing and `policy` is `install`. Never overwrites a file
 * that exists. The write goes through src/state (atomic; refuses a symlinked `.hestai-sys/` or `agents/`).
 */
export function ensureConstitution(
  paths: WorkspacePaths,
  role: string,
  policy: 'install' | 'strict',
  source: string = TEMPLATE_AGENTS_DIR,
): { constitution: Constitution | null; installed: boolean } {
  const existing = readConstitution(paths, role);
  if (existing !== null || policy === 'strict') return { constitution: existing, installed: false };
  const text = packagedConstitution(role, source);
  if (text === null) return { constitution: null, installed: false };
  writeFileAtomic(constitutionFile(paths, role), text);
  return { constitution: readConstitution(paths, role), installed: true };
}

/** The excerpt returned by the identity stage: the constitution up to a size limit. */
export function constitutionExcerpt(text: string, maxLines = 60): string {
  const lines = text.split('\n');
  return lines.length <= maxLines
    ? text.trimEnd()
    : `${lines.slice(0, maxLines).join('\n')}\n// ... (${lines.length - maxLines} more lines in the file)`;
}

/** Installs the default constitutions into `.hestai-sys/agents/`, keeping any that exist. */
export function installConstitutions(
  paths: WorkspacePaths,
  source: string = TEMPLATE_AGENTS_DIR,
): { written: string[]; kept: string[] } {
  const result = { written: [] as string[], kept: [] as string[] };
  for (const name of fs
    .readdirSync(source)
    .filter((f) => f.endsWith(SUFFIX))
    .sort()) {
    const target = path.join(paths.agents, name);
    const relative = relativeToRoot(paths, target);
    if (fs.existsSync(target)) {
      result.kept.push(relative);
      continue;
    }
    writeFileAtomic(target, fs.readFileSync(path.join(source, name)));
    result.written.push(relative);
  }
  return result;
}
