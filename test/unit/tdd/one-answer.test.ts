import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitFacts, type CommitFacts, type FileChange } from '../../../src/tdd/commit.js';
import { evaluateTestFirst, type TddPolicy } from '../../../src/tdd/rule.js';
import { testFileMatcher } from '../../../src/tdd/test-files.js';
import { runs } from '../../helpers/property.js';

/**
 * Issue 40 item 3, the pure rule: a commit's test-first verdict depends on its ancestors alone. Over generated
 * histories (three lines, merges both ways, shared test commits, reverts of test commits and of those reverts),
 * the verdict a commit gets in the whole history is the one it gets judged with its ancestors only, or with
 * the ancestors of any later commit. test/integration/verify-one-answer.test.ts checks the same through git.
 */

const isTest = testFileMatcher(['test/**']);
type Op =
  | { op: 'commit'; line: number; type: 'test' | 'feat' | 'docs'; scope: 'css' | 'cli' | null }
  | { op: 'merge'; into: number; from: number }
  | { op: 'revert'; line: number; back: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('commit' as const),
      line: fc.integer({ min: 0, max: 2 }),
      type: fc.constantFrom('test' as const, 'feat' as const, 'docs' as const),
      scope: fc.constantFrom('css' as const, 'cli' as const, null),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('merge' as const),
      into: fc.integer({ min: 0, max: 2 }),
      from: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('revert' as const), line: fc.integer({ min: 0, max: 2 }), back: fc.nat(5) }),
  },
);

/** The history the ops describe, parents before children, with each commit's ancestors. */
function history(ops: readonly Op[]): { commits: CommitFacts[]; ancestors: Map<string, Set<string>> } {
  const commits: CommitFacts[] = [];
  const ancestors = new Map<string, Set<string>>();
  const add = (header: string, parents: string[], changes: FileChange[], reverts: string | null = null) => {
    const sha = `c${commits.length}`;
    commits.push(commitFacts({ sha, message: header, files: [], changes, parents, reverts }, isTest));
    ancestors.set(sha, new Set([sha, ...parents.flatMap((p) => [...ancestors.get(p)!])]));
    return sha;
  };
  const root = add('chore: start', [], [{ status: 'A', path: 'README.md' }]);
  const tips = [root, root, root];
  ops.forEach((op, n) => {
    if (op.op === 'merge') {
      const [into, from] = [tips[op.into]!, tips[op.from]!];
      if (!ancestors.get(into)!.has(from)) tips[op.into] = add(`Merge ${op.from} into ${op.into}`, [into, from], []);
    } else if (op.op === 'revert') {
      // Reverts the op.back-th newest test commit or revert on the line, if any.
      const tip = tips[op.line]!;
      const undoable = commits.filter(
        (c) => ancestors.get(tip)!.has(c.sha) && (c.conventional?.type === 'test' || c.kind === 'revert'),
      );
      const target = undoable[undoable.length - 1 - op.back];
      if (target !== undefined)
        tips[op.line] = add(
          `Revert "${target.header}"`,
          [tip],
          [{ status: 'M', path: target.paths[0] ?? 'x' }],
          target.sha,
        );
    } else {
      const scope = op.scope === null ? '' : `(${op.scope})`;
      const path =
        op.type === 'test'
          ? `test/${op.scope ?? 'n'}${n}.test.ts`
          : op.type === 'feat'
            ? `src/${op.scope ?? 'r'}/f${n}.ts`
            : `docs/${n}.md`;
      tips[op.line] = add(`${op.type}${scope}: change ${n}`, [tips[op.line]!], [{ status: 'A', path }]);
    }
  });
  return { commits, ancestors };
}

describe('test-first: one answer per commit, whatever else is judged (issue 40 item 3)', () => {
  it('a commit gets the verdict of its ancestors alone, in the whole history and below any later commit', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<TddPolicy>('paired', 'scoped', 'any', 'same-commit'),
        fc.array(opArb, { minLength: 3, maxLength: 30 }),
        (policy, ops) => {
          const { commits, ancestors } = history(ops);
          const options = { policy, types: ['feat'] };
          const whole = new Map(evaluateTestFirst(commits, options).map((v) => [v.sha, v]));
          for (const tip of commits) {
            const below = commits.filter((c) => ancestors.get(tip.sha)!.has(c.sha));
            for (const v of evaluateTestFirst(below, options))
              expect(v, `${v.sha} below ${tip.sha}`).toEqual(whole.get(v.sha));
          }
        },
      ),
      runs(150),
    );
  });
});
