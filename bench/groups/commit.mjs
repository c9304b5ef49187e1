// `git commit` through real hooks: ours (valid anchor, passing test-first) against two `node -e 0` hooks (the
// runtime's own cost) and against husky 9 + lint-staged 16 + commitlint 20 set up as their docs say (issue 38).
// Each iteration first makes a `test` commit (untimed).
import fs from 'node:fs';
import { anchorMissing, anchorSession, makeRepo, missingHooks, stageFeature } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { git } from '../lib/env.mjs';

function commitMember(id, label, kind, hooks, skip) {
  let repo;
  let checkedTrailer = false;
  return {
    id,
    label,
    kind,
    skip,
    async prepare() {
      repo = makeRepo(hooks);
      if (hooks === 'hestai')
        repo.env = { ...repo.env, HESTAI_SESSION: await anchorSession(repo.repo, repo.env, repo.role) };
    },
    setup: (i) => stageFeature(repo.repo, repo.env, i),
    measure(i) {
      const sample = measureSpawn('git', ['commit', '-q', '-m', `feat(app): implement case ${i}`], {
        cwd: repo.repo,
        env: repo.env,
      });
      // Our hooks must really have run: the commit-msg hook appends the session trailer.
      if (hooks === 'hestai' && !checkedTrailer) {
        const message = git(repo.repo, repo.env, ['log', '-1', '--format=%B']);
        if (!message.includes('HestAI-Session:'))
          throw new Error(`the hestai hooks did not run: no HestAI-Session trailer in\n${message}`);
        checkedTrailer = true;
      }
      return sample;
    },
    cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
  };
}

export default function commitGroup() {
  return {
    id: 'commit',
    title: 'git commit through hooks',
    members: [
      commitMember('noop-hooks', 'commit, both hooks `node -e 0`', 'baseline', 'noop'),
      commitMember('husky', 'commit, husky + lint-staged + commitlint as documented', 'baseline', 'husky'),
      commitMember(
        'hestai-hooks',
        'commit, both hestai hooks (anchored, test-first ok)',
        'case',
        'hestai',
        () => missingHooks() ?? anchorMissing(),
      ),
    ],
    ratios: [
      // Issue 38, item 1: what a user compares a commit with.
      { case: 'hestai-hooks', baseline: 'noop-hooks', metric: 'wall', budget: { op: '<=', limit: 2.5 } },
      { case: 'hestai-hooks', baseline: 'husky', metric: 'wall', budget: { op: '<=', limit: 0.3 } },
    ],
  };
}
