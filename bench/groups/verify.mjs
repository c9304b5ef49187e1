// A 10,000-commit range: `hestai verify` against `commitlint --from --to` and against `git log` reading
// every message and changed file once (the floor of any range check). And a 100,000-commit range: time
// must grow linearly or better (at most ~10x the 10,000-commit figure) and peak RSS at most 1.5x (verify
// streams, issue 27).
import { CLI, COMMITLINT } from '../lib/env.mjs';
import { missing } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { commitsFixture } from '../fixtures/commits.mjs';
import { anchoredFixture } from '../fixtures/anchored.mjs';

export default function verifyGroup() {
  let fx;
  let big;
  const prepare = () => {
    fx ??= commitsFixture();
  };
  const prepareBig = () => {
    big ??= commitsFixture(100_000);
  };
  // Issue 11: 10,000 commits carrying 1,000 distinct anchors, re-validated from their proof records, against
  // the same history verified with verify.anchors: off (the policy is read from each fixture's root commit).
  let on;
  let off;
  const prepareAnchors = () => {
    on ??= anchoredFixture('error');
    off ??= anchoredFixture('off');
  };
  return {
    id: 'verify',
    title: 'checking 10,000 commits',
    iterations: (opts) => Math.min(opts.iterations, opts.quick ? 2 : 7),
    members: [
      {
        id: 'commitlint-range',
        label: 'commitlint --from <root> --to HEAD',
        kind: 'baseline',
        prepare,
        measure: () =>
          measureSpawn(process.execPath, [COMMITLINT, '--from', fx.first, '--to', 'HEAD'], {
            cwd: fx.repo,
            env: fx.env,
          }),
      },
      {
        id: 'git-log-range',
        label: 'git log --name-only <root>..HEAD',
        kind: 'baseline',
        prepare,
        measure: () =>
          measureSpawn(
            'git',
            ['log', '-z', '--no-renames', '--name-only', '--format=%H%x00%P%x00%B', `${fx.first}..HEAD`],
            {
              cwd: fx.repo,
              env: fx.env,
            },
          ),
      },
      {
        id: 'hestai-verify',
        label: 'hestai verify --from <root> --to HEAD',
        kind: 'case',
        skip: () => missing(['verify']),
        prepare,
        measure: () =>
          measureSpawn(process.execPath, [CLI, 'verify', '--from', fx.first, '--to', 'HEAD'], {
            cwd: fx.repo,
            env: fx.env,
          }),
      },
      {
        id: 'hestai-verify-100k',
        label: 'hestai verify, 100,000 commits',
        kind: 'case',
        skip: () => missing(['verify']),
        prepare: prepareBig,
        measure: () =>
          measureSpawn(process.execPath, [CLI, 'verify', '--from', big.first, '--to', 'HEAD'], {
            cwd: big.repo,
            env: big.env,
          }),
      },
      {
        id: 'hestai-verify-anchors',
        label: 'hestai verify, 10,000 commits with 1,000 anchors re-validated',
        kind: 'case',
        skip: () => missing(['verify']),
        prepare: prepareAnchors,
        measure: () =>
          measureSpawn(process.execPath, [CLI, 'verify', '--from', on.first, '--to', 'HEAD'], {
            cwd: on.repo,
            env: on.env,
          }),
      },
      {
        id: 'hestai-verify-anchors-off',
        label: 'the same history with verify.anchors: off',
        kind: 'baseline',
        skip: () => missing(['verify']),
        prepare: prepareAnchors,
        measure: () =>
          measureSpawn(process.execPath, [CLI, 'verify', '--from', off.first, '--to', 'HEAD'], {
            cwd: off.repo,
            env: off.env,
          }),
      },
    ],
    ratios: [
      {
        case: 'hestai-verify-anchors',
        baseline: 'hestai-verify-anchors-off',
        metric: 'wall',
        budget: { op: '<=', limit: 1.5 },
      },
      { case: 'hestai-verify', baseline: 'commitlint-range', metric: 'wall', budget: { op: '<', limit: 0.4 } },
      // 10x the commits: linear growth is a ratio of 10 (node's start-up makes it a little less).
      { case: 'hestai-verify-100k', baseline: 'hestai-verify', metric: 'wall', budget: { op: '<', limit: 10.5 } },
      // verify streams (issue 27): the memory it holds does not grow with the range.
      { case: 'hestai-verify-100k', baseline: 'hestai-verify', metric: 'rss', budget: { op: '<=', limit: 1.5 } },
      { case: 'hestai-verify', baseline: 'git-log-range', metric: 'wall' },
      { case: 'commitlint-range', baseline: 'git-log-range', metric: 'wall' },
    ],
  };
}
