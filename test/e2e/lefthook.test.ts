import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { installPinned } from '../helpers/npm-tool.js';

// Issue 28, item 4: with lefthook (the npm package, pinned, installed into the tests' cache with its
// postinstall refused: it runs `lefthook install` in whatever project installs it), init installs through
// lefthook.yml, keeping the user's commands and comments; once lefthook installed its hooks, commits are
// checked and doctor's dry run reaches hestai. Issue 41, item 4: init names lefthook, doctor passes on a clean
// index, `git commit --allow-empty` is judged (lefthook skips a command when nothing is staged), and with a
// global hestai (a Go project) lefthook.yml holds no path of this machine.
const LEFTHOOK = await installPinned({
  pkg: 'lefthook',
  version: '2.2.2',
  bin: 'lefthook',
  allowScripts: { lefthook: false },
});

function sh(repo: TempRepo, env: NodeJS.ProcessEnv, script: string) {
  const run = spawnSync('sh', ['-c', script], { cwd: repo.dir, env, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const USER_CONFIG = ['# our hooks', 'pre-commit:', '  commands:', '    lint:', '      run: echo lint ran', ''].join(
  '\n',
);

describe.skipIf(LEFTHOOK === null)('lefthook', () => {
  it('init adds hestai to lefthook.yml (keeping the rest); after lefthook install, commits are checked and doctor passes', () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
    fs.symlinkSync('../hestai-hooks/dist/cli/bin.js', path.join(repo.dir, 'node_modules/.bin/hestai'));
    const PATH = [
      path.dirname(LEFTHOOK!),
      ...(process.env['PATH'] ?? '').split(':').filter((d) => !d.includes('node_modules')),
    ];
    const env = { ...repo.env, PATH: PATH.join(':') };
    repo.commit('chore: lefthook', { 'lefthook.yml': USER_CONFIG, '.gitignore': 'node_modules/\n' });
    const install = sh(repo, env, 'lefthook install');
    expect(install.status, install.output).toBe(0);

    const init = sh(repo, env, 'npx hestai init');
    expect(init.status, init.output).toBe(0);
    expect(init.output.split('\n')[0]).toMatch(/\(lefthook: hestai's commands in lefthook\.yml\)$/);
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
    repo.git(['reset', '-q']);
    const empty = sh(repo, env, 'git commit -q --allow-empty -m "docs: nothing"');
    expect(empty.status, empty.output).not.toBe(0);
    expect(empty.output).toMatch(/commit blocked: no active session/);

    expect(repo.git(['diff', '--cached', '--name-only']).stdout).toBe('');
    const doctor = sh(repo, env, 'npx hestai doctor');
    expect(doctor.status, doctor.output).toBe(0);
    // A linked worktree without the dependency (no npm ci there): one line naming the command, no stack.
    const wt = path.join(tempDir('hestai-wt-'), 'wt');
    repo.git(['worktree', 'add', '-q', '-b', 'other', wt]);
    fs.writeFileSync(path.join(wt, 'notes.md'), 'notes\n');
    repo.git(['add', 'notes.md'], { cwd: wt });
    const bare = spawnSync('sh', ['-c', 'git commit -q -m "docs: notes"'], { cwd: wt, env, encoding: 'utf8' });
    const said = `${bare.stdout}${bare.stderr}`;
    expect(bare.status, said).not.toBe(0);
    expect(said).not.toMatch(/MODULE_NOT_FOUND|Cannot find module|node:internal/);
    expect(said).toContain(
      'hestai: hestai-hooks is not installed in this worktree, so this commit is refused: run `npm ci`',
    );

    const before = fs.readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8');
    expect(sh(repo, env, 'npx hestai init').status).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8')).toBe(before);
  });
});

describe.skipIf(LEFTHOOK === null)('lefthook with a global hestai (no package.json)', () => {
  it('lefthook.yml calls `hestai check <hook>`, no path of this machine; every hook reaches hestai', () => {
    const repo = makeRepo();
    const bin = tempDir('hestai-global-bin-');
    fs.symlinkSync(path.join(PROJECT_ROOT, 'dist/cli/bin.js'), path.join(bin, 'hestai'));
    const PATH = [bin, path.dirname(LEFTHOOK!), ...(process.env['PATH'] ?? '').split(':')].filter(
      (d) => !d.includes('node_modules') || d === path.dirname(LEFTHOOK!),
    );
    const env = { ...repo.env, PATH: PATH.join(':') };
    repo.commit('chore: lefthook', { 'lefthook.yml': USER_CONFIG, 'main.go': 'package main\n' });
    expect(sh(repo, env, 'lefthook install').status).toBe(0);
    const init = sh(repo, env, 'hestai init --commit');
    expect(init.status, init.output).toBe(0);
    const config = fs.readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8');
    expect(config).not.toContain(PROJECT_ROOT);
    expect(config).not.toMatch(/run: .*\//);
    for (const hook of ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'pre-push'])
      expect(config).toContain(`hestai check ${hook}`);

    const empty = sh(repo, env, 'git commit -q --allow-empty -m "docs: nothing"');
    expect(empty.status, empty.output).not.toBe(0);
    expect(empty.output).toMatch(/commit blocked: no active session/);
    // prepare-commit-msg runs under --no-verify too: it warns that the commit gets no trailers.
    const unverified = sh(repo, env, 'git commit -q --no-verify --allow-empty -m "docs: unverified"');
    expect(unverified.status, unverified.output).toBe(0);
    expect(unverified.output).toMatch(/gets no HestAI trailers/);
    const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
    repo.git(['init', '-q', '--bare', remote]);
    const push = sh(repo, env, `git push -q ${remote} HEAD:refs/heads/main`);
    expect(push.status, push.output).toBe(0);
    expect(push.output).toMatch(/✔️ hestai/);
    const doctor = sh(repo, env, 'hestai doctor');
    expect(doctor.status, doctor.output).toBe(0);
  });
});
