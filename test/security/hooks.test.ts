import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/setup/install.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 5: hooks that git really runs. `init` honours an existing core.hooksPath, `doctor`
// exits 1 when installed hooks would not fire, and the hook line quotes the package path so shell syntax
// in it is inert.

describe('hooks: core.hooksPath', () => {
  it('init --no-husky installs where core.hooksPath points, and a real commit is checked', () => {
    const repo = makeRepo();
    repo.git(['config', 'core.hooksPath', '.githooks']);
    const init = hestai(repo, ['init', '--no-husky']);
    noStack(init);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).not.toMatch(/run: hestai init/);
    expect(fs.readFileSync(path.join(repo.dir, '.githooks', 'pre-commit'), 'utf8')).toContain('hestai pre-commit');
    repo.write('src/a.ts', 'export {};\n');
    repo.git(['add', '-A']);
    const commit = repo.git(['commit', '-q', '-m', 'chore: unchecked?'], { allowFail: true });
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toMatch(/hestai/);
    const doctor = hestai(repo, ['doctor']);
    expect(doctor.status, doctor.stdout).toBe(0);
  });

  it('doctor exits 1 when the installed hooks would not fire (core.hooksPath set after init), naming a remedy that works', () => {
    const repo = makeRepo();
    expect(hestai(repo, ['init', '--no-husky']).status).toBe(0);
    repo.git(['config', 'core.hooksPath', '.githooks']);
    const doctor = hestai(repo, ['doctor']);
    noStack(doctor);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(/core\.hooksPath/);
    // The remedy it names works: init again installs where git looks now.
    expect(hestai(repo, ['init', '--no-husky']).status).toBe(0);
    expect(hestai(repo, ['doctor']).status).toBe(0);
  });
});

describe('hooks: the hook line quotes the package path', () => {
  it('spaces, quotes, $ and backticks in the package path are inert, and the hook still runs', () => {
    const base = tempDir();
    const dir = path.join(base, `pkg dir 'q' "dq" $(touch ${base}/PWNED1) \`touch ${base}/PWNED2\` $HOME`, 'hooks');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'pre-commit'),
      `require('node:fs').writeFileSync(${JSON.stringify(path.join(base, 'ran'))}, process.argv.slice(2).join(','));\n`,
    );
    const line = hookCommand('pre-commit', dir);
    const result = spawnSync('sh', ['-c', `set -- a1 a2\n${line}`], { cwd: base, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(fs.readFileSync(path.join(base, 'ran'), 'utf8')).toBe('a1,a2');
    expect(fs.existsSync(path.join(base, 'PWNED1'))).toBe(false);
    expect(fs.existsSync(path.join(base, 'PWNED2'))).toBe(false);
  });
});
