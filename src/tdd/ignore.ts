/** A version as release tools write it, with an optional `v` (semver 2.0.0's pre-release and build parts). */
const SEMVER = 'v?(?:0|[1-9]\\d*)\\.(?:0|[1-9]\\d*)\\.(?:0|[1-9]\\d*)(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?';

/**
 * Headers no commit rule judges (`commit.ignore` plus these defaults when `commit.default_ignores` is
 * true): commits written by release tools, which cannot follow the rules. Real merges (two or more
 * parents) and real reverts are not judged anyway; these are single-parent commits. A platform's merge
 * header (Azure DevOps "Merged PR 1: ...", Bitbucket "Merged in x (pull request #1)") is no default: on a
 * single parent it is a squash or a made-up merge, judged like any other (issue 24). Each pattern is
 * matched against the header (the first line) only.
 */
export const DEFAULT_IGNORES: readonly { pattern: string; what: string }[] = [
  {
    pattern: '^v?(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$',
    what: 'a version bump (npm version: "0.0.2"; "v3.0.0")',
  },
  {
    // Only what the tools write (issue 25): a person's `chore(release): update the workflow` is judged.
    pattern: `^chore\\(release\\): (?:publish(?: (?:new version )?(?:${SEMVER}|%[sv]))?|${SEMVER})(?: \\[skip ci\\])?$`,
    what: 'a release commit as the tools write it: "chore(release): 1.2.3" or "v1.2.3" (standard-version, commit-and-tag-version), "1.2.3 [skip ci]" (semantic-release), "publish", "publish v1.2.3", "publish 1.2.3", "publish new version 1.2.3" (lerna, nx release, lerna-lite; also with lerna\'s "%s" or "%v" left unexpanded)',
  },
  { pattern: '^Version Packages(?: \\(.+\\))?$', what: 'the changesets release commit ("Version Packages")' },
  { pattern: '^RELEASING: Releasing \\d+ package\\(s\\)$', what: 'changeset version with commit: true' },
  { pattern: '^Publish$', what: "lerna version's default message" },
];

export interface IgnoreRule {
  source: string;
  re: RegExp;
}

/** Compiles the ignore patterns (the defaults first when `defaults` is true). Invalid patterns were refused by the schema. */
export function ignoreRules(patterns: readonly string[], defaults: boolean): IgnoreRule[] {
  const all = [...(defaults ? DEFAULT_IGNORES.map((d) => d.pattern) : []), ...patterns];
  return all.map((source) => ({ source, re: new RegExp(source) }));
}

/** Pure: the first pattern matching the header, or null. */
export function ignoredBy(header: string, rules: readonly IgnoreRule[]): string | null {
  for (const rule of rules) if (rule.re.test(header)) return rule.source;
  return null;
}
