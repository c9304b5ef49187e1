/**
 * The predicates of the workspace config's string keys, without zod: schema.ts (the one schema) refines with
 * these, and the hooks' fast validator (fast.ts) calls the same functions, so a check exists once.
 */

/** A path relative to the repository root: not absolute (POSIX or a Windows drive). */
export function isRelativePath(p: string): boolean {
  return !p.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(p);
}

/** A relative path that stays inside the repository: no `..` segment. */
export function hasNoParentSegment(p: string): boolean {
  return !p.split(/[\\/]/).includes('..');
}

/** Whether `p` compiles as a JavaScript regular expression. */
export function isRegExpSource(p: string): boolean {
  try {
    new RegExp(p);
    return true;
  } catch {
    return false;
  }
}

/** A Conventional Commit type in lower case (`feat`, `fix`, `build-deps`). */
export const COMMIT_TYPE = /^[a-z][a-z0-9-]*$/;
/** An environment variable name. */
export const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
/** An abbreviated or full commit sha. */
export const COMMIT_SHA = /^[0-9a-f]{4,64}$/i;
