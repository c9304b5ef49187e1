import { describe, expect, it } from 'vitest';
import { commitFacts, type CommitFacts } from '../../../src/tdd/commit.js';
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
    expect(verdicts[2]!.message).toMatch(/already paired/);
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
