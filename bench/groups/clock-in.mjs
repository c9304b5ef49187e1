// Deterministic `clock-in` (no AI, no GitHub) on 10,000 tracked files and 5,000 commits, against `node -e 0`.
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../lib/env.mjs';
import { hasCommand, hestai, missing, pickRole } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { filesFixture } from '../fixtures/files.mjs';
import { nodeNoop } from './members.mjs';
import { unbundledCli } from '../lib/unbundled.mjs';

/** A repository that adopted hestai has run `hestai init` (idempotent): its layout and config cache exist. */
function adopt(fx) {
  if (hasCommand('init')) hestai(fx.repo, fx.env, ['init', '--no-husky']);
}

export default function clockInGroup() {
  let fx;
  let unbundled;
  const clean = () => fs.rmSync(path.join(fx.repo, '.hestai/sessions'), { recursive: true, force: true });
  return {
    id: 'clock-in',
    title: 'clock-in on 10,000 files',
    members: [
      nodeNoop(),
      {
        id: 'clock-in',
        label: 'hestai clock-in (deterministic, 10k files, 5k commits)',
        kind: 'case',
        skip: () => missing(['clock-in']),
        prepare() {
          fx = filesFixture();
          adopt(fx);
        },
        // Every iteration starts from the same state: no sessions left by the previous one.
        setup: () => fs.rmSync(path.join(fx.repo, '.hestai/sessions'), { recursive: true, force: true }),
        measure: () =>
          measureSpawn(process.execPath, [CLI, '--json', 'clock-in', '--role', pickRole(fx.repo), '--focus', 'bench'], {
            cwd: fx.repo,
            env: fx.env,
          }),
        cleanup: () => fx && fs.rmSync(path.join(fx.repo, '.hestai/sessions'), { recursive: true, force: true }),
      },
      {
        id: 'clock-in-unbundled',
        label: 'the same, CLI as tsc emitted it, unbundled (what bundling bought)',
        kind: 'case',
        skip: () => missing(['clock-in']) ?? (unbundledCli() ? null : 'not built yet: dist/cli/main.js'),
        prepare() {
          fx = filesFixture();
          adopt(fx);
          unbundled = unbundledCli();
        },
        setup: () => clean(),
        measure: () =>
          measureSpawn(
            process.execPath,
            [unbundled, '--json', 'clock-in', '--role', pickRole(fx.repo), '--focus', 'bench'],
            { cwd: fx.repo, env: fx.env },
          ),
        cleanup: () => fx && clean(),
      },
    ],
    ratios: [
      { case: 'clock-in', baseline: 'node-e-0', metric: 'wall', budget: { op: '<', limit: 3 } },
      { case: 'clock-in', baseline: 'node-e-0', metric: 'rss' },
      { case: 'clock-in-unbundled', baseline: 'node-e-0', metric: 'wall' },
      { case: 'clock-in-unbundled', baseline: 'clock-in', metric: 'wall' },
    ],
  };
}
