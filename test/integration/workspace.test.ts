import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HestaiError } from '../../src/errors.js';
import { resolveWorkspace } from '../../src/workspace.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

function refused(dir: string, requireAbsolute = true): HestaiError {
  try {
    resolveWorkspace(dir, { requireAbsolute });
  } catch (error) {
    if (error instanceof HestaiError) return error;
    throw error;
  }
  throw new Error(`expected ${dir} to be refused`);
}

describe('resolveWorkspace', () => {
  it('resolves any path inside the repository to the worktree root', () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'a/b'), { recursive: true });
    expect(resolveWorkspace(path.join(repo.dir, 'a/b'), { requireAbsolute: true }).root).toBe(repo.dir);
  });

  it('refuses traversal, control characters, relative, missing and non-directory paths with exit 2', () => {
    const repo = makeRepo();
    expect(refused(`${repo.dir}/../x`).code).toBe('PATH_TRAVERSAL');
    expect(refused(`${repo.dir}\n/etc`).code).toBe('PATH_TRAVERSAL');
    expect(refused('relative/dir').code).toBe('WORKDIR_INVALID');
    expect(refused(path.join(repo.dir, 'missing')).message).toContain('does not exist');
    expect(refused(path.join(repo.dir, 'README.md')).message).toContain('not a directory');
    for (const dir of [`${repo.dir}/../x`, 'relative/dir']) expect(refused(dir).exitCode).toBe(2);
  });

  it('refuses a directory that is neither a work tree nor holds .hestai/', () => {
    const dir = tempDir();
    expect(refused(dir).code).toBe('NOT_A_REPO');
    fs.mkdirSync(path.join(dir, '.hestai'));
    expect(resolveWorkspace(dir).root).toBe(dir);
  });
});
