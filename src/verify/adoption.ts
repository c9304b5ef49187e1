/**
 * The adoption commit (issue 24, item 5). No session can be anchored before the commit that adds the role
 * constitutions (CI re-checks an anchor at the commit its record names, where they must be), so the commit
 * `hestai init --commit` makes carries no trailers. `hestai verify` recognizes it by what it holds, never
 * by its message: one parent (or none), a parent without `.hestai_workspace.yaml`, a config that sets
 * `tdd.since` to that parent (what init writes), and nothing but files `hestai init` writes; its trailers and
 * anchor are listed as not required. Once the policy commit has a config (the base has adopted), only the
 * base's own adoption commit is one, the one in the policy commit's history: a branch forked from before the
 * adoption cannot mint a second (init's files include hook scripts and runtime settings that run code).
 * Where the base has no config yet (the pull request that adopts hestai), its reviewers are the check.
 */
import { configFromText } from '../config/load.js';
import { isAncestor } from '../git/anchors.js';
import { fileAtCommit } from '../git/show.js';
import type { LogCommit } from '../git/parse.js';
import { isAdoptionFile, WORKSPACE_CONFIG_FILE } from '../paths.js';
import type { Verdict } from '../tdd/verdict.js';

export interface AdoptionFacts {
  parents: readonly string[];
  files: readonly string[];
  /** Whether the first parent has `.hestai_workspace.yaml`. */
  parentHasConfig: boolean;
  /** `tdd.since` of the config the commit holds (null: unset or unreadable). */
  since: string | null;
  /** Whether the policy commit has `.hestai_workspace.yaml` (the base has adopted). */
  policyHasConfig: boolean;
  /** Whether the commit is in the policy commit's history (the policy commit or one of its ancestors). */
  inPolicyHistory: boolean;
}

/** Pure: is this the adoption commit? */
export function isAdoptionCommit(f: AdoptionFacts): boolean {
  if (!addsOnlyInitFiles(f) || f.parentHasConfig) return false;
  if (f.policyHasConfig && !f.inPolicyHistory) return false;
  return f.parents.length === 0 ? f.since === null : f.since === f.parents[0];
}

/** Pure: one parent (or none), the config among its files, and nothing but files `hestai init` writes. */
function addsOnlyInitFiles(c: { parents: readonly string[]; files: readonly string[] }): boolean {
  return c.parents.length <= 1 && c.files.includes(WORKSPACE_CONFIG_FILE) && c.files.every(isAdoptionFile);
}

/** The verdict that replaces `rule`'s (trailers, anchor) on the adoption commit. */
export function adoptionVerdict(rule: 'trailers' | 'anchor', parent: string | null): Verdict {
  return {
    rule,
    status: 'skip',
    clause: 'README "Getting started" (the adoption commit)',
    message: `the adoption commit: it adds ${WORKSPACE_CONFIG_FILE} (tdd.since ${parent === null ? 'unset, a root commit' : `${parent.slice(0, 7)}, its parent`}) and only files hestai init writes, so no session could be anchored before it: ${rule} not required`,
  };
}

/** The commit whose config judges (`policy`) and whether it has one. */
export interface AdoptionPolicy {
  rev: string;
  hasConfig: boolean;
}

/**
 * The adoption commits among `commits` (sha → first parent or null). Only a commit that adds the config and
 * changes nothing else but init's files is looked at in git (two `cat-file` and a `merge-base` each).
 */
export async function adoptionCommits(
  root: string,
  commits: readonly LogCommit[],
  policy: AdoptionPolicy,
): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  for (const c of commits) {
    if (!addsOnlyInitFiles(c)) continue;
    const parent = c.parents[0] ?? null;
    const parentHasConfig = parent !== null && fileAtCommit(root, parent, WORKSPACE_CONFIG_FILE) !== null;
    if (parentHasConfig) continue;
    const text = fileAtCommit(root, c.sha, WORKSPACE_CONFIG_FILE);
    const config =
      text === null
        ? null
        : await configFromText(text, `${c.sha.slice(0, 7)}:${WORKSPACE_CONFIG_FILE}`).catch(() => null);
    const since = config?.tdd.since ?? null;
    const inPolicyHistory = policy.hasConfig && isAncestor(root, c.sha, policy.rev);
    const facts = { parents: c.parents, files: c.files, parentHasConfig, since, inPolicyHistory };
    if (isAdoptionCommit({ ...facts, policyHasConfig: policy.hasConfig })) found.set(c.sha, parent);
  }
  return found;
}
