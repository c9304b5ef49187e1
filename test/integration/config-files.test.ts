import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { standardConfigFiles } from '../../src/git/config-files.js';
import { makeRepo } from '../helpers/git-repo.js';

// The config files the git-fact caches key their answers by must include every file git reads: with
// GIT_CONFIG_NOSYSTEM set to a false value (`0`, `false`, `no`, `off`, empty) git still reads the system file.
// The oracle is git itself (`git config --list --show-origin`).

describe('standardConfigFiles and GIT_CONFIG_NOSYSTEM', () => {
  it('lists the system file exactly when git reads it', () => {
    const repo = makeRepo();
    const system = path.join(repo.home, 'system-gitconfig');
    fs.writeFileSync(system, '[core]\n\tcommentChar = ;\n');
    const gitDir = path.join(repo.dir, '.git');
    for (const value of ['0', 'false', 'FALSE', 'no', 'off', '', '1', 'true', 'True', 'yes', 'on', '2']) {
      const env = { ...repo.env, GIT_CONFIG_SYSTEM: system, GIT_CONFIG_NOSYSTEM: value };
      const r = spawnSync('git', ['config', '--list', '--show-origin'], { cwd: repo.dir, env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const gitReads = r.stdout.includes(system);
      expect(standardConfigFiles(repo.dir, gitDir, gitDir, env).includes(system), `"${value}"`).toBe(gitReads);
    }
  });
});
