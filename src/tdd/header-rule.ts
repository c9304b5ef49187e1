import type { CommitFacts } from './commit.js';
import { headerProblem, parseConventionalHeader } from './header.js';
import { isReleaseFile, isReleaseHeader } from './ignore.js';
import type { Verdict } from './verdict.js';

/** How strictly the header rule reads Conventional Commits (`commit.*` in the workspace config). */
export interface HeaderOptions {
  /** `insensitive` (the spec, §15: `Feat:` is a feat) or `lower` (only lower-case types, like commitlint's default). */
  type_case: 'insensitive' | 'lower';
  /** A body not separated from the header by a blank line (§6): an error, a warning, or not checked. */
  body_separator: 'error' | 'warn' | 'off';
}

export const DEFAULT_HEADER_OPTIONS: HeaderOptions = { type_case: 'insensitive', body_separator: 'error' };

const SKIPPED: Record<Exclude<CommitFacts['kind'], 'normal'>, (c: CommitFacts) => string> = {
  merge: (c) => `merge commit (${c.parentCount} parents): header not judged`,
  revert: (c) => `revert of ${c.reverts!.slice(0, 7)}, which is in this repository: header not judged`,
  fixup: () => 'fixup!/squash!/amend! commit: header not judged (it is squashed before merging)',
  ignored: (c) => `ignored by commit.ignore pattern /${c.ignoredBy}/: not judged`,
};

const SKIP_CLAUSE: Record<Exclude<CommitFacts['kind'], 'normal'>, string> = {
  merge: 'real merge (2+ parents)',
  revert: 'real revert (This reverts commit <sha>)',
  fixup: 'fixup!/squash!/amend!',
  ignored: 'commit.ignore',
};

/** Headers platforms write (a revert without `This reverts commit`, a merge or a merge bot's header on one parent) and the pattern skipping them. */
const PLATFORM_HEADERS: readonly { re: RegExp; what: string; pattern: string }[] = [
  { re: /^Revert "/, what: 'a platform revert (GitHub\'s "Revert" button)', pattern: '^Revert "' },
  {
    re: /^Merge (?:branch|pull request|remote-tracking branch) /,
    what: 'a merge header on a one-parent commit',
    pattern: '^Merge ',
  },
  {
    re: /^Merged PR \d+: /,
    what: 'an Azure DevOps pull-request completion on one parent (a squash)',
    pattern: '^Merged PR \\d+: ',
  },
  {
    re: /^Merged in \S+ \(pull request #\d+\)/,
    what: 'a Bitbucket pull-request merge header on one parent (a squash)',
    pattern: '^Merged in ',
  },
];

function platformHint(header: string, paths: readonly string[]): string {
  const others = paths.filter((p) => !isReleaseFile(p));
  if (others.length > 0 && isReleaseHeader(header)) {
    return `. This is a release tool's header, which is not judged only on a commit that changes nothing but what release tools write (package.json, lockfiles, CHANGELOG.md, lerna.json, .changeset/; docs/enforcement.md): this one also changes ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', ...' : ''}`;
  }
  const hit = PLATFORM_HEADERS.find((h) => h.re.test(header));
  return hit
    ? `. This looks like ${hit.what}: if such commits are intended, skip them with commit.ignore: ['${hit.pattern}'] in .hestai_workspace.yaml`
    : '';
}

/**
 * Pure: the header must be a Conventional Commit header (the clause deciding each verdict is cited). An
 * `amend!` commit's replacement header (what `git rebase --autosquash` will store) is checked; a
 * fixup!/squash!/amend! commit on the default branch (`where`), where nothing squashes it any more, is warned about.
 */
export function checkHeader(
  commit: CommitFacts,
  options: HeaderOptions = DEFAULT_HEADER_OPTIONS,
  where: 'branch' | 'default-branch' = 'branch',
): Verdict {
  if (commit.kind === 'fixup' && commit.amendHeader !== null && parseConventionalHeader(commit.amendHeader) === null) {
    const { problem, clause } = headerProblem(commit.amendHeader);
    return {
      rule: 'header',
      status: 'fail',
      clause,
      message: `the replacement message of this amend! commit has the header ${JSON.stringify(commit.amendHeader)}, which is not a Conventional Commit header: ${problem} (${clause}); git rebase --autosquash would store it. Write "type(scope): subject" on the line after the blank line`,
    };
  }
  if (commit.kind === 'fixup' && where === 'default-branch')
    return {
      rule: 'header',
      status: 'warn',
      clause: SKIP_CLAUSE.fixup,
      message:
        'fixup!/squash!/amend! commit on the default branch: it will never be squashed, so its change was not judged by test-first. Squash such commits before merging (git rebase -i --autosquash on the branch)',
    };
  if (commit.kind !== 'normal')
    return { rule: 'header', status: 'skip', message: SKIPPED[commit.kind](commit), clause: SKIP_CLAUSE[commit.kind] };
  const cc = commit.conventional;
  if (cc === null) {
    const { problem, clause } = headerProblem(commit.header);
    return {
      rule: 'header',
      status: 'fail',
      clause,
      message: `${JSON.stringify(commit.header)} is not a Conventional Commit header: ${problem} (${clause}); write "type(scope): subject", e.g. "test(cli): failing test for --json"${platformHint(commit.header, [...commit.paths, ...(commit.sources ?? [])])}`,
    };
  }
  if (options.type_case === 'lower' && cc.rawType !== cc.type) {
    return {
      rule: 'header',
      status: 'fail',
      clause: 'commit.type_case: lower',
      message: `type "${cc.rawType}" is not lower case (commit.type_case: lower; the spec itself, CC 1.0.0 §15, is case-insensitive); write "${cc.type}"`,
    };
  }
  if (!commit.bodySeparated && options.body_separator !== 'off') {
    return {
      rule: 'header',
      status: options.body_separator === 'error' ? 'fail' : 'warn',
      clause: 'CC 1.0.0 §6',
      message: `the body must begin one blank line after the header (CC 1.0.0 §6; git also joins the two lines into one subject); add an empty second line (commit.body_separator: ${options.body_separator})`,
    };
  }
  return { rule: 'header', status: 'pass', clause: 'CC 1.0.0 §1', message: `type ${cc.type}` };
}
