import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyRange } from '../../src/verify/index.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { runs } from '../helpers/property.js';

/**
 * Issue 40 item 3: one answer per commit, whatever the range. Over generated histories (three lines of
 * commits, merges both ways, test commits both lines share), a commit's test-first verdict is the same in
 * every range that holds it and its ancestors back to the config commit: verify up to any tip, up to any
 * commit, in any batch size. Real git: each history is written by one `git fast-import`.
 */

const LINES = ['main', 'side', 'topic'] as const;
type Op =
  | { op: 'commit'; line: number; type: 'test' | 'feat' | 'docs'; scope: 'css' | 'cli' | null; withTest: boolean }
  | { op: 'merge'; into: number; from: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('commit' as const),
      line: fc.integer({ min: 0, max: 2 }),
      type: fc.constantFrom('test' as const, 'feat' as const, 'docs' as const),
      scope: fc.constantFrom('css' as const, 'cli' as const, null),
      withTest: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('merge' as const),
      into: fc.integer({ min: 0, max: 2 }),
      from: fc.integer({ min: 0, max: 2 }),
    }),
  },
);

interface Built {
  root: string;
  /** Every commit but the root, by mark, with the lines whose tip it was made on. */
  marks: string[];
  tips: string[];
}

/** Writes the history the ops describe with one git fast-import; merges whose side adds nothing are left out. */
function build(repo: TempRepo, policy: string, ops: readonly Op[]): Built {
  const config = `tdd:\n  policy: ${policy}\nverify:\n  trailers: off\n  anchors: off\n`;
  let stream = '';
  let time = 1_700_000_000;
  let mark = 0;
  // Per mark: its files and its ancestors (marks), to tell a merge that would bring nothing.
  const files = new Map<number, Map<string, string>>();
  const ancestors = new Map<number, Set<number>>();
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const commit = (message: string, parents: number[], own: Map<string, string>, added: Map<string, string>) => {
    mark++;
    stream += `commit refs/heads/build\nmark :${mark}\ncommitter T <t@hestai.invalid> ${time++} +0000\n${data(message)}`;
    if (parents.length > 0) stream += `from :${parents[0]}\n`;
    for (const p of parents.slice(1)) stream += `merge :${p}\n`;
    for (const [f, c] of added) stream += `M 100644 inline ${f}\n${data(c)}`;
    files.set(mark, own);
    ancestors.set(mark, new Set([mark, ...parents.flatMap((p) => [...ancestors.get(p)!])]));
    return mark;
  };
  const root = commit(
    'chore: config',
    [],
    new Map([['.hestai_workspace.yaml', config]]),
    new Map([['.hestai_workspace.yaml', config]]),
  );
  const tips = LINES.map(() => root);
  let n = 0;
  for (const op of ops) {
    if (op.op === 'merge') {
      const [into, from] = [tips[op.into]!, tips[op.from]!];
      if (ancestors.get(into)!.has(from)) continue;
      const own = new Map([...files.get(into)!, ...files.get(from)!]);
      const added = new Map([...files.get(from)!].filter(([f]) => !files.get(into)!.has(f)));
      tips[op.into] = commit(`Merge branch '${LINES[op.from]}' into ${LINES[op.into]}`, [into, from], own, added);
      continue;
    }
    n++;
    const scope = op.scope === null ? '' : `(${op.scope})`;
    const added = new Map<string, string>();
    const name = op.scope ?? `n${n}`;
    if (op.type === 'test' || (op.type === 'feat' && op.withTest)) added.set(`test/${name}.${n}.test.ts`, `${n}\n`);
    if (op.type === 'feat') added.set(op.scope === null ? `src/f${n}.ts` : `src/${op.scope}/f${n}.ts`, `${n}\n`);
    if (op.type === 'docs') added.set(`docs/d${n}.md`, `${n}\n`);
    const parent = tips[op.line]!;
    tips[op.line] = commit(
      `${op.type}${scope}: change ${n}`,
      [parent],
      new Map([...files.get(parent)!, ...added]),
      added,
    );
  }
  const marksFile = path.join(repo.dir, '..', 'marks');
  const run = spawnSync('git', ['fast-import', '--quiet', `--export-marks=${marksFile}`], {
    cwd: repo.dir,
    env: repo.env,
    input: stream,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`git fast-import failed: ${run.stderr}`);
  const shas = new Map(
    fs
      .readFileSync(marksFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => [Number(l.slice(1, l.indexOf(' '))), l.slice(l.indexOf(' ') + 1)] as const),
  );
  tips.forEach((t, i) => repo.git(['update-ref', `refs/heads/${LINES[i]}`, shas.get(t)!]));
  repo.git(['update-ref', '-d', 'refs/heads/build']);
  repo.git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
  return {
    root: shas.get(root)!,
    marks: [...shas.entries()].filter(([m]) => m !== root).map(([, s]) => s),
    tips: [...new Set(tips.filter((t) => t !== root).map((t) => shas.get(t)!))],
  };
}

/** A verdict without its remedy: whether the range ends on the default branch changes only what to do. */
const answer = (v: { status: string; message: string; paired_with?: { sha: string }[] } | undefined) =>
  v && {
    status: v.status,
    pairedWith: (v.paired_with ?? []).map((p) => p.sha),
    message: v.message.replace(/ (?:It is already on the default branch|Commit the failing test first)[\s\S]*$/, ''),
  };

describe('one answer per commit, whatever the range (issue 40 item 3)', () => {
  it('a commit gets the same test-first verdict in every range holding it and its ancestors', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('paired', 'scoped', 'same-commit'),
        fc.array(opArb, { minLength: 4, maxLength: 12 }),
        fc.constantFrom(1, 2, 1_000),
        async (policy, ops, batch) => {
          const repo = makeRepo({ initialCommit: false });
          const { root, marks, tips } = build(repo, policy, ops);
          const judged = marks.filter((sha) => {
            const header = repo.git(['log', '-1', '--format=%s', sha]).stdout;
            return header.startsWith('feat');
          });
          const seen = new Map<string, { to: string; verdict: ReturnType<typeof answer> }>();
          for (const to of [...new Set([...tips, ...judged])]) {
            const report = await verifyRange({ working_dir: repo.dir, from: root, to, env: {} }, { batch });
            for (const c of report.commits) {
              const verdict = answer(c.verdicts.find((v) => v.rule === 'test-first') as never);
              const before = seen.get(c.sha);
              if (before === undefined) seen.set(c.sha, { to, verdict });
              else
                expect(verdict, `${c.header}: up to ${to.slice(0, 7)} vs up to ${before.to.slice(0, 7)}`).toEqual(
                  before.verdict,
                );
            }
          }
        },
      ),
      runs(5),
    );
  });
});
