import { describe, expect, it } from 'vitest';
import { commitFacts, type CommitFacts, type FileChange } from '../../../src/tdd/commit.js';
import { checkHeader } from '../../../src/tdd/header-rule.js';
import { evaluateTestFirst, type TddOptions } from '../../../src/tdd/rule.js';
import { testFileMatcher } from '../../../src/tdd/test-files.js';

const isTest = testFileMatcher(['test/**', '**/*.test.*']);
let n = 0;
/** A commit from a header; `t` marks a test file change, `m` a merge, extra lines become the body. */
function c(
  header: string,
  opts: { tests?: boolean; merge?: boolean; body?: string; reverts?: string } = {},
): CommitFacts {
  n++;
  const files =
    opts.tests === false ? ['src/x.ts'] : header.startsWith('test') || opts.tests ? ['test/x.test.ts'] : ['src/x.ts'];
  return commitFacts(
    {
      sha: `c${String(n).padStart(3, '0')}`,
      message: opts.body ? `${header}\n\n${opts.body}` : header,
      files,
      parents: opts.merge ? 2 : 1,
      reverts: opts.reverts ?? null,
    },
    isTest,
  );
}
const paired: TddOptions = { policy: 'paired', types: ['feat'] };
const statuses = (commits: CommitFacts[], options: TddOptions = paired) =>
  evaluateTestFirst(commits, options).map((v) => v.status);

describe('test-first rule, policy paired (default)', () => {
  it('passes a feat preceded by a test commit', () => {
    expect(statuses([c('test(a): red'), c('feat(a): green')])).toEqual(['pass', 'pass']);
  });

  it('fails a feat without a test commit, naming the type and how to fix it', () => {
    const verdicts = evaluateTestFirst([c('chore: x'), c('feat(cli): add')], paired);
    expect(verdicts.map((v) => v.status)).toEqual(['skip', 'fail']);
    expect(verdicts[1]!.rule).toBe('test-first');
    expect(verdicts[1]!.message).toContain('feat');
    expect(verdicts[1]!.message).toMatch(/commit the failing test first/i);
  });

  it('a test commit pairs with one feat only: a second feat needs its own test', () => {
    const verdicts = evaluateTestFirst([c('test(a): red'), c('feat(a): one'), c('feat(a): two')], paired);
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'pass', 'fail']);
    expect(verdicts[2]!.message).toMatch(/was already paired with/);
    expect(verdicts[1]!.pairedWith).toEqual([verdicts[0]!.sha]);
  });

  it('two tests then two feats: the second feat fails (no other feat in between)', () => {
    expect(statuses([c('test: a'), c('test: b'), c('feat: a'), c('feat: b')])).toEqual([
      'pass',
      'pass',
      'pass',
      'fail',
    ]);
  });

  it('other commits between the test and the feat do not break the pair', () => {
    expect(statuses([c('test: a'), c('docs: x'), c('refactor: y'), c('feat: a')])).toEqual([
      'pass',
      'skip',
      'skip',
      'pass',
    ]);
  });

  it('a test commit that changes no test file does not count, and is warned about', () => {
    const verdicts = evaluateTestFirst([c('test: not really', { tests: false }), c('feat: a')], paired);
    expect(verdicts.map((v) => v.status)).toEqual(['warn', 'fail']);
    expect(verdicts[0]!.message).toMatch(/no test file/);
  });

  it('a failing feat does not consume anything; the next test then feat passes', () => {
    expect(statuses([c('feat: a'), c('test: b'), c('feat: b')])).toEqual(['fail', 'pass', 'pass']);
  });

  it('configurable types: fix also needs a test', () => {
    const options: TddOptions = { policy: 'paired', types: ['feat', 'fix'] };
    expect(statuses([c('fix: a'), c('test: b'), c('fix: b'), c('feat: c')], options)).toEqual([
      'fail',
      'pass',
      'pass',
      'fail',
    ]);
    expect(statuses([c('fix: a')], paired)).toEqual(['skip']);
  });

  it('breaking feats are feats', () => {
    expect(statuses([c('feat!: a')])).toEqual(['fail']);
  });
});

