import { describe, expect, it } from 'vitest';
import { focusFromBranch, resolveFocus } from '../../../src/session/rules/focus.js';

describe('focusFromBranch', () => {
  it.each([
    ['feat/#42-clock-in', 42],
    ['#7', 7],
    ['issue-12', 12],
    ['fix/issue-99-crash', 99],
    ['ISSUES-3-anything', 3],
    ['feat/issues-100', 100],
  ])('finds the GitHub issue in %s', (branch, issue) => {
    expect(focusFromBranch(branch)).toEqual({ kind: 'github_issue', issue });
  });

  it.each([
    ['feat/clock-in-flow', 'feat: clock in flow'],
    ['fix/crash_on_start', 'fix: crash on start'],
    ['chore/deps', 'chore: deps'],
    ['refactor/store', 'refactor: store'],
    ['docs/readme', 'docs: readme'],
  ])('infers the focus from the feature prefix of %s', (branch, value) => {
    expect(focusFromBranch(branch)).toEqual({ kind: 'branch', value });
  });

  it.each([['main'], ['develop'], ['feature/x'], ['feat/'], ['tissue-5'], ['issue-'], [null]])(
    'finds nothing in %s',
    (branch) => {
      expect(focusFromBranch(branch)).toBeNull();
    },
  );

  // Seed 000 §2: a branch that contains `#XX` or `issue-XX` names issue XX; GitHub's own branch for an issue is `XX-title`.
  it.each([
    ['feature#17', 17],
    ['feat/#17-x', 17],
    ['17-x', 17],
    ['issue-17', 17],
    ['fix-#17', 17],
    ['wip#17', 17],
  ])("the seed's issue forms: %s names issue %i", (branch, issue) => {
    expect(resolveFocus({ branch })).toEqual({
      value: `GitHub issue #${issue}`,
      source: 'github_issue',
      issue_number: issue,
    });
  });

  it.each([['17'], ['v17-x'], ['feat/17-x'], ['2026-12-07'], ['1234567890-x']])(
    'a number alone, a version or a date is no issue: %s',
    (branch) => {
      expect(focusFromBranch(branch)?.kind).not.toBe('github_issue');
    },
  );

  it('prefers the issue number over the feature prefix', () => {
    expect(focusFromBranch('feat/issue-5-login')).toEqual({ kind: 'github_issue', issue: 5 });
  });
});

describe('resolveFocus', () => {
  it('uses the explicit focus first', () => {
    expect(resolveFocus({ explicit: 'implement clock_in', branch: 'feat/issue-5' })).toEqual({
      value: 'implement clock_in',
      source: 'explicit',
    });
  });

  it('trims the explicit focus, and a whitespace-only focus falls through', () => {
    expect(resolveFocus({ explicit: '  tidy up  ', branch: 'main' })).toEqual({ value: 'tidy up', source: 'explicit' });
    expect(resolveFocus({ explicit: '   ', branch: 'feat/login' })).toEqual({ value: 'feat: login', source: 'branch' });
    expect(resolveFocus({ explicit: '', branch: null })).toEqual({ value: 'general', source: 'default' });
  });

  it('names the issue, with its title when known', () => {
    expect(resolveFocus({ branch: 'issue-42' })).toEqual({
      value: 'GitHub issue #42',
      source: 'github_issue',
      issue_number: 42,
    });
    expect(resolveFocus({ branch: 'issue-42', issueTitle: 'Crash on start' })).toEqual({
      value: '#42: Crash on start',
      source: 'github_issue',
      issue_number: 42,
    });
  });

  it('defaults to general on a non-descriptive or detached branch', () => {
    expect(resolveFocus({ branch: 'main' })).toEqual({ value: 'general', source: 'default' });
    expect(resolveFocus({ branch: null })).toEqual({ value: 'general', source: 'default' });
  });
});

describe('focus from a branch: the edges', () => {
  it('an issue reference needs a word boundary before it and at most 9 digits', () => {
    expect(focusFromBranch('feat/x_issue-5')).toEqual({ kind: 'github_issue', issue: 5 });
    expect(focusFromBranch('Issue-8')).toEqual({ kind: 'github_issue', issue: 8 });
    expect(focusFromBranch('issue-123456789')).toEqual({ kind: 'github_issue', issue: 123456789 });
    expect(focusFromBranch('issue-1234567890')).toBeNull();
    expect(focusFromBranch('v2#3')).toEqual({ kind: 'github_issue', issue: 3 });
    expect(focusFromBranch('#x5')).toBeNull();
    expect(focusFromBranch('')).toBeNull();
  });

  it('the feature prefix must start the branch; its topic loses runs of - _ / and must hold a word', () => {
    expect(focusFromBranch('feat/a--b__c//d')).toEqual({ kind: 'branch', value: 'feat: a b c d' });
    expect(focusFromBranch('myfeat/x')).toBeNull();
    expect(focusFromBranch('feat/-_/')).toBeNull();
  });

  it('an issue title is trimmed; a blank title falls back to the issue number', () => {
    expect(resolveFocus({ branch: '#7', issueTitle: '  Crash  ' })).toMatchObject({ value: '#7: Crash' });
    expect(resolveFocus({ branch: '#7', issueTitle: '   ' })).toMatchObject({ value: 'GitHub issue #7' });
    expect(resolveFocus({ branch: '#7', issueTitle: null })).toMatchObject({ value: 'GitHub issue #7' });
  });
});
