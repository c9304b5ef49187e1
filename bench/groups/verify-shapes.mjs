// Issue 25 item 7: `hestai verify` on the history shapes real repositories have (bench/fixtures/shapes.mjs):
// 10 % merges (every two-parent merge judged from one `git log --diff-merges=remerge` per batch, none
// re-computed one by one) and flat folders (changed files, and renames, read only for the commits whose
// verdicts depend on them). Budgets: at most 0.5x commitlint over the same 10,000 commits, and linear growth to
// 100,000 (10x the commits: at most 10.5x the time). Issue 40 item 2: a vite-like shape (5 % merges of topic
// branches three cycles behind, half of them with a file changed on both sides), at most 0.5x commitlint too.
import { CLI, COMMITLINT } from '../lib/env.mjs';
import { missing } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { shapeFixture } from '../fixtures/shapes.mjs';

export default function verifyShapesGroup() {
  const fx = {};
  const fixture = (shape, count) => () => {
    fx[`${shape}-${count}`] ??= shapeFixture(shape, count);
  };
  const commitlint = (key) => () => {
    const f = fx[key];
    return measureSpawn(process.execPath, [COMMITLINT, '--from', f.first, '--to', 'HEAD'], { cwd: f.repo, env: f.env });
  };
  const verify = (key) => () => {
    const f = fx[key];
    return measureSpawn(process.execPath, [CLI, 'verify', '--from', f.first, '--to', 'HEAD'], {
      cwd: f.repo,
      env: f.env,
    });
  };
  const members = [];
  for (const [shape, what] of [
    ['merges', '10,000 commits, 10 % of them merges'],
    ['flat', '10,000 commits in two flat folders'],
  ]) {
    members.push(
      {
        id: `commitlint-${shape}`,
        label: `commitlint --from <root> --to HEAD, ${what}`,
        kind: 'baseline',
        prepare: fixture(shape, 10_000),
        measure: commitlint(`${shape}-10000`),
      },
      {
        id: `verify-${shape}`,
        label: `hestai verify, ${what}`,
        kind: 'case',
        skip: () => missing(['verify']),
        prepare: fixture(shape, 10_000),
        measure: verify(`${shape}-10000`),
      },
      {
        id: `verify-${shape}-100k`,
        label: `hestai verify, the same shape with 100,000 commits`,
        kind: 'case',
        skip: () => missing(['verify']),
        prepare: fixture(shape, 100_000),
        measure: verify(`${shape}-100000`),
      },
    );
  }
  members.push(
    {
      id: 'commitlint-vite',
      label: 'commitlint --from <root> --to HEAD, 10,000 commits, 5 % merges (vite-like)',
      kind: 'baseline',
      prepare: fixture('vite', 10_000),
      measure: commitlint('vite-10000'),
    },
    {
      id: 'verify-vite',
      label: 'hestai verify, 10,000 commits, 5 % merges, half with a file changed on both sides',
      kind: 'case',
      skip: () => missing(['verify']),
      prepare: fixture('vite', 10_000),
      measure: verify('vite-10000'),
    },
  );
  return {
    id: 'verify-shapes',
    title: 'checking 10,000 and 100,000 commits with merges, in flat folders, and vite-like',
    iterations: (opts) => Math.min(opts.iterations, opts.quick ? 2 : 5),
    members,
    ratios: ['merges', 'flat']
      .flatMap((shape) => [
        { case: `verify-${shape}`, baseline: `commitlint-${shape}`, metric: 'wall', budget: { op: '<=', limit: 0.5 } },
        {
          case: `verify-${shape}-100k`,
          baseline: `verify-${shape}`,
          metric: 'wall',
          budget: { op: '<', limit: 10.5 },
        },
        { case: `verify-${shape}-100k`, baseline: `verify-${shape}`, metric: 'rss', budget: { op: '<=', limit: 1.5 } },
      ])
      .concat([{ case: 'verify-vite', baseline: 'commitlint-vite', metric: 'wall', budget: { op: '<=', limit: 0.5 } }]),
  };
}