describe('test-first rule, policy scoped', () => {
  const scoped: TddOptions = { policy: 'scoped', types: ['feat'] };
  it('requires the test commit scope to equal the feat scope', () => {
    const verdicts = evaluateTestFirst([c('test(core): a'), c('feat(cli): b')], scoped);
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'fail']);
    expect(verdicts[1]!.message).toContain('(cli)');
  });

  it('pairs per scope: interleaved tests and feats of different scopes pass', () => {
    expect(statuses([c('test(a): 1'), c('test(b): 2'), c('feat(a): 1'), c('feat(b): 2')], scoped)).toEqual([
      'pass',
      'pass',
      'pass',
      'pass',
    ]);
    expect(statuses([c('test(a): 1'), c('feat(a): 1'), c('feat(a): 2')], scoped)).toEqual(['pass', 'pass', 'fail']);
  });

  it('an unscoped feat pairs with an unscoped test', () => {
    expect(statuses([c('test: a'), c('feat: a')], scoped)).toEqual(['pass', 'pass']);
    expect(statuses([c('test(x): a'), c('feat: a')], scoped)).toEqual(['pass', 'fail']);
  });
});

describe('test-first rule, policy any', () => {
  const any: TddOptions = { policy: 'any', types: ['feat'] };
  it('passes every feat after some test commit', () => {
    expect(statuses([c('feat: 0'), c('test: a'), c('feat: 1'), c('feat: 2'), c('feat(z): 3')], any)).toEqual([
      'fail',
      'pass',
      'pass',
      'pass',
      'pass',
    ]);
  });
});

describe('commits that are not judged', () => {
  it('skips merges, reverts and fixup!/squash! commits; a merge does not consume a pending test', () => {
    const verdicts = evaluateTestFirst(
      [
        c('test: a'),
        c('Merge branch x', { merge: true }),
        c('feat: merged-in', { merge: true }),
        c('Revert "feat: y"', { reverts: 'c999' }),
        c('fixup! feat: a'),
        c('squash! feat: a'),
        c('feat: a'),
      ],
      paired,
    );
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'skip', 'skip', 'skip', 'skip', 'skip', 'pass']);
    expect(verdicts[1]!.message).toMatch(/merge/);
    expect(verdicts[3]!.message).toMatch(/revert/);
    expect(verdicts[4]!.message).toMatch(/fixup/);
  });

  it('other types are skipped with a message naming the type', () => {
    const [v] = evaluateTestFirst([c('docs: readme')], paired);
    expect(v!.status).toBe('skip');
    expect(v!.message).toContain('docs');
  });

  it('non-conventional headers are skipped by this rule (the header rule reports them)', () => {
    expect(statuses([c('added things')])).toEqual(['skip']);
  });
});

describe('TDD-Exempt', () => {
  it('lets a feat without a test through as a warning that names the reason', () => {
    const verdicts = evaluateTestFirst([c('feat: gen', { body: 'TDD-Exempt: generated client' })], paired);
    expect(verdicts[0]!.status).toBe('warn');
    expect(verdicts[0]!.message).toContain('generated client');
    expect(verdicts[0]!.exempt).toBe('generated client');
  });

  it('an exempt feat still consumes a pending test (it is a feat in between)', () => {
    expect(statuses([c('test: a'), c('feat: gen', { body: 'TDD-Exempt: generated' }), c('feat: b')])).toEqual([
      'pass',
      'pass',
      'fail',
    ]);
  });
});

describe('checkHeader', () => {
  it('passes Conventional Commit headers and the special kinds', () => {
    expect(checkHeader(c('feat(a): b')).status).toBe('pass');
    expect(checkHeader(c('Merge branch x', { merge: true })).status).toBe('skip');
    expect(checkHeader(c('Revert "feat: x"', { reverts: 'c999' })).status).toBe('skip');
    // Without two parents or a revert line resolving in the repository, these headers are judged.
    expect(checkHeader(c('Merge branch x')).status).toBe('fail');
    expect(checkHeader(c('Revert "feat: x"')).status).toBe('fail');
    expect(checkHeader(c('fixup! whatever')).status).toBe('skip');
  });

  it('fails other headers with an example of the format', () => {
    const v = checkHeader(c('added things'));
    expect(v.status).toBe('fail');
    expect(v.rule).toBe('header');
    expect(v.message).toContain('added things');
    expect(v.message).toMatch(/type\(scope\): subject/);
  });
});

