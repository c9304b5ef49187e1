import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formerCacheDir, textKey } from '../helpers/former-cache.js';
import { workspacePaths } from '../../src/paths.js';
import { anchorFile, hasValidAnchor } from '../../src/records/anchor.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { makeSession, runHook } from '../helpers/session-fixture.js';

// Issue 27: an anchor whose integrity hash held is remembered only inside the process (the pre-commit hook
// checks it up to four times), never in the user cache directory, which an agent can write: an anchor edited
// after validation is refused whatever entry is planted for it, in the user cache or in the worktree.

const remembered = (repo: TempRepo) => {
  const dir = path.join(formerCacheDir(repo.env), 'anchor');
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

describe('a verified anchor is never remembered outside the process', () => {
  it('passes on a valid anchor and writes nothing to the user cache directory or the worktree', () => {
    const { repo, stage } = anchored();
    stage();
    const first = runHook('pre-commit', repo.dir, repo.env);
    expect(first.status, first.stderr).toBe(0);
    expect(remembered(repo)).toEqual([]);
    expect(fs.existsSync(path.join(repo.dir, '.hestai/cache'))).toBe(false);
    const second = runHook('pre-commit', repo.dir, repo.env);
    expect(second.status, second.stderr).toBe(0);
  });

  it('refuses an anchor edited after validation, whatever is planted where earlier builds remembered anchors', () => {
    const { repo, token, file, stage } = anchored();
    stage();
    expect(runHook('pre-commit', repo.dir, repo.env).status).toBe(0);
    const original = fs.readFileSync(file, 'utf8');
    const anchor = JSON.parse(original) as Record<string, unknown>;
    const dir = path.join(formerCacheDir(repo.env), 'anchor');
    fs.mkdirSync(dir, { recursive: true });
    for (const edited of [
      JSON.stringify({ ...anchor, role: 'someone-else' }, null, 2),
      JSON.stringify({ ...anchor, tier: anchor['tier'] === 'quick' ? 'deep' : 'quick' }),
    ]) {
      fs.writeFileSync(file, edited);
      // Vouched for as earlier builds read it (format 1, the exact text), in the user cache and the worktree.
      const entry = JSON.stringify({ format: 1, text: edited });
      fs.writeFileSync(path.join(dir, `1-${textKey(edited)}.json`), entry);
      fs.mkdirSync(path.join(repo.dir, '.hestai/cache/anchor'), { recursive: true });
      fs.writeFileSync(path.join(repo.dir, '.hestai/cache/anchor', `1-${textKey(edited)}.json`), entry);
      expectTampered(runHook('pre-commit', repo.dir, repo.env));
      expect(hasValidAnchor(workspacePaths(repo.dir), token)).toMatchObject({ valid: false, code: 'TAMPERED' });
    }
    // The same anchor in another layout: its integrity holds.
    fs.writeFileSync(file, JSON.stringify(anchor));
    expect(runHook('pre-commit', repo.dir, repo.env).status).toBe(0);
  });
});
