// What each hook-path measure buys: the shipped pre-commit hook (one bundled CommonJS file, commander-free,
// no cache of its own since issue 27) beside the same hook with one measure taken away at a time. Informational, no budgets.
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, write } from '../lib/env.mjs';
import { anchorMissing, anchorSession, makeRepo, missingHooks, stageFeature } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { nodeNoop } from './members.mjs';

const ESM_ENTRY = path.join(ROOT, 'dist/hooks/entry/pre-commit.js');

export default function measuresGroup() {
  let repo;
  let esmWrapper;
  const skip = () =>
    missingHooks() ??
    anchorMissing() ??
    (fs.existsSync(ESM_ENTRY) ? null : 'not built yet: dist/hooks/entry/pre-commit.js');
  const shared = {
    kind: 'case',
    skip,
    async prepare() {
      if (repo) return;
      repo = makeRepo('hestai');
      repo.env = { ...repo.env, HESTAI_SESSION: await anchorSession(repo.repo, repo.env, repo.role) };
      stageFeature(repo.repo, repo.env, 0);
      // The same entry as tsc emitted it: ~20 ES modules instead of one bundled file.
      esmWrapper = write(
        repo.base,
        'pre-commit-esm.mjs',
        `import { run } from ${JSON.stringify(ESM_ENTRY)};\nprocess.exitCode = await run(process.argv.slice(2));\n`,
      );
    },
    cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
  };
  const hook = (args, options = {}) =>
    measureSpawn(process.execPath, args, { cwd: repo.repo, env: repo.env, ...options });
  return {
    id: 'measures',
    title: 'what each hook-path measure buys (pre-commit)',
    members: [
      nodeNoop(),
      {
        id: 'shipped',
        label: 'hooks/pre-commit as shipped (bundled CJS, no commander; the workspace config validated: yaml + zod)',
        ...shared,
        measure: () => hook([path.join(ROOT, 'hooks/pre-commit')]),
      },
      {
        id: 'unbundled',
        label: 'same entry unbundled (tsc ESM modules)',
        ...shared,
        measure: () => hook([esmWrapper]),
      },
      {
        id: 'commander',
        label: 'through the full CLI (commander, lazy command import)',
        ...shared,
        measure: () => hook([CLI, '--cwd', '.', 'check', 'pre-commit']),
      },
    ],
    ratios: ['shipped', 'unbundled', 'commander'].flatMap((id) => [
      { case: id, baseline: 'node-e-0', metric: 'wall' },
      ...(id === 'shipped' ? [] : [{ case: id, baseline: 'shipped', metric: 'wall' }]),
    ]),
  };
}
