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
/**
 * A full commit sha in lower case: 40 hex digits (SHA-1) or 64 (SHA-256). `tdd.since` is compared as text with
 * a commit's parent (verify's adoption commit) and found by `.ci/run` with a lower-case pattern, so a short or
 * upper-case sha, which git would resolve, is refused rather than silently not matching.
 */
export const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Why `sha` is not a {@link COMMIT_SHA}, and the command that prints the full sha (null: it is one). */
export function commitShaProblem(sha: string): string | null {
  if (COMMIT_SHA.test(sha)) return null;
  const quoted = JSON.stringify(sha);
  const what = !/^[0-9a-f]+$/i.test(sha)
    ? `${quoted} is not a sha (hex digits only)`
    : /[A-F]/.test(sha)
      ? `${quoted} has upper-case letters`
      : `${quoted} is ${sha.length} hex digits, ${sha.length < 40 ? 'a short sha' : 'neither 40 nor 64'}`;
  return `expected the full lower-case commit sha (40 or 64 hex digits): ${what}; \`git rev-parse ${sha}\` prints the full sha to write`;
}
