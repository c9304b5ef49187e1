import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';
import { npmEnv } from '../helpers/packed.js';

// Issue 28, item 4: with lefthook (the npm package's binary, here from its platform package: the `lefthook`
// package's postinstall runs `lefthook install` in whatever project installs it, which would write a
// lefthook.yml into this repository, so it is not a devDependency), init installs through lefthook.yml,
// keeping the user's commands and comments; once lefthook installed its hooks, commits are checked and
// doctor's dry run reaches hestai.
const LEFTHOOK_VERSION = '2.2.2';
let lefthookBin = '';

beforeAll(() => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-lefthook-')));
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  const pack = spawnSync('npm', ['pack', `lefthook-${process.platform}-${arch}@${LEFTHOOK_VERSION}`, '--silent'], {
    cwd: dir,
    env: npmEnv(process.env),
    encoding: 'utf8',
  });
  expect(pack.status, pack.stderr).toBe(0);
  const untar = spawnSync('tar', ['-xzf', pack.stdout.trim(), '-C', dir], { cwd: dir, encoding: 'utf8' });
  expect(untar.status, untar.stderr).toBe(0);
  lefthookBin = path.join(dir, 'package/bin');
  expect(fs.existsSync(path.join(lefthookBin, 'lefthook'))).toBe(true);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

function sh(repo: TempRepo, env: NodeJS.ProcessEnv, script: string) {
  const run = spawnSync('sh', ['-c', script], { cwd: repo.dir, env, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const USER_CONFIG = ['# our hooks', 'pre-commit:', '  commands:', '    lint:', '      run: echo lint ran', ''].join(
  '\n',
);

describe('lefthook', () => {
  it('init adds hestai to lefthook.yml (keeping the rest); after lefthook install, commits are checked and doctor passes', () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
    fs.symlinkSync('../hestai-hooks/dist/cli/bin.js', path.join(repo.dir, 'node_modules/.bin/hestai'));
    const PATH = [lefthookBin, ...(process.env['PATH'] ?? '').split(':').filter((d) => !d.includes('node_modules'))];
    const env = { ...repo.env, PATH: PATH.join(':') };
    repo.commit('chore: lefthook', { 'lefthook.yml': USER_CONFIG, '.gitignore': 'node_modules/\n' });
    const install = sh(repo, env, 'lefthook install');
    expect(install.status, install.output).toBe(0);

    const init = sh(repo, env, 'npx hestai init');
    expect(init.status, init.output).toBe(0);
    const config = fs.readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8');
    expect(config).toContain('# our hooks');
    expect(config).toContain('echo lint ran');
    expect(config).toContain('node_modules/hestai-hooks/hooks/pre-commit');
    expect(config).toContain('node_modules/hestai-hooks/hooks/commit-msg');
    expect(config).not.toContain(repo.dir);
    expect(init.output).toContain('lefthook install');
    expect(sh(repo, env, 'lefthook install').status).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);

    repo.write('notes.md', 'hello\n');
    repo.git(['add', 'notes.md']);
    const blocked = sh(repo, env, 'git commit -q -m "docs: notes"');
    expect(blocked.status, blocked.output).not.toBe(0);
    expect(blocked.output).toContain('lint ran');
    expect(blocked.output).toMatch(/commit blocked: no active session/);

    const doctor = sh(repo, env, 'npx hestai doctor');
    expect(doctor.status, doctor.output).toBe(0);
    const before = fs.readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8');
    expect(sh(repo, env, 'npx hestai init').status).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8')).toBe(before);
  });
});
