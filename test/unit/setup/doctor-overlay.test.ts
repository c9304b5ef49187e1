// hestai doctor's probe copies this worktree's hook chain over a throw-away worktree: a relative
// core.hooksPath inside the worktree (by src/paths.ts pathInside, where only a `..` segment leaves) is copied.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { overlay } from '../../../src/setup/doctor-probe.js';
import { tempDir } from '../../helpers/git-repo.js';

function chain(hooksPath: string): { root: string; wt: string } {
  const root = tempDir();
  const wt = tempDir();
  fs.mkdirSync(path.join(root, hooksPath), { recursive: true });
  fs.writeFileSync(path.join(root, hooksPath, 'pre-commit'), '#!/bin/sh\nexit 1\n');
  return { root, wt };
}

describe('the probe overlay', () => {
  it('copies a hooks directory whose name starts with ".." (it is inside the worktree)', () => {
    const { root, wt } = chain('..hooks');
    overlay(root, wt, '..hooks');
    expect(fs.readFileSync(path.join(wt, '..hooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 1\n');
  });

  it('copies a plain relative hooks directory, and nothing for one outside or the root itself', () => {
    const { root, wt } = chain('.githooks');
    overlay(root, wt, '.githooks');
    expect(fs.existsSync(path.join(wt, '.githooks', 'pre-commit'))).toBe(true);
    const other = chain('hooks');
    overlay(other.root, other.wt, '../elsewhere');
    overlay(other.root, other.wt, '.');
    expect(fs.readdirSync(other.wt)).toEqual([]);
  });
});
