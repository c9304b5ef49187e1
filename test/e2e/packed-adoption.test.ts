import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir } from '../helpers/git-repo.js';
import { npmEnv, sharedCleanPack, readmeBlock, tarballFiles, type Packed } from '../helpers/packed.js';

// Issue 28, item 1: the package packs from a clean checkout (prepack builds), the tarball carries dist/ and
// links `hestai`, installing it runs no script and prints no npm warning (issue 41: the packed manifest has no
// prepare), and the README's adoption commands run as written in a repository that installed it.
let packed: Packed;

beforeAll(() => {
  packed = sharedCleanPack();
}, 180_000);

describe('npm pack in a clean checkout', () => {
  it('builds dist/ before packing, and runs no husky outside this repository', () => {
    const files = tarballFiles(packed.tarball);
    for (const file of ['dist/cli/bin.js', 'dist/hooks/pre-commit.cjs', 'dist/index.js', 'hooks/pre-commit'])
      expect(files, file).toContain(`package/${file}`);
    expect(packed.output).not.toMatch(/husky|\.git can't be found|command not found/);
    expect(fs.existsSync(path.join(packed.checkout, '.husky/_'))).toBe(false);
  });

  it('ships a manifest with no lifecycle script (npm 11 warns of prepare), and leaves the checkout as it was', () => {
    const into = tempDir('hestai-unpacked-');
    const untar = spawnSync('tar', ['-xzf', packed.tarball, '-C', into], { encoding: 'utf8' });
    expect(untar.status, untar.stderr).toBe(0);
    const unpacked = path.join(into, 'package');
    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts?: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ hestai: 'dist/cli/bin.js' });
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts?.[script], script).toBeUndefined();
    // The checkout's own package.json keeps prepare (this repository's dev flow: npm install sets up husky).
    const own = fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8');
    expect(fs.readFileSync(path.join(packed.checkout, 'package.json'), 'utf8')).toBe(own);
    expect((JSON.parse(own) as { scripts: Record<string, string> }).scripts['prepare']).toBeDefined();
    expect(fs.readdirSync(packed.checkout).filter((f) => f.startsWith('package.json.'))).toEqual([]);
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
      expect(output, command).not.toMatch(/npm warn/i);
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
