import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { userCacheDir } from '../../src/config/cache.js';
import { workspacePaths } from '../../src/paths.js';
import { anchorFile, hasValidAnchor } from '../../src/records/anchor.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { makeSession, runHook } from '../helpers/session-fixture.js';

// Issue 15 (Speed): an anchor whose integrity hash held is remembered by its exact file text in the user cache
// directory, so the hooks need not hash it again on every commit. The remembered text can never vouch for any
// other text: an anchor edited after validation is refused with or without an entry, a malformed or foreign
// entry is a miss, an entry in the worktree is never read, and a tampered anchor is never remembered.

const remembered = (repo: TempRepo) => {
  const dir = path.join(userCacheDir(repo.env)!, 'anchor');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
};

function anchored() {
  const repo = makeRepo();
  const { token } = makeSession(repo.dir);
  const file = anchorFile(workspacePaths(repo.dir), token);
  const stage = () => {
    repo.write(`src/${Date.now()}-${Math.random()}.ts`, 'export {};\n');
    repo.git(['add', 'src']);
  };
  return { repo, token, file, stage };
}

function expectTampered(result: { status: number; stderr: string }) {
  expect(result.status, result.stderr).toBe(1);
  expect(result.stderr).toContain('does not match its integrity hash');
}

describe('verified anchors are remembered by their exact text', () => {
  it('remembers a validated anchor in the user cache directory (never the worktree) and passes on it', () => {
    const { repo, file, stage } = anchored();
    stage();
    const first = runHook('pre-commit', repo.dir, repo.env);
    expect(first.status, first.stderr).toBe(0);
    const entries = remembered(repo);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.startsWith(repo.home)).toBe(true);
    expect((JSON.parse(fs.readFileSync(entries[0]!, 'utf8')) as { text: string }).text).toBe(
      fs.readFileSync(file, 'utf8'),
    );
    expect(fs.existsSync(path.join(repo.dir, '.hestai/cache'))).toBe(false);
    const second = runHook('pre-commit', repo.dir, repo.env);
    expect(second.status, second.stderr).toBe(0);
    expect(remembered(repo)).toHaveLength(1);
  });

  it('refuses an anchor edited after validation although its original text is remembered, and never remembers it', () => {
    const { repo, file, stage } = anchored();
    stage();
    expect(runHook('pre-commit', repo.dir, repo.env).status).toBe(0);
    expect(remembered(repo)).toHaveLength(1);
    const original = fs.readFileSync(file, 'utf8');
    const anchor = JSON.parse(original) as Record<string, unknown>;
    for (const edited of [
      JSON.stringify({ ...anchor, role: 'someone-else' }, null, 2),
      JSON.stringify({ ...anchor, tier: anchor['tier'] === 'quick' ? 'deep' : 'quick' }),
    ]) {
      fs.writeFileSync(file, edited);
      expectTampered(runHook('pre-commit', repo.dir, repo.env));
    }
    // The same anchor in another layout: its integrity holds; the new text is remembered beside the first.
    fs.writeFileSync(file, JSON.stringify(anchor));
    expect(runHook('pre-commit', repo.dir, repo.env).status).toBe(0);
    expect(remembered(repo)).toHaveLength(2);
    const texts = remembered(repo).map((f) => (JSON.parse(fs.readFileSync(f, 'utf8')) as { text: string }).text);
    for (const text of texts) expect(JSON.parse(text)).toEqual(anchor);
  });

  it('a malformed, foreign or worktree entry is a miss: the hash decides', () => {
    const { repo, token, file, stage } = anchored();
    stage();
    expect(runHook('pre-commit', repo.dir, repo.env).status).toBe(0);
    const [entry] = remembered(repo);
    const good = JSON.parse(fs.readFileSync(entry!, 'utf8')) as Record<string, unknown>;
    const original = fs.readFileSync(file, 'utf8');
    const tampered = JSON.stringify({ ...(JSON.parse(original) as object), role: 'someone-else' }, null, 2);
    for (const bad of [
      'not json',
      'null',
      JSON.stringify({ ...good, format: 99 }),
      JSON.stringify({ ...good, text: 42 }),
      JSON.stringify({ ...good, text: `${original} ` }),
    ]) {
      fs.writeFileSync(entry!, bad);
      fs.writeFileSync(file, original);
      const ok = runHook('pre-commit', repo.dir, repo.env);
      expect(ok.status, `${bad}: ${ok.stderr}`).toBe(0);
      expect(fs.readFileSync(entry!, 'utf8'), bad).not.toBe(bad);
      // The tampered anchor, with whatever entry the worktree offers for it: refused.
      fs.writeFileSync(file, tampered);
      fs.mkdirSync(path.join(repo.dir, '.hestai/cache/anchor'), { recursive: true });
      fs.writeFileSync(
        path.join(repo.dir, '.hestai/cache/anchor', path.basename(entry!)),
        JSON.stringify({ ...good, text: tampered }),
      );
      expectTampered(runHook('pre-commit', repo.dir, repo.env));
      expect(hasValidAnchor(workspacePaths(repo.dir), token)).toMatchObject({ valid: false, code: 'TAMPERED' });
    }
  });
});
