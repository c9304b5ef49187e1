import { describe, expect, it } from 'vitest';
import {
  parseCommitInvocation,
  replacesHead,
  resolveLongOption,
  runsCommitMsgHook,
  sameAuthorDate,
} from '../../../src/git/invocation.js';

const amend = (...args: string[]) => parseCommitInvocation(['git', ...args])?.amend ?? null;

describe('parseCommitInvocation: git commit --amend on the command line', () => {
  it('reads --amend and the unique prefixes git accepts', () => {
    expect(amend('commit', '--amend')).toBe(true);
    expect(amend('commit', '--amen')).toBe(true);
    expect(amend('commit', '--am', '--no-edit')).toBe(true);
    expect(amend('commit', '-m', 'feat: x')).toBe(false);
    expect(amend('commit', '--a')).toBe(false); // ambiguous (--all, --author, ...): git refuses it
  });

  it('the last of --amend / --no-amend wins', () => {
    expect(amend('commit', '--amend', '--no-amend')).toBe(false);
    expect(amend('commit', '--no-amend', '--amend')).toBe(true);
    expect(amend('commit', '--amend', '--no-am')).toBe(false);
  });

  it('an option value is never read as --amend', () => {
    expect(amend('commit', '-m', '--amend')).toBe(false);
    expect(amend('commit', '--message', '--amend')).toBe(false);
    expect(amend('commit', '--mess', '--amend')).toBe(false);
    expect(amend('commit', '-am', '--amend')).toBe(false); // -a, then -m takes the next argument
    expect(amend('commit', '-m--amend')).toBe(false);
    expect(amend('commit', '-F', '--amend', '-t', '--amend', '--author', '--amend', '--trailer', '--amend')).toBe(
      false,
    );
    expect(amend('commit', '-C', '--amend')).toBe(false);
    expect(amend('commit', '-m', 'x', '--', '--amend')).toBe(false); // a pathspec
    expect(amend('commit', '--message=--amend', '--amend')).toBe(true);
    expect(amend('commit', '-uno', '--amend')).toBe(true);
    expect(amend('commit', '-S', '--amend')).toBe(true); // -S takes its key only when attached
  });

  it('skips git options before the command (-c k=v, -C dir, --git-dir dir) and reads aliases with the commit grammar', () => {
    expect(parseCommitInvocation(['git', '-c', 'user.name=x', '-C', 'repo', 'commit', '--amend'])).toMatchObject({
      command: 'commit',
      amend: true,
    });
    expect(parseCommitInvocation(['git', '--git-dir', '--amend', 'ci', '--amend'])).toMatchObject({
      command: 'ci',
      amend: true,
    });
    expect(parseCommitInvocation(['/usr/bin/git', '--no-pager', 'ci', '--amen'])).toMatchObject({
      command: 'ci',
      amend: true,
    });
    expect(parseCommitInvocation(['git', '-c'])).toBeNull();
    expect(parseCommitInvocation(['git'])).toBeNull();
  });

  it('commands that run the commit-msg hook but have no --amend are never amends', () => {
    expect(amend('merge', '--amend')).toBe(false);
    expect(amend('rebase', '--amend')).toBe(false);
  });

  it('notes --reset-author, --date and -C/-c (another author date than HEAD)', () => {
    expect(parseCommitInvocation(['git', 'commit', '--amend', '--reset-author'])).toMatchObject({
      resetAuthor: true,
      date: false,
      reuse: false,
    });
    expect(parseCommitInvocation(['git', 'commit', '--amend', '--date=now'])).toMatchObject({ date: true });
    expect(parseCommitInvocation(['git', 'commit', '--amend', '--date', 'now'])).toMatchObject({
      date: true,
      amend: true,
    });
    expect(parseCommitInvocation(['git', 'commit', '--amend', '-C', 'HEAD~2'])).toMatchObject({ reuse: true });
    expect(parseCommitInvocation(['git', 'commit', '--amend', '-cHEAD~2'])).toMatchObject({ reuse: true });
  });

  it('resolves long options as git does: exact, negated, unique prefix', () => {
    expect(resolveLongOption('verify')).toEqual({ spelling: 'verify', option: 'no-verify', negated: true });
    expect(resolveLongOption('no-edit')).toMatchObject({ option: 'edit', negated: true });
    expect(resolveLongOption('reset')).toMatchObject({ option: 'reset-author', negated: false });
    expect(resolveLongOption('re')).toBeNull();
  });
});