/** A commit of a DAG: its sha, header, parents, whether it changes a test file, and what it reverts. */
function d(sha: string, header: string, parents: string[], opts: { reverts?: string; body?: string } = {}) {
  const files = header.startsWith('test') ? [`test/${sha}.test.ts`] : [`src/${sha}.ts`];
  return commitFacts(
    {
      sha,
      message: opts.body ? `${header}\n\n${opts.body}` : header,
      files,
      parents,
      reverts: opts.reverts ?? null,
    },
    isTest,
  );
}

describe('test-first verdict messages say why and what to do', () => {
  const SHA_T = '1234567890abcdef1234567890abcdef12345678';
  const SHA_F = 'fedcba0987654321fedcba0987654321fedcba09';

  it('a pass names the paired test commits by short sha and header; every verdict cites tdd.policy', () => {
    const verdicts = evaluateTestFirst(
      [
        d(SHA_T, 'test(cli): red', ['r']),
        d('abcdef0123456789', 'test: two', [SHA_T]),
        d(SHA_F, 'feat: x', ['abcdef0123456789']),
      ],
      paired,
    );
    expect(verdicts[2]).toEqual({
      rule: 'test-first',
      sha: SHA_F,
      status: 'pass',
      message:
        'paired with test commit 1234567 "test(cli): red" (tests in the root package, which it changes), abcdef0 "test: two" (tests in the root package, which it changes)',
      clause: 'docs/design.md §6 (tdd.policy)',
      pairedWith: [SHA_T, 'abcdef0123456789'],
      pairings: [
        { sha: SHA_T, header: 'test(cli): red', relation: 'tests in the root package, which it changes' },
        { sha: 'abcdef0123456789', header: 'test: two', relation: 'tests in the root package, which it changes' },
      ],
      exempt: null,
    });
    expect(verdicts[0]).toMatchObject({ message: 'test commit adding or changing 1 test file(s)', pairedWith: [] });
  });

  it('a failure without any test commit says where it looked and how to fix it, with the scope', () => {
    const [v] = evaluateTestFirst([d(SHA_F, 'feat(cli): add --json', ['r'])], paired);
    expect(v).toEqual({
      rule: 'test-first',
      sha: SHA_F,
      status: 'fail',
      message:
        'feat commit "feat(cli): add --json" has no preceding test commit among its ancestors since the merge base; this commit changes no test file (tdd.test_globs). ' +
        'Commit the failing test first: a "test(cli): ..." commit that adds or changes a test file (tdd.test_globs), then the feat.',
      clause: 'docs/design.md §6 (tdd.policy)',
      pairedWith: [],
      pairings: [],
      exempt: null,
    });
    const [unscoped] = evaluateTestFirst([d(SHA_F, 'fix: crash', ['r'])], { policy: 'paired', types: ['fix'] });
    expect(unscoped!.message).toBe(
      'fix commit "fix: crash" has no preceding test commit among its ancestors since the merge base; this commit changes no test file (tdd.test_globs). ' +
        'Commit the failing test first: a "test: ..." commit that adds or changes a test file (tdd.test_globs), then the fix.',
    );
  });

  it('a failure after a pairing names the tests already paired, their files and the feat that took them', () => {
    const verdicts = evaluateTestFirst(
      [d(SHA_T, 'test: a', ['r']), d(SHA_F, 'feat: one', [SHA_T]), d('f2', 'feat: two', [SHA_F])],
      paired,
    );
    expect(verdicts[2]!.message).toBe(
      `feat commit "feat: two" has no preceding test commit that still counts: 1234567 "test: a" (test/${SHA_T}.test.ts) was already paired with fedcba0 "feat: one"; this commit changes no test file (tdd.test_globs). ` +
        'Commit the failing test first: a "test: ..." commit that adds or changes a test file (tdd.test_globs), then the feat.',
    );
  });

  it('a failure names every test commit of its line that does not count and why: reverted, no test file, only deletions, unrelated (issue 40 item 4)', () => {
    const facts = (sha: string, header: string, parents: string[], changes: FileChange[], reverts?: string) =>
      commitFacts({ sha, message: header, files: [], changes, parents, reverts: reverts ?? null }, isTest);
    const verdicts = evaluateTestFirst(
      [
        facts('t1', 'test(a): one', ['r'], [{ status: 'A', path: 'test/one.test.ts' }]),
        facts('rv', 'Revert "test(a): one"', ['t1'], [{ status: 'D', path: 'test/one.test.ts' }], 't1'),
        facts('t2', 'test(a): two', ['rv'], [{ status: 'A', path: 'docs/two.md' }]),
        facts(
          't3',
          'test(a): three',
          ['t2'],
          [{ status: 'R', path: 'test/3.test.ts', from: 'test/three.test.ts', score: 100 }],
        ),
        facts('t4', 'test(other): four', ['t3'], [{ status: 'A', path: 'other/test/four.test.ts' }]),
        facts(
          'f',
          'feat(a): x',
          ['t4'],
          [
            { status: 'M', path: 'src/a/x.ts' },
            { status: 'D', path: 'test/gone.test.ts' },
          ],
        ),
      ],
      paired,
    );
    const message = verdicts[5]!.message;
    expect(verdicts[5]!.status).toBe('fail');
    expect(message).toContain('t4 "test(other): four" (other/test/four.test.ts)');
    expect(message).toContain('t1 "test(a): one" (test/one.test.ts) was reverted by rv');
    expect(message).toContain('t2 "test(a): two" changes no test file (tdd.test_globs)');
    expect(message).toContain('t3 "test(a): three" (test/3.test.ts) only deletes or renames test files');
    expect(message).toContain('this commit only deletes or renames test files test/gone.test.ts: they do not count');
  });

  it('policy scoped: a failure lists the scopes of the unpaired test commits; with none it says so plainly', () => {
    const scoped: TddOptions = { policy: 'scoped', types: ['feat'] };
    const verdicts = evaluateTestFirst(
      [
        d('t1', 'test(core): a', ['r']),
        d('t2', 'test: b', ['t1']),
        d('t3', 'test(core): c', ['t2']),
        d('f', 'feat(cli): x', ['t3']),
      ],
      scoped,
    );
    expect(verdicts[3]!.message).toMatch(
      /^feat commit "feat\(cli\): x" has no preceding test commit with scope \(cli\) \(policy scoped\); the unpaired test commits \(test\/t1\.test\.ts, test\/t2\.test\.ts, test\/t3\.test\.ts\) have scope \(core\), \(no scope\); this commit changes no test file \(tdd\.test_globs\)\. Commit/,
    );
    const unscoped = evaluateTestFirst([d('t1', 'test(core): a', ['r']), d('f', 'feat: x', ['t1'])], scoped);
    expect(unscoped[1]!.message).toMatch(
      /with scope \(no scope\) \(policy scoped\); the unpaired test commits \(test\/t1\.test\.ts\) have scope \(core\);/,
    );
    const none = evaluateTestFirst([d('f', 'feat(cli): x', ['r'])], scoped);
    expect(none[0]!.message).toMatch(/no preceding test commit among its ancestors since the merge base; /);
  });

  it('policy paired ignores scopes; policy any passes with its own message and pairs nothing', () => {
    expect(evaluateTestFirst([d('t', 'test(core): a', ['r']), d('f', 'feat(cli): b', ['t'])], paired)[1]).toMatchObject(
      {
        status: 'pass',
        pairedWith: ['t'],
      },
    );
    const any = evaluateTestFirst([d('t', 'test: a', ['r']), d('f', 'feat: b', ['t'])], {
      policy: 'any',
      types: ['feat'],
    });
    expect(any[1]).toMatchObject({
      status: 'pass',
      message: 'a test commit is among its ancestors in the range',
      pairedWith: [],
    });
    const none = evaluateTestFirst([d('f', 'feat: b', ['r'])], { policy: 'any', types: ['feat'] });
    expect(none[0]!.message).toMatch(
      /^feat commit "feat: b" has no preceding test commit among its ancestors since the merge base; /,
    );
  });

  it('test commits that do not count are warned about, naming up to three removed files', () => {
    const removed = commitFacts(
      {
        sha: 't',
        message: 'test: cleanup',
        files: [],
        changes: ['a', 'b', 'c', 'd'].map((n) => ({ status: 'D' as const, path: `test/${n}.test.ts` })),
        parents: ['r'],
      },
      isTest,
    );
    expect(evaluateTestFirst([removed], paired)[0]!.message).toBe(
      'test commit only deletes or renames test files (test/a.test.ts, test/b.test.ts, test/c.test.ts): it does not count as the test for a later commit',
    );
    expect(evaluateTestFirst([c('test: docs only', { tests: false })], paired)[0]!.message).toBe(
      'test commit changes no test file (tdd.test_globs): it does not count as the test for a later commit',
    );
  });

  it('skips name the kind or the type and the configured types', () => {
    const verdicts = evaluateTestFirst([c('Merge x', { merge: true }), c('added stuff'), c('docs: a')], {
      policy: 'paired',
      types: ['feat', 'perf'],
    });
    expect(verdicts.map((v) => v.message)).toEqual([
      'merge commit: not judged by test-first',
      'not a Conventional Commit header: test-first cannot tell its type (see the header rule)',
      'type docs does not need a preceding test (tdd.types: feat, perf)',
    ]);
  });

  it('an exemption pairs nothing and carries its reason', () => {
    const [v] = evaluateTestFirst([c('feat: gen', { body: 'TDD-Exempt: vendored' })], paired);
    expect(v).toMatchObject({ message: 'exempt from test-first: vendored', pairedWith: [], exempt: 'vendored' });
  });
});

