import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { symlinkEscape } from '../../src/session/guard.js';
import { tempDir } from '../helpers/git-repo.js';

// The escape check must catch a link to a directory right beside the worktree (one `..` away), not only
// one two levels up: a weakened check (`../..`) would let `.hestai/sessions` point into a sibling checkout.
describe('symlinkEscape', () => {
  function layout() {
    const base = tempDir();
    const root = path.join(base, 'repo');
    fs.mkdirSync(path.join(root, '.hestai/inside'), { recursive: true });
    const sibling = path.join(base, 'sibling');
    fs.mkdirSync(sibling);
    return { base, root, sibling };
  }

  it('names the target of a link to a sibling directory of the worktree', () => {
    const { root, sibling } = layout();
    fs.symlinkSync(sibling, path.join(root, '.hestai/sessions'));
    expect(symlinkEscape(root, path.join(root, '.hestai/sessions'))).toBe(sibling);
  });

  it('names a link two levels up and a dangling link', () => {
    const { base, root } = layout();
    fs.symlinkSync(path.dirname(base), path.join(root, '.hestai/up'));
    fs.symlinkSync(path.join(base, 'gone'), path.join(root, '.hestai/dangling'));
    expect(symlinkEscape(root, path.join(root, '.hestai/up'))).toBe(path.dirname(base));
    expect(symlinkEscape(root, path.join(root, '.hestai/dangling'))).toBe('(dangling)');
  });

  it('accepts a link that stays inside the worktree, a plain directory and a missing path', () => {
    const { root } = layout();
    fs.symlinkSync(path.join(root, '.hestai/inside'), path.join(root, '.hestai/link'));
    expect(symlinkEscape(root, path.join(root, '.hestai/link'))).toBeNull();
    expect(symlinkEscape(root, path.join(root, '.hestai/inside'))).toBeNull();
    expect(symlinkEscape(root, path.join(root, '.hestai/missing'))).toBeNull();
  });
});
