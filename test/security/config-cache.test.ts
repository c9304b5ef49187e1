import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formerCacheDir, textKey } from '../helpers/former-cache.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { runHook } from '../helpers/session-fixture.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 3, issue 27: no cache can weaken a rule. A cache committed into the worktree is never read,
// and the validated config is cached nowhere (an agent can write the user cache directory too): the text is
// validated on every load.

const YAML =
  'anchor:\n  required: true\nverify:\n  anchors: off\n  trailers: warn\ngithub:\n  issue_search: false\n  pr_context: false\n';

function withCommittedCache(config: unknown): TempRepo {
  const repo = makeRepo();
  repo.write('.hestai_workspace.yaml', YAML);
  // What a worktree cache keyed by the text would hold: anyone who can read the file can write it.
  const sha256 = createHash('sha256').update(`hestai-config-cache:3\n${YAML}`).digest('hex');
  repo.write('.hestai/cache/config.json', JSON.stringify({ sha256, text: YAML, config }));
  repo.git(['add', '-A', '-f']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: prepared by someone else']);
  return repo;
}

describe('config cache: never weakens a rule', () => {
  it('a committed .hestai/cache/config.json matching the file hash cannot switch the anchor check off', () => {
    const repo = withCommittedCache({
      ...DEFAULTS,
      anchor: { ...DEFAULTS.anchor, required: false },
      hooks: { ...DEFAULTS.hooks, pre_commit: false },
    });
    repo.write('src/a.ts', 'export {};\n');
    repo.git(['add', 'src/a.ts']);
    const result = runHook('pre-commit', repo.dir, repo.env);
    noStack(result);
    expect(result.status).toBe(1);
  });

  it('a committed cache cannot switch the test-first rule off for feat commits', () => {
    const repo = withCommittedCache({
      ...DEFAULTS,
      tdd: { ...DEFAULTS.tdd, types: ['nothing'] },
      anchor: { ...DEFAULTS.anchor, required: false },
    });
    repo.commit('feat: no test before me', { 'src/a.ts': 'export {};\n' });
    const result = hestai(repo, ['verify', '--from', 'HEAD~1', '--to', 'HEAD']);
    noStack(result);
    expect(result.status).toBe(1);
  });

  it('an empty tdd object in a cache never crashes verify (no stack trace, same verdict as without it)', () => {
    const repo = withCommittedCache({ ...DEFAULTS, tdd: {} });
    repo.commit('test: a test', { 'test/a.test.ts': 'x\n' });
    const result = hestai(repo, ['verify', '--from', 'HEAD~1', '--to', 'HEAD']);
    noStack(result);
    expect(result.status).toBe(0);
  });

  it('validates the text on every load and writes no cache; an entry planted where earlier builds read one is never used', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': YAML });
    expect(hestai(repo, ['status']).status).toBe(0);
    const dir = path.join(formerCacheDir(repo.env), 'config');
    expect(fs.existsSync(dir)).toBe(false);
    const weakConfig = { ...DEFAULTS, anchor: { ...DEFAULTS.anchor, required: false } };
    fs.mkdirSync(dir, { recursive: true });
    for (const text of [YAML, 'anchor:\n  required: false\n', `${YAML} `]) {
      fs.writeFileSync(
        path.join(dir, `4-${textKey(YAML)}.json`),
        JSON.stringify({ format: 4, text, config: weakConfig }),
      );
      repo.write('src/a.ts', 'export {};\n');
      repo.git(['add', 'src/a.ts']);
      expect(runHook('pre-commit', repo.dir, repo.env).status, text).toBe(1);
    }
  });
});
