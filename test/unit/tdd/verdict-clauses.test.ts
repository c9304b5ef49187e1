import { describe, expect, it } from 'vitest';
import { commitFacts } from '../../../src/tdd/commit.js';
import { checkHeader } from '../../../src/tdd/header-rule.js';
import { ignoreRules } from '../../../src/tdd/ignore.js';
import { checkBypass, checkTrailers } from '../../../src/verify/trailer-rules.js';
import { redGreenVerdict } from '../../../src/verify/red-green.js';

const facts = (message: string, parents: string[] = ['p'], reverts: string | null = null) =>
  commitFacts({ sha: 'a'.repeat(40), message, files: [], parents, reverts }, () => false, {
    ignore: ignoreRules([], true),
  });

describe('every verdict cites the rule that decides it', () => {
  it('header skips name why the commit is not judged', () => {
    expect(checkHeader(facts("Merge branch 'x'", ['p', 'q'])).clause).toBe('real merge (2+ parents)');
    expect(checkHeader(facts('Revert "x"\n\nThis reverts commit bbbbbbb.', ['p'], 'b'.repeat(40))).clause).toBe(
      'real revert (This reverts commit <sha>)',
    );
    expect(checkHeader(facts('fixup! feat: x')).clause).toBe('fixup!/squash!/amend!');
    expect(checkHeader(facts('0.0.2')).clause).toBe('commit.ignore');
  });

  it('trailers, bypass and red-green verdicts carry their config key or design section', () => {
    expect(checkTrailers(facts('docs: x'), 'warn').clause).toBe('docs/design.md §7 (verify.trailers)');
    expect(checkBypass(facts('docs: x\n\nHestAI-Bypass: prod down'), 'warn')?.clause).toBe(
      'docs/design.md §7 (verify.bypass)',
    );
    const run = { status: 1, timedOut: false, tail: '' };
    expect(redGreenVerdict('a'.repeat(40), 'b'.repeat(40), run, { ...run, status: 0 }, 'npm test').clause).toBe(
      'docs/design.md §6 (--red-green, tdd.test_command)',
    );
  });
});