describe('runsCommitMsgHook: git commit runs the commit-msg hook after prepare-commit-msg', () => {
  const runs = (...args: string[]) =>
    runsCommitMsgHook({ kind: 'found', invocation: parseCommitInvocation(['git', ...args]) });

  it('a plain git commit does; --no-verify, -n in a cluster and their prefixes do not; the last of --verify / --no-verify wins', () => {
    expect(runs('commit', '-q', '-m', 'feat: x')).toBe(true);
    expect(runs('-c', 'user.name=x', 'commit', '--amend', '--no-edit')).toBe(true);
    expect(runs('commit', '--no-verify', '-m', 'x')).toBe(false);
    expect(runs('commit', '--no-verif', '-m', 'x')).toBe(false);
    expect(runs('commit', '-n', '-m', 'x')).toBe(false);
    expect(runs('commit', '-anm', 'x')).toBe(false);
    expect(runs('commit', '--no-verify', '--verify', '-m', 'x')).toBe(true);
    expect(runs('commit', '--verify', '-n', '-m', 'x')).toBe(false);
  });

  it('an option value or a pathspec is never read as --no-verify', () => {
    expect(runs('commit', '-m', '--no-verify')).toBe(true);
    expect(runs('commit', '-m', '-n')).toBe(true);
    expect(runs('commit', '-mn')).toBe(true); // the message "n"
    expect(runs('commit', '--message=--no-verify')).toBe(true);
    expect(runs('commit', '-m', 'x', '--', '--no-verify')).toBe(true);
  });

  it('revert, cherry-pick, merge, rebase, an alias, no git ancestor or no /proc: not known, so no', () => {
    for (const command of ['revert', 'cherry-pick', 'merge', 'rebase', 'am', 'ci'])
      expect(runs(command, '-m', 'x'), command).toBe(false);
    expect(runsCommitMsgHook({ kind: 'found', invocation: null })).toBe(false);
    expect(runsCommitMsgHook({ kind: 'none' })).toBe(false);
    expect(runsCommitMsgHook({ kind: 'unavailable' })).toBe(false);
  });
});

describe('replacesHead: both signals must agree', () => {
  const head = '2026-11-23T22:47:55+01:00';
  const inv = (args: string[]) => parseCommitInvocation(['git', 'commit', ...args]);
  const at = (date: string) => ({ GIT_AUTHOR_DATE: date });

  it('git exports HEAD author date on an amend: an amend', () => {
    expect(sameAuthorDate('@1795470475 +0100', head)).toBe(true);
    expect(replacesHead(inv(['--amend']), at('@1795470475 +0100'), head)).toBe(true);
  });

  it('git >= 2.45 prints UTC as `Z` in %aI: the same instant at +0000, never another zone', () => {
    const utc = '2026-11-23T21:47:55Z';
    expect(sameAuthorDate('@1795470475 +0000', utc)).toBe(true);
    expect(replacesHead(inv(['--amend']), at('@1795470475 +0000'), utc)).toBe(true);
    expect(sameAuthorDate('@1795470475 +0000', '2026-11-23T21:47:55+00:00')).toBe(true);
    expect(sameAuthorDate('@1795470475 +0100', utc)).toBe(false);
    expect(sameAuthorDate('@1795470475 -0000', utc)).toBe(false);
    expect(sameAuthorDate('@1795470476 +0000', utc)).toBe(false);
  });

  it('another instant or zone, a missing or foreign GIT_AUTHOR_DATE: not an amend', () => {
    expect(replacesHead(inv(['--amend']), at('@1795470476 +0100'), head)).toBe(false);
    expect(replacesHead(inv(['--amend']), at('@1795470475 +0000'), head)).toBe(false);
    expect(replacesHead(inv(['--amend']), {}, head)).toBe(false);
    expect(replacesHead(inv(['--amend']), at('2026-11-23T22:47:55+01:00'), head)).toBe(false);
  });

  it('HEAD author date without --amend on the command line (a commit in the same second): not an amend', () => {
    expect(replacesHead(inv(['-m', 'feat: x']), at('@1795470475 +0100'), head)).toBe(false);
    expect(replacesHead(null, at('@1795470475 +0100'), head)).toBe(false);
  });

  it('--reset-author, --date and -C/-c set another author date: the command line alone decides', () => {
    expect(replacesHead(inv(['--amend', '--reset-author']), at('@1895902475 +0000'), head)).toBe(true);
    expect(replacesHead(inv(['--amend', '--date=yesterday']), at('@1695902475 +0000'), head)).toBe(true);
    expect(replacesHead(inv(['--amend', '-C', 'HEAD@{1}']), at('@1695902475 +0000'), head)).toBe(true);
  });
});
