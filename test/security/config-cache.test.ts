import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configCacheFile, configTextHash } from '../../src/config/cache.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { runHook } from '../helpers/session-fixture.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 3: the config cache can never weaken a rule. It is keyed by the hash of the workspace
// file's content, lives outside the worktree (a repository cannot commit or hand-edit it), and is validated
// on read: a cache that disagrees or is malformed is ignored and rewritten, never a crash, never a pass.

const YAML =
  'anchor:\n  required: true\nverify:\n  anchors: off\ngithub:\n  issue_search: false\n  pr_context: false\n';

function withCommittedCache(config: unknown): TempRepo {
  const repo = makeRepo();
  repo.write('.hestai_workspace.yaml', YAML);
  repo.write('.hestai/cache/config.json', JSON.stringify({ sha256: configTextHash(YAML), config }));
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

  it('a malformed cache in the user cache directory is ignored and rewritten, never a crash', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': YAML });
    const file = configCacheFile(YAML, repo.env)!;
    expect(file.startsWith(repo.home)).toBe(true);
    for (const bad of [
      'not json',
      JSON.stringify({ sha256: configTextHash(YAML), config: { ...DEFAULTS, tdd: {} } }),
      JSON.stringify({ sha256: configTextHash(YAML), config: { ...DEFAULTS, anchor: { required: 'no' } } }),
      'null',
    ]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bad);
      const result = hestai(repo, ['status']);
      noStack(result);
      expect(result.status).toBe(0);
      const rewritten = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        sha256: string;
        config: { anchor: { required: boolean }; tdd: { types: string[] } };
      };
      expect(rewritten.sha256).toBe(configTextHash(YAML));
      expect(rewritten.config.anchor.required).toBe(true);
      expect(rewritten.config.tdd.types).toEqual(['feat']);
    }
  });

  it('a cache written for other content is never used for this content', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': YAML });
    const weak = 'anchor:\n  required: false\n';
    const file = configCacheFile(YAML, repo.env)!;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        sha256: configTextHash(weak),
        config: { ...DEFAULTS, anchor: { ...DEFAULTS.anchor, required: false } },
      }),
    );
    repo.write('src/a.ts', 'export {};\n');
    repo.git(['add', 'src/a.ts']);
    expect(runHook('pre-commit', repo.dir, repo.env).status).toBe(1);
  });
});
