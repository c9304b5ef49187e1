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

/**
 * The files release tools write, by name in any folder (a monorepo's packages): manifests and lockfiles
 * (npm and yarn version, lerna, nx release, a changesets version script), changelogs (standard-version,
 * semantic-release's git plugin, lerna and nx with conventional commits, changesets), `lerna.json` (lerna),
 * `bower.json` and `manifest.json` (standard-version's default bump files).
 */
const RELEASE_FILE_NAMES: ReadonlySet<string> = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'CHANGELOG.md',
  'lerna.json',
  'bower.json',
  'manifest.json',
]);

/** Pure: a file release tools write: one of RELEASE_FILE_NAMES, or a changeset (`.changeset/*.md`, `pre.json`). */
export function isReleaseFile(path: string): boolean {
  if (/^\.changeset\/[^/]+\.(?:md|json)$/.test(path)) return true;
  return RELEASE_FILE_NAMES.has(path.slice(path.lastIndexOf('/') + 1));
}

export interface IgnoreRule {
  source: string;
  re: RegExp;
  /** A built-in pattern: it skips a commit only when every file it changes is one release tools write. */
  releaseOnly: boolean;
}

/** The built-in patterns, compiled once. */
const DEFAULT_RULES: readonly IgnoreRule[] = DEFAULT_IGNORES.map((d) => ({
  source: d.pattern,
  re: new RegExp(d.pattern),
  releaseOnly: true,
}));

/** Compiles the ignore patterns (the defaults first when `defaults` is true). Invalid patterns were refused by the schema. */
export function ignoreRules(patterns: readonly string[], defaults: boolean): IgnoreRule[] {
  return [
    ...(defaults ? DEFAULT_RULES : []),
    ...patterns.map((source) => ({ source, re: new RegExp(source), releaseOnly: false })),
  ];
}

/**
 * Pure: the first pattern skipping a commit with this header and these changed files, or null. A built-in
 * (release tool) pattern skips only a commit whose every file is one release tools write (issue: a person's
 * "Publish" with code in it is judged); the team's own `commit.ignore` patterns read the header alone.
 */
export function ignoredBy(header: string, rules: readonly IgnoreRule[], paths: readonly string[] = []): string | null {
  for (const rule of rules)
    if (rule.re.test(header) && (!rule.releaseOnly || paths.every(isReleaseFile))) return rule.source;
  return null;
}

/** Pure: is this header one a release tool writes (a built-in pattern matches it)? */
export function isReleaseHeader(header: string): boolean {
  return DEFAULT_RULES.some((rule) => rule.re.test(header));
}
