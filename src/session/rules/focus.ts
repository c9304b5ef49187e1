import type { FocusSource } from '../../records/session.js';

/** What a branch name says about the work (seed 000 §2 "descriptive branch"). */
export type BranchFocus = { kind: 'github_issue'; issue: number } | { kind: 'branch'; value: string };

// `#N` anywhere (the seed: a branch that "contains `#XX`"), `issue-N` after a word boundary, or GitHub's `N-title`.
const ISSUE = /#(\d{1,9})(?!\d)|(?:^|[^A-Za-z0-9])issues?-(\d{1,9})(?!\d)|^(\d{1,9})-(?!\d)/i;
const FEATURE_PREFIX = /^(feat|fix|chore|refactor|docs)\/(.+)$/;

/** Pure: the GitHub issue (`#N`, `issue-N`, `issues-N`, a leading `N-`) or the feature-prefixed topic in a branch name. */
export function focusFromBranch(branch: string | null): BranchFocus | null {
  if (branch === null || branch === '') return null;
  const issue = ISSUE.exec(branch);
  if (issue) return { kind: 'github_issue', issue: Number(issue[1] ?? issue[2] ?? issue[3]) };
  const feature = FEATURE_PREFIX.exec(branch);
  if (feature) {
    const topic = feature[2]!.replace(/[-_/]+/g, ' ').trim();
    if (topic !== '') return { kind: 'branch', value: `${feature[1]}: ${topic}` };
  }
  return null;
}

export interface ResolvedFocus {
  value: string;
  source: FocusSource;
  /** The GitHub issue number when the focus came from the branch's issue. */
  issue_number?: number;
}

/**
 * Pure: resolves the focus in the seed's order — explicit (trimmed; whitespace-only falls through) >
 * GitHub issue in the branch > feature prefix of the branch > `general`.
 */
export function resolveFocus(input: {
  explicit?: string | undefined;
  branch: string | null;
  issueTitle?: string | null;
}): ResolvedFocus {
  const explicit = input.explicit?.trim();
  if (explicit) return { value: explicit, source: 'explicit' };
  const fromBranch = focusFromBranch(input.branch);
  if (fromBranch?.kind === 'github_issue') {
    const title = input.issueTitle?.trim();
    return {
      value: title ? `#${fromBranch.issue}: ${title}` : `GitHub issue #${fromBranch.issue}`,
      source: 'github_issue',
      issue_number: fromBranch.issue,
    };
  }
  if (fromBranch?.kind === 'branch') return { value: fromBranch.value, source: 'branch' };
  return { value: 'general', source: 'default' };
}
