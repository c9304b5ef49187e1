import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOwnCacheFile } from '../../src/state/store.js';
import { tempDir } from '../helpers/git-repo.js';

// The one reader of files in the user cache directory (src/state/store.ts): it believes only a regular file of
// this user within its size bound, checked on the descriptor it reads from; anything else is a miss (null),
// at once: a FIFO never blocks it and a symlink is never followed.

describe('readOwnCacheFile', () => {
  it('reads a regular file of this user within the bound', () => {
    const file = path.join(tempDir(), 'entry.json');
    fs.writeFileSync(file, '{"format":1,"text":"é"}');
    expect(readOwnCacheFile(file, 1024)).toBe('{"format":1,"text":"é"}');
    fs.writeFileSync(file, '');
    expect(readOwnCacheFile(file, 1024)).toBe('');
  });

  it('is a miss for a missing file, a directory, a file over the bound, a FIFO and a symlink (even to a good file)', () => {
    const dir = tempDir();
    const good = path.join(dir, 'good.json');
    fs.writeFileSync(good, '{"ok":true}');
    expect(readOwnCacheFile(path.join(dir, 'missing.json'), 1024)).toBeNull();
    expect(readOwnCacheFile(dir, 1024)).toBeNull();
    expect(readOwnCacheFile(good, 5)).toBeNull();
    const fifo = path.join(dir, 'fifo.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Would block this very process forever if the open or the read waited for a writer.
    expect(readOwnCacheFile(fifo, 1024)).toBeNull();
    const link = path.join(dir, 'link.json');
    fs.symlinkSync(good, link);
    expect(readOwnCacheFile(link, 1024)).toBeNull();
    expect(readOwnCacheFile('/dev/zero', 1024)).toBeNull();
  });

  it.skipIf(!(typeof process.getuid === 'function' && process.getuid() === 0))(
    "is a miss for another user's file (as root: chown to uid 65534)",
    () => {
      const file = path.join(tempDir(), 'entry.json');
      fs.writeFileSync(file, '{"ok":true}');
      expect(readOwnCacheFile(file, 1024)).toBe('{"ok":true}');
      fs.chownSync(file, 65534, 65534);
      expect(readOwnCacheFile(file, 1024)).toBeNull();
    },
  );
});
