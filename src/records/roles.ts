import fs from 'node:fs';
import type { WorkspacePaths } from '../paths.js';

/** A role name: kebab-case (it is the file name of the role's constitution). */
export const ROLE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** The suffix of a constitution file in `.hestai-sys/agents/`. */
export const CONSTITUTION_SUFFIX = '.oct.md';

/** The roles that have a constitution in this worktree, sorted. */
export function availableRoles(paths: WorkspacePaths): string[] {
  try {
    return fs
      .readdirSync(paths.agents)
      .filter((f) => f.endsWith(CONSTITUTION_SUFFIX) && ROLE_NAME.test(f.slice(0, -CONSTITUTION_SUFFIX.length)))
      .map((f) => f.slice(0, -CONSTITUTION_SUFFIX.length))
      .sort();
  } catch {
    return [];
  }
}

/** The role a hint shows in its example command: implementation-lead when installed, else the first role. */
export function exampleRole(roles: readonly string[]): string {
  return roles.includes('implementation-lead') ? 'implementation-lead' : (roles[0] ?? 'implementation-lead');
}

/**
 * Pure: why a role the seed would allow (letters of either case, digits, hyphens) is refused here, or null.
 * A role names files (its constitution, its terminal lock); macOS and Windows fold case, so "ImplLead" and
 * "impllead" would be one file there but two roles, each with its own lock. Lower case keeps one role one file.
 */
export function upperCaseRole(role: string): { reason: string; lower: string } | null {
  const lower = role.toLowerCase();
  if (lower === role || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(lower)) return null;
  return {
    lower,
    reason: `role names are lower case: a role names files (.hestai-sys/agents/${lower}.oct.md, its terminal lock), and file systems that fold case would make "${role}" and "${lower}" one file but two roles`,
  };
}
