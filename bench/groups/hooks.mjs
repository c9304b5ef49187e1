// The hook entrypoints as processes (`hestai check pre-commit`, `hestai check commit-msg FILE`) against
// `node -e 0`, in an anchored repository with a staged change whose test commit came first.
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../lib/env.mjs';
import { anchorSession, makeRepo, missing, stageFeature } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { nodeNoop } from './members.mjs';

export default function hooksGroup() {
  let repo;
  let msgFile;
  const skip = () => missing(['init'], ['clock-in'], ['anchor'], ['check', 'pre-commit'], ['check', 'commit-msg']);
  const shared = {
    prepare() {
      if (repo) return;
      repo = makeRepo('hestai');
      repo.env = { ...repo.env, HESTAI_SESSION: anchorSession(repo.repo, repo.env, repo.role) };
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
        measure: () => measureSpawn(process.execPath, [CLI, 'check', 'commit-msg', msgFile], { cwd: repo.repo, env: repo.env }),
      },
    ],
    ratios: [
      { case: 'check-pre-commit', baseline: 'node-e-0', metric: 'wall' },
      { case: 'check-commit-msg', baseline: 'node-e-0', metric: 'wall' },
      { case: 'check-pre-commit', baseline: 'node-e-0', metric: 'rss', budget: { op: '<', limit: 1.5 } },
      { case: 'check-commit-msg', baseline: 'node-e-0', metric: 'rss', budget: { op: '<', limit: 1.5 } },
    ],
  };
}
