import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { npmEnv, packCleanCopy, readmeBlock, tarballFiles, type Packed } from '../helpers/packed.js';

// Issue 28, item 1: the package packs from a clean checkout (prepack builds; prepare does nothing outside
// this repository's own checkout), the tarball carries dist/ and links `hestai`, installing it runs no
// install script, and the README's adoption commands run as written in a repository that installed it.
let packed: Packed;

beforeAll(() => {
  packed = packCleanCopy();
}, 180_000);
afterAll(() => fs.rmSync(packed.work, { recursive: true, force: true }));

describe('npm pack in a clean checkout', () => {
  it('builds dist/ before packing, and runs no husky outside this repository', () => {
    const files = tarballFiles(packed.tarball);
    for (const file of ['dist/cli/bin.js', 'dist/hooks/pre-commit.cjs', 'dist/index.js', 'hooks/pre-commit'])
      expect(files, file).toContain(`package/${file}`);
    expect(packed.output).not.toMatch(/husky|\.git can't be found|command not found/);
    expect(fs.existsSync(path.join(packed.checkout, '.husky/_'))).toBe(false);
  });

  it('ships a manifest with no install-time script, and a prepare that does nothing outside a checkout', () => {
    const untar = spawnSync('tar', ['-xzf', packed.tarball, '-C', packed.work], { encoding: 'utf8' });
    expect(untar.status, untar.stderr).toBe(0);
    const unpacked = path.join(packed.work, 'package');
    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts?: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ hestai: 'dist/cli/bin.js' });
    for (const script of ['preinstall', 'install', 'postinstall'])
      expect(manifest.scripts?.[script], script).toBeUndefined();
    // npm runs prepare only for a git or directory dependency; run where no .git is, it changes nothing.
    const before = tarballFiles(packed.tarball).length;
    const prepare = spawnSync('npm', ['run', 'prepare', '--if-present'], {
      cwd: unpacked,
      env: npmEnv(process.env),
      encoding: 'utf8',
    });
    expect(prepare.status, prepare.stdout + prepare.stderr).toBe(0);
    expect(prepare.stdout + prepare.stderr).not.toMatch(/husky|not found|\.git can't be found/);
    const after = spawnSync('find', ['.', '-type', 'f'], { cwd: unpacked, encoding: 'utf8' }).stdout.split('\n');
    expect(after.filter(Boolean)).toHaveLength(before);
  });
});

describe("the README's adoption commands, in a repository that installs the tarball", () => {
  it('install with no lifecycle script, link hestai, and leave hooks that doctor finds running', () => {
    const repo = makeRepo();
    const env = npmEnv(repo.env);
    const lines = readmeBlock('**Add it to your repository**');
    expect(lines[0]).toMatch(/^npm i -D hestai-hooks(\s|$)/);
    for (const line of lines) {
      const command = line.replace(/^npm i -D hestai-hooks(?=\s|$)/, `npm i -D ${packed.tarball}`);
      const run = spawnSync('sh', ['-c', command], { cwd: repo.dir, env, encoding: 'utf8' });
      const output = `${run.stdout}${run.stderr}`;
      expect(run.status, `${command}\n${output}`).toBe(0);
      // npm prints "> pkg@version script" for each lifecycle script it runs (foreground scripts are on).
      expect(output, command).not.toMatch(/^> hestai-hooks@/m);
      expect(output, command).not.toMatch(/command not found|ERR_MODULE_NOT_FOUND|internal error/);
    }
    expect(fs.existsSync(path.join(repo.dir, 'node_modules/.bin/hestai'))).toBe(true);
    expect(fs.readFileSync(path.join(repo.dir, '.git/hooks/pre-commit'), 'utf8')).toContain(
      'node_modules/hestai-hooks/hooks/pre-commit',
    );
    const doctor = spawnSync('npx', ['hestai', 'doctor'], { cwd: repo.dir, env, encoding: 'utf8' });
    expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0);
  });
});
