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