describe('test-first lines of history: reverts and merges', () => {
  it('a revert of the revert of a test commit restores the test: it pairs with the feat after it', () => {
    const verdicts = evaluateTestFirst(
      [
        d('t1', 'test: a', ['r']),
        d('rv', 'Revert "test: a"', ['t1'], { reverts: 't1' }),
        d('rr', 'Reapply "test: a"', ['rv'], { reverts: 'rv' }),
        d('f', 'feat: a', ['rr']),
      ],
      paired,
    );
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'skip', 'skip', 'pass']);
    expect(verdicts[3]!.pairedWith).toEqual(['t1']);
  });

  it('a revert removes only the test it reverts', () => {
    const verdicts = evaluateTestFirst(
      [
        d('t1', 'test: a', ['r']),
        d('t2', 'test: b', ['t1']),
        d('rv', 'Revert "test: a"', ['t2'], { reverts: 't1' }),
        d('f', 'feat: b', ['rv']),
      ],
      paired,
    );
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'pass', 'skip', 'pass']);
    expect(verdicts[3]!.pairedWith).toEqual(['t2']);
  });

  it('a revert on a parallel branch does not un-count a test on the feat’s own line', () => {
    const verdicts = evaluateTestFirst(
      [d('t', 'test: a', ['r']), d('rv', 'Revert "test: a"', ['t'], { reverts: 't' }), d('f', 'feat: a', ['t'])],
      paired,
    );
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'skip', 'pass']);
    expect(verdicts[2]!.pairedWith).toEqual(['t']);
  });

  it('a merge is never a revert, even when its message carries a revert line', () => {
    const merge = commitFacts(
      { sha: 'm', message: "Merge branch 'x'", files: [], parents: ['t', 'o'], reverts: 't' },
      isTest,
    );
    const verdicts = evaluateTestFirst(
      [d('t', 'test: a', ['r']), d('o', 'docs: o', ['r']), merge, d('f', 'feat: a', ['m'])],
      paired,
    );
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'skip', 'skip', 'pass']);
  });

  it('after a merge, a feat pairs with the unpaired tests of both sides, each once', () => {
    //  r ─ t0 ─ t1 ─────── m ─ f
    //        └─ t2 ───────┘
    const verdicts = evaluateTestFirst(
      [
        d('t0', 'test: base', ['r']),
        d('t1', 'test: main', ['t0']),
        d('t2', 'test: side', ['t0']),
        d('m', "Merge branch 'side'", ['t1', 't2']),
        d('f', 'feat: x', ['m']),
      ],
      paired,
    );
    expect(verdicts[4]).toMatchObject({ status: 'pass', pairedWith: ['t0', 't1', 't2'] });
  });

  it('a merge leaves out tests paired on one side and tests reverted on either side', () => {
    //  r ─ t0 ─ t1 ─────────── m1 ─ f      and      r ─ t0 ─ t1 ───────────────── m ─ f
    //        └─ sf (pairs t0) ─┘                         └─ rv (reverts t0) ─┘
    const verdicts = evaluateTestFirst(
      [
        d('t0', 'test: base', ['r']),
        d('t1', 'test: main', ['t0']),
        d('sf', 'feat: side', ['t0']),
        d('m1', "Merge branch 'side'", ['t1', 'sf']),
        d('f', 'feat: x', ['m1']),
      ],
      paired,
    );
    expect(verdicts[2]).toMatchObject({ status: 'pass', pairedWith: ['t0'] });
    expect(verdicts[4]).toMatchObject({ status: 'pass', pairedWith: ['t1'] });

    const reverted = evaluateTestFirst(
      [
        d('t0', 'test: base', ['r']),
        d('t1', 'test: main', ['t0']),
        d('rv', 'Revert "test: base"', ['t0'], { reverts: 't0' }),
        d('m', "Merge branch 'side'", ['t1', 'rv']),
        d('f', 'feat: x', ['m']),
      ],
      paired,
    );
    expect(reverted[4]).toMatchObject({ status: 'pass', pairedWith: ['t1'] });
  });

  it('policy scoped: a test paired on a parallel line pairs on the other too; once both lines merge it is consumed (issue 40 item 3)', () => {
    const scoped: TddOptions = { policy: 'scoped', types: ['feat'] };
    const verdicts = evaluateTestFirst(
      [
        d('ta', 'test(a): a', ['r']),
        d('tb', 'test(b): b', ['ta']),
        d('fa', 'feat(a): side', ['tb']),
        d('g', 'docs: main', ['tb']),
        d('fa2', 'feat(a): main', ['g']),
        d('fb', 'feat(b): main', ['fa2']),
        d('m', "Merge branch 'side'", ['fb', 'fa']),
        d('fa3', 'feat(a): after', ['m']),
      ],
      scoped,
    );
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'pass', 'pass', 'skip', 'pass', 'pass', 'skip', 'fail']);
    expect(verdicts[2]!.pairedWith).toEqual(['ta']);
    expect(verdicts[4]!.pairedWith).toEqual(['ta']);
    expect(verdicts[5]!.pairedWith).toEqual(['tb']);
    // Judged alone (the side line not in the range), the main line's verdicts are the same.
    const alone = evaluateTestFirst(
      [
        d('ta', 'test(a): a', ['r']),
        d('tb', 'test(b): b', ['ta']),
        d('g', 'docs: main', ['tb']),
        d('fa2', 'feat(a): main', ['g']),
      ],
      scoped,
    );
    expect(alone[3]).toEqual(verdicts[4]);
  });

  it('policy any: after a merge, a test on either side is enough', () => {
    const any: TddOptions = { policy: 'any', types: ['feat'] };
    const verdicts = evaluateTestFirst(
      [d('t', 'test: a', ['r']), d('o', 'docs: o', ['r']), d('m', 'Merge', ['o', 't']), d('f', 'feat: a', ['m'])],
      any,
    );
    expect(verdicts[3]!.status).toBe('pass');
  });

  it('after a merge, a failure still names the pairing made on one side', () => {
    const verdicts = evaluateTestFirst(
      [
        d('t', 'test: a', ['r']),
        d('f1', 'feat: one', ['t']),
        d('o', 'docs: o', ['r']),
        d('m', 'Merge', ['o', 'f1']),
        d('f2', 'feat: two', ['m']),
      ],
      paired,
    );
    expect(verdicts[4]!.message).toContain(
      'that still counts: t "test: a" (test/t.test.ts) was already paired with f1 "feat: one"',
    );
  });
});

describe('the remedy a failure on the default branch offers', () => {
  it('says that verify fails a TDD-Exempt trailer unless the base policy lowers verify.exempt', () => {
    const [, feat] = evaluateTestFirst([c('chore: x'), c('feat(cli): add')], { ...paired, where: 'default-branch' });
    expect(feat!.status).toBe('fail');
    expect(feat!.message).toContain('TDD-Exempt: <reason>');
    expect(feat!.message).toMatch(/an error in verify unless the base's policy sets verify\.exempt: warn/);
  });
});
