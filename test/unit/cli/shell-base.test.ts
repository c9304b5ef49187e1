// `hestai anchor` rebases a payload's paths from the shell's directory: that directory is inside the worktree
// by the one definition of "inside" (src/paths.ts pathInside), where only a `..` segment leaves.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellBase } from '../../../src/cli/commands/anchor-person.js';
import { tempDir } from '../../helpers/git-repo.js';

describe('shellBase', () => {
  it('takes a directory whose name starts with ".." for one inside the worktree', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, '..drafts', 'a'), { recursive: true });
    expect(shellBase(root, path.join(root, '..drafts', 'a'))).toBe('..drafts/a');
    expect(shellBase(root, path.join(root, '..drafts'))).toBe('..drafts');
  });

  it('is empty at the root and outside it', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'sub'));
    expect(shellBase(root, root)).toBe('');
    expect(shellBase(path.join(root, 'sub'), root)).toBe('');
    expect(shellBase(root, path.join(root, 'sub'))).toBe('sub');
  });
});
