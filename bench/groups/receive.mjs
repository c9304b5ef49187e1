// `hestai receive` (issue 43), the server's pre-receive hook, fed git's `<old> <new> <ref>` line. A push of the
// last 1,000 commits of the anchored fixture (100 anchors, their records already on the server), beside
// `git rev-list` of the same range (the floor of any hook that looks at the pushed commits); GHES stops a
// pre-receive hook after 5 s. And a push of 100,000 commits against one of 10,000: peak RSS at most 1.5x
// (receive streams, as verify does). And post-receive's receipts of those pushes: the same bound (each receipt
// lists at most 10,000 commits; a larger push gets several, written as git lists them).
import { CLI } from '../lib/env.mjs';
import { git } from '../lib/env.mjs';
import { missing } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { anchoredFixture } from '../fixtures/anchored.mjs';
import { commitsFixture } from '../fixtures/commits.mjs';

/** The line git gives pre-receive for a push of `old..new` to `ref`. */
const line = (fx, old, ref = 'refs/heads/main') => {
  const tip = git(fx.repo, fx.env, ['rev-parse', 'HEAD']).trim();
  return `${old} ${tip} ${ref}\n`;
};

export default function receiveGroup() {
  let anchored;
  let small;
  let big;
  const prepareAnchored = () => {
    if (anchored) return;
    const fx = anchoredFixture('error');
    const old = git(fx.repo, fx.env, ['rev-parse', 'HEAD~1000']).trim();
    anchored = { ...fx, old, input: line(fx, old) };
  };
  const prepareSmall = () => {
    if (small) return;
    const fx = commitsFixture();
    small = { ...fx, input: line(fx, fx.first) };
  };
  const prepareBig = () => {
    if (big) return;
    const fx = commitsFixture(100_000);
    big = { ...fx, input: line(fx, fx.first) };
  };
  const receive = (fx) => () =>
    measureSpawn(process.execPath, [CLI, 'receive'], { cwd: fx.repo, env: fx.env, input: fx.input });
  const receipts = (fx) => () => {
    // Each sample starts with no receipts (only the spawn is measured).
    git(fx.repo, fx.env, ['update-ref', '-d', 'refs/hestai/receipts']);
    return measureSpawn(process.execPath, [CLI, 'receive', '--receipts'], {
      cwd: fx.repo,
      env: fx.env,
      input: fx.input,
    });
  };
  return {
    id: 'receive',
    title: 'a server judging a push (pre-receive)',
    iterations: (opts) => Math.min(opts.iterations, opts.quick ? 2 : 5),
    members: [
      {
        id: 'rev-list-1000',
        label: 'git rev-list of the pushed 1,000 commits',
        kind: 'baseline',
        prepare: prepareAnchored,
        measure: () =>
          measureSpawn('git', ['rev-list', `${anchored.old}..HEAD`], { cwd: anchored.repo, env: anchored.env }),
      },
      {
        id: 'hestai-receive-1000',
        label: 'hestai receive, 1,000 anchored commits',
        kind: 'case',
        skip: () => missing(['receive']),
        prepare: prepareAnchored,
        measure: () => receive(anchored)(),
      },
      {
        id: 'hestai-receive-10k',
        label: 'hestai receive, 10,000 commits',
        kind: 'case',
        skip: () => missing(['receive']),
        prepare: prepareSmall,
        measure: () => receive(small)(),
      },
      {
        id: 'hestai-receive-100k',
        label: 'hestai receive, 100,000 commits',
        kind: 'case',
        skip: () => missing(['receive']),
        prepare: prepareBig,
        measure: () => receive(big)(),
      },
      {
        id: 'hestai-receipts-10k',
        label: 'hestai receive --receipts (post-receive), 10,000 commits',
        kind: 'case',
        skip: () => missing(['receive']),
        prepare: prepareSmall,
        measure: () => receipts(small)(),
      },
      {
        id: 'hestai-receipts-100k',
        label: 'hestai receive --receipts (post-receive), 100,000 commits',
        kind: 'case',
        skip: () => missing(['receive']),
        prepare: prepareBig,
        measure: () => receipts(big)(),
      },
    ],
    ratios: [
      { case: 'hestai-receive-1000', baseline: 'rev-list-1000', metric: 'wall' },
      { case: 'hestai-receive-100k', baseline: 'hestai-receive-10k', metric: 'rss', budget: { op: '<=', limit: 1.5 } },
      {
        case: 'hestai-receipts-100k',
        baseline: 'hestai-receipts-10k',
        metric: 'rss',
        budget: { op: '<=', limit: 1.5 },
      },
    ],
    absolute: [{ case: 'hestai-receive-1000', metric: 'wall', budget: { op: '<', limit: 5000 } }],
  };
}
