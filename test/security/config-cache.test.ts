import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configCacheFile } from '../../src/config/cache.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { runHook } from '../helpers/session-fixture.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 3: the config cache can never weaken a rule. It holds the workspace file's exact text (a
// cache for any other text is a miss), lives outside the worktree (a repository cannot commit or hand-edit
// it), and is validated on read: a cache that disagrees or is malformed is ignored and rewritten, never a
// crash, never a pass.

const YAML =
  'anchor:\n  required: true\nverify:\n  anchors: off\ngithub:\n  issue_search: false\n  pr_context: false\n';

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

  it('a malformed cache in the user cache directory is ignored and rewritten, never a crash', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': YAML });
    const file = configCacheFile(YAML, repo.env)!;
    expect(file.startsWith(repo.home)).toBe(true);
    expect(hestai(repo, ['status']).status).toBe(0);
    const good = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    // The cache holds the exact text it was validated from: that, not a digest of it, is what a read compares.
    expect(good['text']).toBe(YAML);
    for (const bad of [
      'not json',
      JSON.stringify({ ...good, config: { ...DEFAULTS, tdd: {} } }),
      JSON.stringify({ ...good, config: { ...DEFAULTS, anchor: { required: 'no' } } }),
      JSON.stringify({ ...good, text: undefined }),
      JSON.stringify({ ...good, text: 42 }),
      JSON.stringify({ ...good, format: 2 }),
      JSON.stringify({
        sha256: createHash('sha256').update(`hestai-config-cache:3\n${YAML}`).digest('hex'),
        config: good['config'],
      }),
      'null',
    ]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bad);
      const result = hestai(repo, ['status']);
      noStack(result);
      expect(result.status).toBe(0);
      const rewritten = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        text: string;
        config: { anchor: { required: boolean }; tdd: { types: string[] } };
      };
      expect(rewritten.text).toBe(YAML);
      expect(rewritten.config.anchor.required).toBe(true);
      expect(rewritten.config.tdd.types).toEqual(['feat']);
    }
  });

  it('a cache written for other content is never used for this content, even one byte apart', () => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': YAML });
    const file = configCacheFile(YAML, repo.env)!;
    expect(hestai(repo, ['status']).status).toBe(0);
    const good = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const weakConfig = { ...DEFAULTS, anchor: { ...DEFAULTS.anchor, required: false } };
    for (const text of ['anchor:\n  required: false\n', `${YAML} `, YAML.replace('anchor:', 'anchor: ')]) {
      fs.writeFileSync(file, JSON.stringify({ ...good, text, config: weakConfig }));
      repo.write('src/a.ts', 'export {};\n');
      repo.git(['add', 'src/a.ts']);
      expect(runHook('pre-commit', repo.dir, repo.env).status, text).toBe(1);
    }
  });
});
