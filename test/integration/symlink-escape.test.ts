import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertSafeStatePath, isSafeStatePath } from '../../src/state/safe-path.js';
import { tempDir } from '../helpers/git-repo.js';

// One guard decides every symlink question under .hestai/ (src/state/safe-path.ts): the writers and the
// security audit of a refused request alike. A link is refused wherever it points: right beside the
// worktree (one `..` away), two levels up, dangling, and inside the worktree too.
describe('the state-path guard and symlinks', () => {
  function layout() {
    const base = tempDir();
    const root = path.join(base, 'repo');
    fs.mkdirSync(path.join(root, '.hestai/inside'), { recursive: true });
    const sibling = path.join(base, 'sibling');
    fs.mkdirSync(sibling);
    return { base, root, sibling };
  }

  it('refuses a link to a sibling directory of the worktree, naming its target', () => {
    const { root, sibling } = layout();
    fs.symlinkSync(sibling, path.join(root, '.hestai/sessions'));
    const target = path.join(root, '.hestai/sessions/active');
    expect(isSafeStatePath(target, 'dir')).toBe(false);
    expect(() => assertSafeStatePath(target, 'dir')).toThrow(new RegExp(`is a symlink \\(to ${sibling}\\)`));
  });

  it('refuses a link two levels up and a dangling link', () => {
    const { base, root } = layout();
    fs.symlinkSync(path.dirname(base), path.join(root, '.hestai/up'));
    fs.symlinkSync(path.join(base, 'gone'), path.join(root, '.hestai/dangling'));
    expect(isSafeStatePath(path.join(root, '.hestai/up'), 'dir')).toBe(false);
    expect(isSafeStatePath(path.join(root, '.hestai/dangling/x.json'), 'file')).toBe(false);
  });

  it('refuses a link that stays inside the worktree; accepts a plain directory and a missing path', () => {
    const { root } = layout();
    fs.symlinkSync(path.join(root, '.hestai/inside'), path.join(root, '.hestai/link'));
    expect(isSafeStatePath(path.join(root, '.hestai/link'), 'dir')).toBe(false);
    expect(isSafeStatePath(path.join(root, '.hestai/inside'), 'dir')).toBe(true);
    expect(isSafeStatePath(path.join(root, '.hestai/missing/deeper.json'), 'file')).toBe(true);
  });
});
