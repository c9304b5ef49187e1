// The hook entrypoints as processes (`hestai check pre-commit`, `hestai check commit-msg FILE`) against
// `node -e 0`, in an anchored repository with a staged change whose test commit came first.
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT } from '../lib/env.mjs';
import { anchorMissing, anchorSession, makeRepo, missing, missingHooks, stageFeature } from '../lib/hestai.mjs';
import { gitProcesses, measureSpawn } from '../lib/measure.mjs';
import { nodeNoop } from './members.mjs';

export default function hooksGroup() {
  let repo;
  let msgFile;
  const skip = () => missing(['check', 'pre-commit'], ['check', 'commit-msg']) ?? anchorMissing();
  const shared = {
    async prepare() {
      if (repo) return;
      repo = makeRepo('hestai');
      repo.env = { ...repo.env, HESTAI_SESSION: await anchorSession(repo.repo, repo.env, repo.role) };
      stageFeature(repo.repo, repo.env, 0);
      msgFile = path.join(repo.base, 'COMMIT_EDITMSG');
    },
    cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
  };
  return {
    id: 'hooks',
    title: 'hook entrypoints',
    members: [
      nodeNoop(),
      {
        id: 'check-pre-commit',
        label: 'hestai check pre-commit',
        kind: 'case',
        skip,
        ...shared,
        measure: () => measureSpawn(process.execPath, [CLI, 'check', 'pre-commit'], { cwd: repo.repo, env: repo.env }),
      },
      {
        id: 'check-commit-msg',
        label: 'hestai check commit-msg FILE',
        kind: 'case',
        skip,
        ...shared,
        setup: () => fs.writeFileSync(msgFile, 'feat(app): implement the staged case\n'),
        measure: () =>
          measureSpawn(process.execPath, [CLI, 'check', 'commit-msg', msgFile], { cwd: repo.repo, env: repo.env }),
      },
      {
        id: 'hook-pre-commit',
        label: 'hooks/pre-commit (the entrypoint git runs)',
        kind: 'case',
        skip: () => missingHooks() ?? anchorMissing(),
        ...shared,
        measure: () =>
          measureSpawn(process.execPath, [path.join(ROOT, 'hooks/pre-commit')], { cwd: repo.repo, env: repo.env }),
        probe: () => ({
          git_processes: gitProcesses(process.execPath, [path.join(ROOT, 'hooks/pre-commit')], {
            cwd: repo.repo,
            env: repo.env,
          }),
        }),
      },
      {
        id: 'hook-commit-msg',
        label: 'hooks/commit-msg FILE (the entrypoint git runs)',
        kind: 'case',
        skip: () => missingHooks() ?? anchorMissing(),
        ...shared,
        setup: () => fs.writeFileSync(msgFile, 'feat(app): implement the staged case\n'),
        measure: () =>
          measureSpawn(process.execPath, [path.join(ROOT, 'hooks/commit-msg'), msgFile], {
            cwd: repo.repo,
            env: repo.env,
          }),
        probe() {
          fs.writeFileSync(msgFile, 'feat(app): implement the staged case\n');
          return {
            git_processes: gitProcesses(process.execPath, [path.join(ROOT, 'hooks/commit-msg'), msgFile], {
              cwd: repo.repo,
              env: repo.env,
            }),
          };
        },
      },
    ],
    ratios: [
      { case: 'hook-pre-commit', baseline: 'node-e-0', metric: 'wall' },
      { case: 'hook-commit-msg', baseline: 'node-e-0', metric: 'wall' },
      { case: 'hook-pre-commit', baseline: 'node-e-0', metric: 'rss', budget: { op: '<', limit: 1.5 } },
      { case: 'hook-commit-msg', baseline: 'node-e-0', metric: 'rss', budget: { op: '<', limit: 1.5 } },
      { case: 'check-pre-commit', baseline: 'node-e-0', metric: 'wall' },
      { case: 'check-commit-msg', baseline: 'node-e-0', metric: 'wall' },
      { case: 'check-pre-commit', baseline: 'node-e-0', metric: 'rss', budget: { op: '<', limit: 1.5 } },
      { case: 'check-commit-msg', baseline: 'node-e-0', metric: 'rss', budget: { op: '<', limit: 1.5 } },
    ],
  };
}
