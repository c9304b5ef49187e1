import { describe, expect, it } from 'vitest';
import { verifyGithub, verifyJson, verifyText } from '../../../src/verify/format.js';
import type { CommitReport, VerifyReport } from '../../../src/verify/verify.js';

const FROM = '1'.repeat(40);
const TO = '2'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

const commit = (
  sha: string,
  header: string,
  verdicts: CommitReport['verdicts'],
  files: string[] = [],
): CommitReport => ({
  sha,
  header,
  files,
  verdicts,
});

const report = (over: Partial<VerifyReport> = {}): VerifyReport => ({
  ok: true,
  range: { from: FROM, to: TO },
  commits: [],
  policy_changes: [],
  errors: 0,
  warnings: 0,
  ...over,
});

/** A failing range: a passing test commit, a feat failing test-first, a docs commit with a warned trailer. */
const failing = report({
  ok: false,
  errors: 1,
  warnings: 1,
  commits: [
    commit(A, 'test(cli): red', [
      { rule: 'header', status: 'pass', message: 'Conventional Commit header' },
      { rule: 'test-first', status: 'pass', message: 'test commit adding or changing 1 test file(s)' },
    ]),
    commit(
      B,
      'feat(cli): add',
      [
        { rule: 'header', status: 'pass', message: 'Conventional Commit header' },
        { rule: 'test-first', status: 'fail', message: 'feat commit has no preceding test commit' },
        { rule: 'trailers', status: 'warn', message: 'no HestAI-Session trailer' },
      ],
      ['test/cli.test.ts', 'src/cli.ts'],
    ),
    commit(C, 'docs: readme', [
      { rule: 'trailers', status: 'warn', message: 'no HestAI-Anchor trailer' },
      { rule: 'test-first', status: 'skip', message: 'type docs does not need a preceding test' },
    ]),
  ],
});

describe('verifyText', () => {
  it('a passing range: the range with short shas, one ✓ line per commit, ok and the counts, no hint', () => {
    const text = verifyText(
      report({ commits: [commit(A, 'test: a', [{ rule: 'header', status: 'pass', message: 'fine' }])] }),
    );
    expect(text.split('\n')).toEqual([
      `hestai verify 1111111..2222222: 1 commit(s)`,
      `✓ aaaaaaa test: a`,
      'ok: 0 error(s), 0 warning(s)',
    ]);
  });

  it('a range from the root commit says "root"', () => {
    expect(verifyText(report({ range: { from: null, to: TO } })).split('\n')[0]).toBe(
      'hestai verify root..2222222: 0 commit(s)',
    );
  });

  it('marks failing commits ✗ and warned ones !, lists only their fail/warn verdicts, and ends with a hint', () => {
    const lines = verifyText(failing).split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'hestai verify 1111111..2222222: 3 commit(s)',
      '✓ aaaaaaa test(cli): red',
      '✗ bbbbbbb feat(cli): add',
      '    error test-first: feat commit has no preceding test commit',
      '    warning trailers: no HestAI-Session trailer',
      '! ccccccc docs: readme',
      '    warning trailers: no HestAI-Anchor trailer',
    ]);
    expect(lines[7]).toBe('FAILED: 1 error(s), 1 warning(s)');
    expect(lines[8]).toMatch(/^hint: .*failing test is committed before the feat.*TDD-Exempt: <reason>/);
    expect(lines).toHaveLength(9);
  });

  it('a range that passes with warnings says ok and gives no hint', () => {
    const text = verifyText(
      report({
        warnings: 1,
        commits: [commit(C, 'docs: x', [{ rule: 'bypass', status: 'warn', message: 'bypassed' }])],
      }),
    );
    expect(text).toContain('! ccccccc docs: x\n    warning bypass: bypassed');
    expect(text.endsWith('ok: 0 error(s), 1 warning(s)')).toBe(true);
    expect(text).not.toContain('hint:');
  });

  it('lists each policy change of the branch as a warning line before the summary', () => {
    const lines = verifyText(
      report({
        warnings: 1,
        policy_changes: [
          { key: 'tdd.policy', base: 'paired', branch: 'any', message: 'the branch changes tdd.policy' },
        ],
      }),
    ).split('\n');
    expect(lines.slice(1)).toEqual(['! warning policy: the branch changes tdd.policy', 'ok: 0 error(s), 1 warning(s)']);
  });
});

describe('verifyJson', () => {
  it('is the documented document: ok, range, commits with sha/header/verdicts (no files), policy changes, counts', () => {
    const change = { key: 'verify.trailers', base: 'error', branch: 'off', message: 'changed' };
    const json = verifyJson({ ...failing, policy_changes: [change] });
    expect(json).toEqual({
      ok: false,
      range: { from: FROM, to: TO },
      commits: failing.commits.map((c) => ({ sha: c.sha, header: c.header, verdicts: c.verdicts })),
      policy_changes: [change],
      errors: 1,
      warnings: 1,
    });
    expect(JSON.stringify(json)).not.toContain('src/cli.ts');
  });
});

describe('verifyGithub', () => {
  const isTest = (f: string) => f.startsWith('test/');

  it('one ::error per fail and ::warning per warn verdict, on the first non-test file, then a summary', () => {
    const lines = verifyGithub(failing, isTest).split('\n');
    expect(lines).toEqual([
      '::error file=src/cli.ts,title=hestai test-first (bbbbbbb)::feat commit has no preceding test commit [feat(cli): add]',
      '::warning file=src/cli.ts,title=hestai trailers (bbbbbbb)::no HestAI-Session trailer [feat(cli): add]',
      '::warning title=hestai trailers (ccccccc)::no HestAI-Anchor trailer [docs: readme]',
      'hestai verify 1111111..2222222: 3 commit(s), 1 error(s), 1 warning(s)',
    ]);
  });

  it('falls back to the first file when every file is a test file, and without a matcher takes the first file', () => {
    const only = report({
      commits: [commit(A, 'test: x', [{ rule: 'r', status: 'fail', message: 'm' }], ['test/a.test.ts', 'test/b.ts'])],
    });
    expect(verifyGithub(only, isTest)).toMatch(/^::error file=test\/a\.test\.ts,title=/);
    expect(verifyGithub(failing)).toContain('::error file=test/cli.test.ts,title=hestai test-first (bbbbbbb)::');
  });

  it('escapes workflow-command data (% CR LF) and properties (also : and ,) so a message cannot forge a command', () => {
    const evil = report({
      range: { from: null, to: TO },
      commits: [
        commit(
          A,
          'feat: 100%',
          [{ rule: 'x:y,z', status: 'warn', message: 'line1\r\n::error::forged' }],
          ['src/a,b:c%.ts'],
        ),
      ],
    });
    const lines = verifyGithub(evil).split('\n');
    expect(lines).toEqual([
      '::warning file=src/a%2Cb%3Ac%25.ts,title=hestai x%3Ay%2Cz (aaaaaaa)::line1%0D%0A::error::forged [feat: 100%25]',
      'hestai verify root..2222222: 1 commit(s), 0 error(s), 0 warning(s)',
    ]);
  });

  it('annotates each policy change on .hestai_workspace.yaml', () => {
    const out = verifyGithub(
      report({
        policy_changes: [{ key: 'tdd.types', base: ['feat'], branch: [], message: 'from ["feat"] to []: 50%\nmerged' }],
      }),
    );
    expect(out.split('\n')[0]).toBe(
      '::warning file=.hestai_workspace.yaml,title=hestai policy tdd.types::from ["feat"] to []: 50%25%0Amerged',
    );
  });
});
