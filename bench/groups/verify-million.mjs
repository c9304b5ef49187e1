// Issue 27: `hestai verify` streams, so a range of 1,000,000 commits (one file, bench/fixtures/single-file.mjs)
// verifies on a 2-core machine; its time and peak RSS are recorded in bench/README.md. The floor is `git log`
// reading every message and changed file once. Not in the default run (the fixture takes minutes to build):
// `node bench/run.mjs --only verify-million`.
import { CLI } from '../lib/env.mjs';
import { missing } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { singleFileFixture } from '../fixtures/single-file.mjs';

export default function verifyMillionGroup() {
  let fx;
  const prepare = () => {
    fx ??= singleFileFixture();
  };
  return {
    id: 'verify-million',
    title: 'checking 1,000,000 commits of one file',
    optIn: true,
    warmups: () => 0,
    iterations: (opts) => Math.min(opts.iterations, opts.quick ? 1 : 3),
    members: [
      {
        id: 'git-log-million',
        label: 'git log --name-only <root>..HEAD (1,000,000 commits)',
        kind: 'baseline',
        prepare,
        measure: () =>
          measureSpawn(
            'git',
            ['log', '-z', '--no-renames', '--name-only', '--format=%H%x00%P%x00%B', `${fx.first}..HEAD`],
            { cwd: fx.repo, env: fx.env },
          ),
      },
      {
        id: 'hestai-verify-million',
        label: 'hestai verify, 1,000,000 commits of one file',
        kind: 'case',
        skip: () => missing(['verify']),
        prepare,
        measure: () =>
          measureSpawn(process.execPath, [CLI, 'verify', '--from', fx.first, '--to', 'HEAD'], {
            cwd: fx.repo,
            env: fx.env,
          }),
      },
    ],
    ratios: [{ case: 'hestai-verify-million', baseline: 'git-log-million', metric: 'wall' }],
  };
}
