import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { userCacheDir } from '../../src/config/cache.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// Issue 26 item 3, issue 27 item 3: the user cache directory is resolved with realpath before the
// in-the-worktree check. With HOME (or XDG_CACHE_HOME) a symlink into a clone's subdirectory, the clone's
// committed files would otherwise be the history cache the hooks believe.

describe('the user cache directory behind a symlink', () => {
  it('HOME or XDG_CACHE_HOME linked into a worktree: no cache directory', () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'sub', '.cache'), { recursive: true });
    const links = tempDir('hestai-links-');
    const home = path.join(links, 'home');
    fs.symlinkSync(path.join(repo.dir, 'sub'), home);
    expect(userCacheDir({ HOME: home })).toBeNull();
    const xdg = path.join(links, 'xdg');
    fs.symlinkSync(path.join(repo.dir, 'sub', '.cache'), xdg);
    expect(userCacheDir({ XDG_CACHE_HOME: xdg })).toBeNull();
    // A link to a directory outside every worktree is a cache directory, named as given.
    const outside = tempDir('hestai-outside-');
    const ok = path.join(links, 'ok');
    fs.symlinkSync(outside, ok);
    expect(userCacheDir({ XDG_CACHE_HOME: ok })).toBe(path.join(ok, 'hestai'));
  });
});
