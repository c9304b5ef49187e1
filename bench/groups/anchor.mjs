// The three anchor stages as CLI processes, each against `node -e 0` run in the same iteration. Stages run
// in handshake order (identity → context → proof) on a fresh clock-in each iteration.
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../lib/env.mjs';
import { anchorArgs, clockIn, makeRepo, missing } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { nodeNoop } from './members.mjs';

export default function anchorGroup() {
  let repo;
  let token;
  const skip = () => missing(['clock-in'], ['anchor']);
  const stage = (name, setup) => ({
    id: `anchor-${name}`,
    label: `hestai anchor --stage ${name}`,
    kind: 'case',
    skip,
    prepare() {
      repo ??= makeRepo('hestai');
    },
    setup,
    measure: () =>
      measureSpawn(process.execPath, [CLI, ...anchorArgs(repo.repo, name, token, repo.role)], {
        cwd: repo.repo,
        env: repo.env,
      }),
    cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
  });
  return {
    id: 'anchor',
    title: 'anchor handshake stages',
    order: 'fixed',
    members: [
      nodeNoop(),
      stage('identity', () => {
        fs.rmSync(path.join(repo.repo, '.hestai/sessions'), { recursive: true, force: true });
        token = clockIn(repo.repo, repo.env, repo.role);
      }),
      stage('context'),
      stage('proof'),
    ],
    ratios: ['identity', 'context', 'proof'].map((name) => ({
      case: `anchor-${name}`,
      baseline: 'node-e-0',
      metric: 'wall',
      budget: { op: '<', limit: 2 },
    })),
  };
}
