import { describe, expect, it } from 'vitest';
import { commitFacts } from '../../../src/tdd/commit.js';
import { checkHeader, DEFAULT_HEADER_OPTIONS } from '../../../src/tdd/header-rule.js';
import { ignoreRules } from '../../../src/tdd/ignore.js';

const facts = (message: string, parents: string[] = ['p'], reverts: string | null = null) =>
  commitFacts({ sha: 'a'.repeat(40), message, files: [], parents, reverts }, () => false, {
    ignore: ignoreRules([], true),
  });

describe('checkHeader messages', () => {
  it('a pass names the type, and cites CC 1.0.0 §1', () => {
    expect(checkHeader(facts('Fix(x): y'))).toEqual({
      rule: 'header',
      status: 'pass',
      clause: 'CC 1.0.0 §1',
      message: 'type fix',
    });
  });

  it('skips say why the commit is not judged', () => {
    expect(checkHeader(facts('Merge a, b and c', ['p', 'q', 'r']))).toEqual({
      rule: 'header',
      status: 'skip',
      message: 'merge commit (3 parents): header not judged',
      clause: 'real merge (2+ parents)',
    });
    expect(checkHeader(facts('Revert "x"', ['p'], '0123456789abcdef')).message).toBe(
      'revert of 0123456, which is in this repository: header not judged',
    );
    expect(checkHeader(facts('amend! feat: x')).message).toBe(
      'fixup!/squash!/amend! commit: header not judged (it is squashed before merging)',
    );
    const ignored = commitFacts({ sha: 'a', message: 'WIP things', files: [], parents: ['p'] }, () => false, {
      ignore: ignoreRules(['^WIP '], true),
    });
    expect(checkHeader(ignored).message).toBe('ignored by commit.ignore pattern /^WIP /: not judged');
  });

  it('a failure quotes the header, names the problem and clause, and shows the format', () => {
    expect(checkHeader(facts('feat:add'))).toEqual({
      rule: 'header',
      status: 'fail',
      clause: 'CC 1.0.0 §1',
      message:
        '"feat:add" is not a Conventional Commit header: the colon is not followed by one space (CC 1.0.0 §1); write "type(scope): subject", e.g. "test(cli): failing test for --json"',
    });
  });

  it('type_case lower passes lower-case types and refuses others with the lower-case spelling', () => {
    const lower = { ...DEFAULT_HEADER_OPTIONS, type_case: 'lower' as const };
    expect(checkHeader(facts('feat: x'), lower).status).toBe('pass');
    expect(checkHeader(facts('Feat: x'), lower)).toEqual({
      rule: 'header',
      status: 'fail',
      clause: 'commit.type_case: lower',
      message:
        'type "Feat" is not lower case (commit.type_case: lower; the spec itself, CC 1.0.0 §15, is case-insensitive); write "feat"',
    });
  });

  it('by default a body not separated by a blank line is an error that says how to fix it', () => {
    expect(checkHeader(facts('feat: x\nbody'))).toEqual({
      rule: 'header',
      status: 'fail',
      clause: 'CC 1.0.0 §6',
      message:
        'the body must begin one blank line after the header (CC 1.0.0 §6; git also joins the two lines into one subject); add an empty second line (commit.body_separator: error)',
    });
    expect(checkHeader(facts('feat: x\nbody'), { ...DEFAULT_HEADER_OPTIONS, body_separator: 'warn' }).message).toMatch(
      /\(commit\.body_separator: warn\)$/,
    );
  });
});

describe('fixup!/squash!/amend! commits', () => {
  it("an amend! commit's replacement message must have a Conventional Commit header", () => {
    const good = checkHeader(facts('amend! feat: x\n\nfeat(cli): x, reworded\n\nbody'));
    expect(good.status).toBe('skip');
    const bad = checkHeader(facts('amend! feat: x\n\nadd the thing'));
    expect(bad.status).toBe('fail');
    expect(bad.message).toContain('amend!');
    expect(bad.message).toContain('"add the thing"');
  });

  it('on the default branch, where nothing squashes them any more, fixup!/squash! commits are warned about', () => {
    const onBranch = checkHeader(facts('fixup! feat: x'), DEFAULT_HEADER_OPTIONS, 'branch');
    expect(onBranch.status).toBe('skip');
    const landed = checkHeader(facts('fixup! feat: x'), DEFAULT_HEADER_OPTIONS, 'default-branch');
    expect(landed.status).toBe('warn');
    expect(landed.message).toMatch(/default branch/);
    expect(landed.message).toMatch(/never be squashed/);
  });
});

describe('platform headers point to commit.ignore', () => {
  it('a GitHub Revert "x" (#n) or an advisory Merge header fails with the commit.ignore pattern that would skip it', () => {
    const revert = checkHeader(facts('Revert "feat: x" (#12)'));
    expect(revert.status).toBe('fail');
    expect(revert.message).toContain('commit.ignore');
    expect(revert.message).toContain('^Revert "');
    const merge = checkHeader(facts("Merge branch 'main' into feat/x"));
    expect(merge.message).toContain('commit.ignore');
    expect(merge.message).toContain('^Merge ');
  });

  it('an Azure DevOps "Merged PR n:" or Bitbucket "Merged in x (pull request #n)" header on one parent fails naming its commit.ignore pattern', () => {
    const azure = checkHeader(facts('Merged PR 123: add login'));
    expect(azure.status).toBe('fail');
    expect(azure.message).toContain("commit.ignore: ['^Merged PR \\d+: ']");
    const bitbucket = checkHeader(facts('Merged in feature/x (pull request #7)'));
    expect(bitbucket.status).toBe('fail');
    expect(bitbucket.message).toContain('commit.ignore');
    expect(bitbucket.message).toContain('^Merged in ');
  });
});
